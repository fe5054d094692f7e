import Foundation
import Testing

/// Every Swift block of the README and of the DocC catalogs compiles, as a reader would write it
/// in a synchronous function or an `async` one (issue 30).
///
/// A block is compiled unless its fence names another language (`sh`, `text`, `json`) or a
/// `<!-- snippet: skip: REASON -->` marker precedes it: a new block is compiled by default. The
/// markers, which neither GitHub nor DocC renders, say how a block is compiled (see
/// ``SnippetMarker``); the context its values come from is `Context/`. One document is one
/// compilation.
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
    /// The package's folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The documents whose blocks compile: the README and every article and extension page of
    /// the DocC catalogs, relative to the package.
    static var documents: [String] {
        let manager = FileManager.default
        var documents = ["README.md"]
        let sources = packageRoot.appendingPathComponent("Sources")
        for module in (try? manager.contentsOfDirectory(atPath: sources.path).sorted()) ?? [] {
            for catalog in (try? manager.contentsOfDirectory(atPath: sources.appendingPathComponent(module).path)) ?? []
            where catalog.hasSuffix(".docc") {
                let root = "Sources/\(module)/\(catalog)"
                let files =
                    manager.enumerator(atPath: packageRoot.appendingPathComponent(root).path)?
                    .compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.sorted() ?? []
                documents += files.map { "\(root)/\($0)" }
            }
        }
        return documents
    }

    /// Whether the blocks can be compiled here: against the modules SwiftPM built for the tests,
    /// which are in `Modules/` beside the products on Linux only (as for `MisuseTests`).
    static var canCompile: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    @Test func theDocumentsAreFound() {
        let documents = Self.documents
        #expect(documents.contains("README.md"))
        #expect(documents.contains("Sources/Trove/Trove.docc/Articles/GettingStarted.md"))
        #expect(documents.contains("Sources/Trove/Trove.docc/Articles/PostgreSQL.md"))
        #expect(documents.contains("Sources/TrovePostgres/TrovePostgres.docc/TrovePostgres.md"))
    }

    /// Each document compiles twice: in a module with the default isolation, and in one whose
    /// default isolation is the main actor, as an app's module is in Xcode's default settings.
    @Test(
        .enabled(if: DocumentationSnippetTests.canCompile, "the built modules are found only in the Linux layout"),
        arguments: DocumentationSnippetTests.documents, [false, true])
    func everySwiftBlockCompiles(document: String, mainActor: Bool) throws {
        let text = try String(
            contentsOf: Self.packageRoot.appendingPathComponent(document), encoding: .utf8)
        let outcome = try SnippetCompiler(packageRoot: Self.packageRoot).compile(
            documentPath: document, text: text, mainActor: mainActor)
        if !outcome.problems.isEmpty {
            let module = mainActor ? "a module whose default isolation is the main actor" : "a module"
            Issue.record(
                "\(outcome.problems.count) problem(s) in the Swift blocks of \(document), compiled in \(module):\n\(outcome.problems.joined(separator: "\n"))"
            )
        }
    }

    /// The test fails when a block does not compile, and says where and why.
    @Test(.enabled(if: DocumentationSnippetTests.canCompile, "the built modules are found only in the Linux layout"))
    func aBlockThatDoesNotCompileIsReportedByDocumentLineAndMessage() throws {
        let text = """
            # A document

            Some words.

            ```swift
            let count = try connection.read { tx in try tx.count() }
            let users = try User.query.everything(in: connection)
            ```
            """
        let outcome = try SnippetCompiler(packageRoot: Self.packageRoot).compile(
            documentPath: "Broken.md", text: text)
        #expect(outcome.problems.count == 1, "\(outcome.problems)")
        let problem = try #require(outcome.problems.first)
        #expect(problem.hasPrefix("Broken.md:7 (in the block at line 6): error: "), "\(problem)")
        #expect(problem.contains("everything"), "\(problem)")
    }

    /// A synchronous block in an `async` function does not compile: Swift prefers the `async`
    /// twin there, which needs `await` (what the README says).
    @Test(.enabled(if: DocumentationSnippetTests.canCompile, "the built modules are found only in the Linux layout"))
    func aSynchronousCallInAnAsyncFunctionNeedsAwait() throws {
        let text = """
            <!-- snippet: async -->
            ```swift
            try connection.write { tx in try tx.write(user) }
            ```
            """
        let outcome = try SnippetCompiler(packageRoot: Self.packageRoot).compile(documentPath: "Async.md", text: text)
        let problem = try #require(outcome.problems.first)
        #expect(problem.contains("Async.md:3"), "\(problem)")
        #expect(problem.contains("async"), "\(problem)")
    }

    /// An annotation mistake in a document's model is trove-gen's error at the document's line.
    @Test(.enabled(if: DocumentationSnippetTests.canCompile, "the built modules are found only in the Linux layout"))
    func aWrongAnnotationIsReportedAtItsLine() throws {
        let text = """
            ```swift
            // @persistable(collection: "things")
            struct Thing {
                var id: String
                // @indexed
                var shape: [String: Int]
            }
            ```
            """
        let outcome = try SnippetCompiler(packageRoot: Self.packageRoot).compile(documentPath: "Thing.md", text: text)
        let problem = try #require(outcome.problems.first)
        #expect(problem.hasPrefix("Thing.md:5 (in the block at line 2): trove-gen: "), "\(problem)")
    }
}
