import SwiftSyntax

extension SyntaxProtocol {
    /// The node's source text without the trivia before its first token and after its last: what
    /// swift-syntax's `trimmedDescription` gives, without the trimmed copy of the tree that it
    /// builds through key paths (several percent of a cold run over 1,000 files).
    var sourceText: String {
        let bytes = syntaxTextBytes
        let start = leadingTriviaLength.utf8Length
        let end = bytes.count - trailingTriviaLength.utf8Length
        guard start < end else { return "" }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
