import Foundation
import Testing
import TroveGenerator

/// A fixture: `Fixtures/<name>/Input/*.swift` rendered must equal `Fixtures/<name>/Expected/*.swift`.
struct Fixture: CustomTestStringConvertible, Sendable {
    /// The fixtures whose inputs get only the outputs of annotated files (committed mode).
    static let committed = ["showcase", "renamed-field", "public-access"]
    /// The fixtures rendered as a build plugin renders them: every input gets an output.
    static let allOutputs = ["unannotated"]
    /// The folder the inputs of a fixture sit in for the targets that compile it. The showcase is compiled by
    /// test targets that link `Models -> Input` and `Generated -> Expected`, as a committed-mode target lays out
    /// its models: rendered as `Models/User.swift`, its outputs are exactly what `swift package trove` writes for
    /// those targets (`Models_User+Trove.swift`), which `swift package trove-check` at the root verifies.
    static let sourceFolders = ["showcase": "Models"]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var all: [Fixture] {
        committed.map { Fixture(name: $0, includeUnannotated: false) }
            + allOutputs.map { Fixture(name: $0, includeUnannotated: true) }
    }

    var name: String
    var includeUnannotated: Bool
    var testDescription: String { name }

    var inputDirectory: URL { Self.root.appendingPathComponent(name).appendingPathComponent("Input") }
    var expectedDirectory: URL { Self.root.appendingPathComponent(name).appendingPathComponent("Expected") }

    func inputs() throws -> [SourceInput] {
        let folder = Self.sourceFolders[name]
        return try Self.swiftFiles(in: inputDirectory).map { fileName in
            SourceInput(
                path: "Input/\(fileName)", relativePath: folder.map { "\($0)/\(fileName)" } ?? fileName,
                contents: try String(contentsOf: inputDirectory.appendingPathComponent(fileName), encoding: .utf8))
        }
    }

    /// The names of the Swift files in `directory`, sorted.
    ///
    /// - Throws: When the folder cannot be read, or holds no Swift file: a fixture whose folder
    ///   went missing would otherwise compare nothing with nothing and pass.
    static func swiftFiles(in directory: URL) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        guard !names.isEmpty else {
            throw MissingFixture(description: "\(directory.path) holds no .swift file")
        }
        return names
    }

    struct MissingFixture: Error, CustomStringConvertible {
        var description: String
    }
}

struct ReferenceTests {
    @Test(arguments: Fixture.all)
    func renderedOutputMatchesExpected(_ fixture: Fixture) throws {
        let result = try GeneratorPipeline().run(try fixture.inputs(), includeUnannotated: fixture.includeUnannotated)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
        let produced = Dictionary(uniqueKeysWithValues: result.files.map { ($0.name, $0.contents) })
        #expect(!produced.isEmpty, "'\(fixture.name)' generates no file")

        if ProcessInfo.processInfo.environment["TROVE_RECORD"] != nil {
            let expectedNames = (try? Fixture.swiftFiles(in: fixture.expectedDirectory)) ?? []
            try FileManager.default.createDirectory(at: fixture.expectedDirectory, withIntermediateDirectories: true)
            for name in expectedNames where produced[name] == nil {
                try FileManager.default.removeItem(at: fixture.expectedDirectory.appendingPathComponent(name))
            }
            for (name, contents) in produced {
                try Data(contents.utf8).write(to: fixture.expectedDirectory.appendingPathComponent(name))
            }
            Issue.record("Recorded \(produced.count) expected files of '\(fixture.name)'; unset TROVE_RECORD and run again.")
            return
        }
        let expectedNames = try Fixture.swiftFiles(in: fixture.expectedDirectory)

        for name in expectedNames where produced[name] == nil {
            Issue.record("Expected/\(name) of '\(fixture.name)' is no longer generated. Fix: TROVE_RECORD=1 swift test")
        }
        for (name, contents) in produced.sorted(by: { $0.key < $1.key }) {
            let url = fixture.expectedDirectory.appendingPathComponent(name)
            guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("'\(fixture.name)' generates \(name), which is not in Expected/. Fix: TROVE_RECORD=1 swift test")
                continue
            }
            if expected != contents {
                Issue.record(
                    """
                    \(name) of '\(fixture.name)' differs from Expected/ (- expected, + generated):
                    \(UnifiedDiff.make(expected: expected, actual: contents, name: name))
                    If the change is intended: TROVE_RECORD=1 swift test --filter ReferenceTests
                    """)
            }
        }
    }

    /// Every folder of `Fixtures/` is a listed fixture: one that is not would never be compared.
    @Test func everyFixtureFolderIsTested() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Fixture.root.path).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: Fixture.root.appendingPathComponent($0).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        #expect(Set(folders) == Set(Fixture.all.map(\.name)))
    }

    @Test(arguments: Fixture.all)
    func renderingIsDeterministic(_ fixture: Fixture) throws {
        let inputs = try fixture.inputs()
        let first = try GeneratorPipeline().run(inputs, includeUnannotated: fixture.includeUnannotated).files
        let second = try GeneratorPipeline().run(inputs.reversed(), includeUnannotated: fixture.includeUnannotated).files
        #expect(first.sorted { $0.name < $1.name } == second.sorted { $0.name < $1.name })
    }
}
