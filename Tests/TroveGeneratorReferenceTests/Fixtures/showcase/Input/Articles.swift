import Foundation

/// An article with multi-valued index columns: an array (a value may repeat), a set, an optional
/// array, next to a single-valued column.
// @persistable(collection: "articles")
struct Article: Sendable, Equatable {
    var id: String
    // @indexed
    var tags: [String] = []
    // @indexed
    var reviewerIDs: Set<Int> = []
    // @indexed
    var related: [UUID]? = nil
    // @indexed
    var rank: Int = 0
}
