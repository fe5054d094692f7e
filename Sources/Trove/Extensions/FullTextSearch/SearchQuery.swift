import Foundation

/// What a ``FullTextSearch`` looks for: an FTS5 query expression, written by hand or built safely
/// from what a user typed.
///
/// ```swift
/// // Search as you type: never a syntax error, every word a prefix.
/// let typed = SearchQuery.prefixes(of: #"swi "quoted" NEAR( -x"#)
/// // The full FTS5 syntax: phrases, prefixes, AND/OR/NOT, NEAR, column filters.
/// let raw = SearchQuery.raw(#"subject: "release notes" AND (swift OR kotlin) NOT draft*"#)
/// ```
public struct SearchQuery: Sendable, Hashable, CustomStringConvertible {
    /// The FTS5 query expression, or `nil` for a query that matches nothing without asking
    /// SQLite (what ``prefixes(of:)`` builds from input without words).
    public let expression: String?
    /// How the query was built, for an engine that does not read FTS5's syntax (PostgreSQL).
    package let form: Form

    /// How a query was built: what an engine other than SQLite's turns into its own syntax.
    package enum Form: Sendable, Hashable {
        /// FTS5 syntax, written by hand (``SearchQuery/raw(_:)``).
        case raw
        /// Words split at white space and NUL: every one must be found, as a prefix or whole.
        case words([String], prefix: Bool)
        /// One phrase, its NUL characters replaced by spaces.
        case phrase(String)
        /// Input without words: the query matches nothing.
        case nothing
    }

    private init(expression: String?, form: Form) {
        self.expression = expression
        self.form = form
    }

    /// A query in FTS5's own syntax, passed to SQLite as it is: phrases (`"new york"`), prefixes
    /// (`swi*`), `AND`, `OR`, `NOT`, parentheses, `NEAR(a b, 5)`, column filters
    /// (`subject: swift`, `{subject body}: swift`) and initial-token queries (`^swift`).
    ///
    /// A query that is not valid FTS5 syntax (an empty one too) makes the search throw
    /// ``TroveError`` with code ``TroveError/Code/invalidSearchQuery``. Never build one from a
    /// user's input: use ``prefixes(of:)``.
    ///
    /// - Parameter expression: The FTS5 query.
    /// - Returns: The query.
    public static func raw(_ expression: String) -> SearchQuery {
        SearchQuery(expression: expression, form: .raw)
    }

    /// A query for search-as-you-type, from anything a user typed: every word separated by white
    /// space (or NUL) must start a token of the item, in any column, in any order. Never a syntax error.
    ///
    /// Each word becomes an FTS5 string (its `"` doubled) with a `*`, so that quotes, `*`, `-`,
    /// `^`, `:`, parentheses and the words `AND`, `OR`, `NOT` and `NEAR` are searched as text, not
    /// read as syntax: `swi "x` becomes `"swi"* """x"*`. The tokenizer then splits each word as
    /// it splits the items' text (so `e-mail` looks for `e` followed by `mail`); a word it makes
    /// no token of (`-`, an emoji with `unicode61`) is left out of the search. Input without
    /// words matches nothing.
    ///
    /// - Parameter input: What the user typed.
    /// - Returns: The query.
    public static func prefixes(of input: String) -> SearchQuery {
        words(of: input, prefix: true)
    }

    /// A query for every word of `input`, whole words rather than prefixes: like
    /// ``prefixes(of:)``, never a syntax error, but `swi` does not find `swift`.
    ///
    /// - Parameter input: What the user typed.
    /// - Returns: The query.
    public static func allWords(of input: String) -> SearchQuery {
        words(of: input, prefix: false)
    }

    /// A query for `text` as one phrase: its tokens next to each other, in order. Never a syntax
    /// error; text without words matches nothing.
    ///
    /// - Parameter text: The phrase.
    /// - Returns: The query.
    public static func phrase(_ text: String) -> SearchQuery {
        guard text.contains(where: { !$0.isWhitespace && $0 != "\0" }) else {
            return SearchQuery(expression: nil, form: .nothing)
        }
        // FTS5 reads a query up to its first NUL: a NUL inside the quotes would leave them open.
        let phrase = text.replacingOccurrences(of: "\0", with: " ")
        return SearchQuery(expression: quoted(phrase), form: .phrase(phrase))
    }

    private static func words(of input: String, prefix: Bool) -> SearchQuery {
        // NUL separates words too: FTS5 reads a query up to its first NUL, so a NUL inside a
        // quoted word would leave the quote open.
        let words = input.split(whereSeparator: { $0.isWhitespace || $0 == "\0" })
        guard !words.isEmpty else { return SearchQuery(expression: nil, form: .nothing) }
        return SearchQuery(
            expression: words.map { quoted(String($0)) + (prefix ? "*" : "") }.joined(separator: " "),
            form: .words(words.map(String.init), prefix: prefix))
    }

    /// `text` as an FTS5 string: in double quotes, each double quote in it doubled. Inside one,
    /// nothing is syntax: the tokenizer splits it into a phrase.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The expression, or a note that the query matches nothing.
    public var description: String {
        expression ?? "(nothing)"
    }
}
