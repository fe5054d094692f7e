import Foundation

/// A line of Swift as the compiler is given it, with the line of the document it came from.
struct SourceLine: Sendable, Equatable {
    var text: String
    /// The document's line, counted from 1; `nil` for a line the assembler wrote.
    var documentLine: Int?
}

/// The Swift files made from the compiled blocks of one document.
///
/// A block is a fragment: it needs what its reader has around it. The assembler gives it that:
///
/// - The type declarations at the block's outer level (`struct`, `enum`, `class`, `extension`,
///   `protocol`, `actor`, with the comments and attributes right above them) go to the top level of
///   `declarations`, as the reader would write them in a file of their own; trove-gen generates the
///   code of the annotated ones. `import` lines go to the top of both files.
/// - The rest of each block becomes the body of a function of its own in `snippets`: synchronous
///   and throwing, or `async throws` when marked `async`, `nonisolated` when marked so, with a
///   parameter `tx` when marked `tx: KIND`. A block marked `continues` goes on in the function of the last block before it
///   that had statements, so it sees what that block declared. The values a block uses without declaring them (`connection`,
///   `user`, `id`) come from the context (`Context/Context.swift`).
/// - An ellipsis (`…`) outside a string stands for the reader's own code and is left out.
///
/// Each line keeps its place: `#sourceLocation` directives name the document and the line, so the
/// compiler's messages point into the document.
struct SnippetAssembler: Sendable {
    /// The document's path, as the messages show it (relative to the package).
    var documentPath: String
    /// Lines of `declarations`, without `#sourceLocation` directives (trove-gen reads this file; the
    /// compiler reads ``declarationSource``).
    private(set) var declarations: [SourceLine] = []
    /// The functions made of the blocks' statements.
    private(set) var snippets: [SourceLine] = []
    /// The `import` lines of the blocks.
    private(set) var imports: [String] = []
    /// The names of the types that the blocks declare at the top level.
    private(set) var declaredTypeNames: Set<String> = []
    /// The first line of each compiled block, in order, to name the block of a message.
    private(set) var blockStarts: [Int] = []

    private var openFunction: (header: String, lines: [SourceLine])?

    /// Assembles the compiled blocks of a document.
    ///
    /// - Throws: ``DocumentProblem`` for a block marked `continues` that follows no compiled block.
    init(documentPath: String, blocks: [DocumentBlock]) throws(DocumentProblem) {
        self.documentPath = documentPath
        for block in blocks where block.isCompiled {
            blockStarts.append(block.firstLine)
            let (hoisted, body) = Self.split(block)
            for line in hoisted {
                let trimmed = line.text.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("import ") {
                    if !imports.contains(trimmed) { imports.append(trimmed) }
                    continue
                }
                declarations.append(line)
                if let name = Self.declaredTypeName(trimmed) { declaredTypeNames.insert(name) }
            }
            let hasStatements = body.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
            if !block.marker.continuesPrevious && !hasStatements {
                // Declarations only: the block after it may continue the statements before it.
                continue
            }
            if block.marker.continuesPrevious {
                guard openFunction != nil else {
                    throw DocumentProblem(
                        line: block.fenceLine - 1, message: "`continues` on a block that follows no compiled block")
                }
                openFunction?.lines += body
            } else {
                closeFunction()
                var parameters = ""
                if let transaction = block.marker.transaction {
                    parameters = "tx: \(transaction.typeName)"
                }
                let effects = block.marker.isAsync ? "async throws" : "throws"
                let isolation = block.marker.isNonisolated ? "nonisolated " : ""
                openFunction = ("\(isolation)func snippetAtLine\(block.firstLine)(\(parameters)) \(effects) {", body)
            }
        }
        closeFunction()
    }

    private mutating func closeFunction() {
        guard let function = openFunction else { return }
        openFunction = nil
        guard function.lines.contains(where: { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }) else { return }
        snippets.append(SourceLine(text: function.header, documentLine: nil))
        snippets += function.lines
        snippets.append(SourceLine(text: "}", documentLine: nil))
    }

    /// The header every file of the compilation starts with.
    var importHeader: String {
        (["import Foundation", "import Trove"] + imports.filter { $0 != "import Foundation" && $0 != "import Trove" })
            .joined(separator: "\n") + "\n"
    }

    /// `declarations` as trove-gen reads it, and the document line of each of its lines.
    var declarationFile: (text: String, documentLines: [Int?]) {
        let header = importHeader.split(separator: "\n").map { _ in Int?.none }
        return (
            importHeader + declarations.map(\.text).joined(separator: "\n") + "\n",
            header + declarations.map(\.documentLine)
        )
    }

    /// `declarations` for the compiler, with `#sourceLocation` directives.
    var declarationSource: String { importHeader + located(declarations) }

    /// The functions, for the compiler, with `#sourceLocation` directives.
    var snippetSource: String { importHeader + located(snippets) }

    /// The first line of the block that holds document line `line`.
    func blockStart(containing line: Int) -> Int? {
        blockStarts.last { $0 <= line }
    }

    /// `lines` joined, with a `#sourceLocation` directive wherever the next line does not follow
    /// the one before it in the document.
    private func located(_ lines: [SourceLine]) -> String {
        var output = ""
        var expected: Int?
        for line in lines {
            if line.documentLine != expected {
                if let documentLine = line.documentLine {
                    output += "#sourceLocation(file: \"\(documentPath)\", line: \(documentLine))\n"
                } else {
                    output += "#sourceLocation()\n"
                }
            }
            output += line.text + "\n"
            expected = line.documentLine.map { $0 + 1 }
        }
        if expected != nil { output += "#sourceLocation()\n" }
        return output
    }

    // MARK: Splitting a block

    private static let declarationKeywords: Set<String> = [
        "struct", "enum", "class", "extension", "protocol", "actor", "import",
    ]
    private static let modifiers: Set<String> = [
        "public", "internal", "fileprivate", "private", "package", "final", "nonisolated", "indirect",
    ]

    /// The lines of `block` that go to the top level, and those that go in its function.
    static func split(_ block: DocumentBlock) -> (hoisted: [SourceLine], body: [SourceLine]) {
        var hoisted: [SourceLine] = []
        var body: [SourceLine] = []
        // Comments, blank lines and attributes at the outer level, waiting to know whether a
        // declaration or a statement follows them.
        var pending: [SourceLine] = []
        var depth = 0
        var inDeclaration = false
        for (offset, raw) in block.lines.enumerated() {
            let line = SourceLine(text: withoutEllipses(raw), documentLine: block.firstLine + offset)
            let code = codeWithoutStringsAndComments(line.text)
            let change = code.filter { "{([".contains($0) }.count - code.filter { "})]".contains($0) }.count
            if depth == 0 && !inDeclaration {
                let words = code.split(whereSeparator: { $0.isWhitespace || $0 == "(" }).map(String.init)
                if words.isEmpty || words.allSatisfy({ $0.hasPrefix("@") }) {
                    pending.append(line)
                    depth += change
                    continue
                }
                let keyword = words.first { !$0.hasPrefix("@") && !modifiers.contains($0) }
                if let keyword, declarationKeywords.contains(keyword) {
                    hoisted += pending + [line]
                    pending = []
                    depth += change
                    inDeclaration = depth > 0
                    continue
                }
                body += pending + [line]
                pending = []
                depth += change
                continue
            }
            if inDeclaration { hoisted.append(line) } else { body.append(line) }
            depth += change
            if depth <= 0 {
                depth = 0
                inDeclaration = false
            }
        }
        body += pending
        return (hoisted, body)
    }

    /// The name of the type a top-level line declares, if it declares one (not an extension).
    static func declaredTypeName(_ line: String) -> String? {
        let words = line.split(whereSeparator: { $0.isWhitespace || $0 == ":" || $0 == "{" || $0 == "<" })
            .map(String.init)
        guard let index = words.firstIndex(where: { ["struct", "enum", "class", "protocol", "actor"].contains($0) }),
            index + 1 < words.count
        else { return nil }
        return words[index + 1]
    }

    /// `line` without its ellipses outside string literals: `{ … }` is the reader's code.
    static func withoutEllipses(_ line: String) -> String {
        guard line.contains("…") else { return line }
        var output = ""
        var inString = false
        var previous: Character?
        for character in line {
            if character == "\"" && previous != "\\" { inString.toggle() }
            if character == "…" && !inString {
                previous = character
                continue
            }
            output.append(character)
            previous = character
        }
        return output
    }

    /// The code of `line` with its string literals emptied and its `//` comment removed, to count
    /// brackets and read keywords.
    static func codeWithoutStringsAndComments(_ line: String) -> String {
        var output = ""
        var inString = false
        var previous: Character?
        for character in line {
            if !inString && character == "/" && previous == "/" {
                output.removeLast()
                break
            }
            if character == "\"" && previous != "\\" {
                inString.toggle()
                output.append(character)
            } else if !inString {
                output.append(character)
            }
            previous = character
        }
        return output
    }
}
