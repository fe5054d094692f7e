import Foundation

/// An author of the relationships benchmark (issue 16): the destination of every post's edge.
// @persistable(collection: "authors")
struct Author: Sendable, Equatable, Codable {
    var id: String
    var name: String
}

/// A post of the relationships benchmark (issue 16): its `authorID` is the edge (Trove) or the
/// foreign key `ON DELETE CASCADE` (raw SQLite, GRDB) to its author. Its coder is in
/// `Generated/Model_Post+Trove.swift`; `Codable` is for the GRDB implementation only.
// @persistable(collection: "posts")
struct Post: Sendable, Equatable, Codable {
    var id: String
    var authorID: String
    var title: String
    var body: String
}
