import Testing

/// How the documentation test reads a document's blocks and markers, and how it assembles them:
/// no compiler needed.
struct DocumentBlocksTests {
    @Test func anUnmarkedSwiftBlockIsCompiledAsASynchronousFunction() throws {
        let blocks = try DocumentBlocks.parse("Words.\n\n```swift\nlet a = 1\n```\n")
        let block = try #require(blocks.first)
        #expect(block.isCompiled)
        #expect(!block.isMarked)
        #expect(block.firstLine == 4)
        #expect(block.marker == SnippetMarker())
    }

    @Test func aBlockWithoutALanguageIsCompiledAndOneOfAnotherLanguageIsNot() throws {
        let blocks = try DocumentBlocks.parse("```\nlet a = 1\n```\n```sh\nswift test\n```\n```text\n$ trove\n```\n")
        #expect(blocks.map(\.isCompiled) == [true, false, false])
    }

    @Test func markersSayHowABlockIsCompiled() throws {
        let text = """
            <!-- snippet: async, tx: write -->
            ```swift
            try tx.write(user)
            ```
            <!-- snippet: continues -->
            ```swift
            try tx.remove(user)
            ```
            <!-- snippet: skip: needs SwiftUI -->
            ```swift
            import SwiftUI
            ```
            """
        let blocks = try DocumentBlocks.parse(text)
        #expect(blocks[0].marker.isAsync)
        #expect(blocks[0].marker.transaction == .write)
        #expect(blocks[1].marker.continuesPrevious)
        #expect(blocks[2].marker.skipReason == "needs SwiftUI")
        #expect(!blocks[2].isCompiled)
    }

    @Test(arguments: [
        ("<!-- snippet: asynchronous -->\n```swift\n```\n", 1, "unknown snippet marker `asynchronous`"),
        ("<!-- snippet: tx: readWrite -->\n```swift\n```\n", 1, "unknown transaction `readWrite`"),
        ("<!-- snippet: skip -->\n```swift\n```\n", 1, "`skip` needs a reason"),
        ("<!-- snippet: async -->\n\n```swift\n```\n", 1, "must be on the line right before a code fence"),
        ("text\n<!-- snippet: async -->", 2, "precedes no code block"),
        ("```swift\nlet a = 1\n", 1, "never closed"),
    ])
    func aMarkerThatCannotBeReadIsAProblemAtItsLine(text: String, line: Int, message: String) {
        #expect {
            _ = try DocumentBlocks.parse(text)
        } throws: { error in
            guard let problem = error as? DocumentProblem else { return false }
            return problem.line == line && problem.message.contains(message)
        }
    }

    @Test func anIndentedFenceInAListItemIsRead() throws {
        let blocks = try DocumentBlocks.parse("- item\n\n  ```swift\n  // v1\n  var name: String\n  ```\n")
        #expect(blocks.first?.lines == ["// v1", "var name: String"])
    }

    @Test func typeDeclarationsGoToTheTopLevelAndStatementsToTheFunction() throws {
        let text = """
            ```swift
            // @persistable(collection: "users")
            struct User {
                var id: String
            }

            let database = try Database(path: path)
            extension Country: ShareableItem {}   // shared
            try connection.read { tx in
                struct Local {}
            }
            ```
            """
        let block = try #require(try DocumentBlocks.parse(text).first)
        let (hoisted, body) = SnippetAssembler.split(block)
        #expect(
            hoisted.map(\.text) == [
                "// @persistable(collection: \"users\")", "struct User {", "    var id: String", "}",
                "extension Country: ShareableItem {}   // shared",
            ])
        #expect(hoisted.map(\.documentLine) == [2, 3, 4, 5, 8])
        #expect(body.map(\.text).contains("let database = try Database(path: path)"))
        #expect(body.map(\.text).contains("    struct Local {}"))
    }

    @Test func anEllipsisOutsideAStringIsTheReadersCode() {
        #expect(SnippetAssembler.withoutEllipses("for x in y { … }") == "for x in y {  }")
        #expect(SnippetAssembler.withoutEllipses("Text(name ?? \"…\")") == "Text(name ?? \"…\")")
    }

    @Test func aContinuedBlockSharesTheFunctionOfTheBlockBefore() throws {
        let text = """
            <!-- snippet: async -->
            ```swift
            let index = 1
            ```
            <!-- snippet: continues -->
            ```swift
            print(index)
            ```
            """
        let assembler = try SnippetAssembler(documentPath: "A.md", blocks: DocumentBlocks.parse(text))
        #expect(
            assembler.snippets.filter { $0.text.hasPrefix("func ") }.map(\.text) == [
                "func snippetAtLine3() async throws {"
            ])
        #expect(assembler.snippetSource.contains("#sourceLocation(file: \"A.md\", line: 3)\nlet index = 1\n"))
        #expect(assembler.snippetSource.contains("#sourceLocation(file: \"A.md\", line: 7)\nprint(index)\n"))
    }

    @Test func aContinuedBlockWithNothingBeforeIsAProblem() {
        #expect(throws: DocumentProblem.self) {
            _ = try SnippetAssembler(
                documentPath: "A.md", blocks: DocumentBlocks.parse("<!-- snippet: continues -->\n```swift\n```\n"))
        }
    }
}
