import Foundation

/// A note: a full-text search over its title, body, tags and summary and over a field of its
/// metadata, with the `porter` stemmer, beside an index to filter searches by.
// @persistable(collection: "notes", searchTokenizer: "porter")
struct Note: Sendable, Equatable {
    var id: String
    /// A match in the title counts ten times a match in the body.
    // @searchable(weight: 10)
    var title: String
    // @searchable
    var body: String
    /// The tags are joined with line breaks: a word never spans two tags.
    // @searchable(weight: 2.5)
    var tags: [String] = []
    /// Optional text: `nil` is no text.
    // @searchable
    var summary: String?
    // @indexed
    var isArchived: Bool = false
    // @metadata
    var review: NoteReview?
}

/// What a reviewer wrote about a note: its metadata, searched with it.
// @coded
struct NoteReview: Sendable, Equatable {
    // @searchable
    var comment: String
    // @searchable
    var labels: [String] = []
}
