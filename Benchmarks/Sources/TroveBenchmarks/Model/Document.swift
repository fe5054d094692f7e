import Foundation

/// A document of the full-text search benchmark (issue 14): a title and a body of a few hundred
/// words. The title weighs ten times the body in the bm25 ranking; the tokenizer is the default,
/// `unicode61 remove_diacritics 2`, as the raw SQLite and GRDB tables of the search suite.
// @persistable(collection: "documents")
struct Document: Sendable, Equatable, Codable {
    var id: String
    // @searchable(weight: 10)
    var title: String
    // @searchable
    var body: String
}
