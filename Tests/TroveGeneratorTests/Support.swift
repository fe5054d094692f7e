import TroveGenerator

/// Runs the generator over in-memory sources named `Input0.swift`, `Input1.swift`...
func generate(_ sources: String..., includeUnannotated: Bool = false) throws -> GeneratorResult {
    try GeneratorPipeline().run(
        sources.enumerated().map { index, text in
            SourceInput(path: "Input\(index).swift", relativePath: "Input\(index).swift", contents: text)
        },
        includeUnannotated: includeUnannotated)
}
