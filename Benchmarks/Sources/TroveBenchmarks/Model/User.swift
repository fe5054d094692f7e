import Foundation

/// The model every implementation stores: a user with a small metadata value.
///
/// Trove reads the annotations (comments: they cost nothing at run time); its coder is in
/// `Generated/Model_User+Trove.swift`. `Codable` is for the GRDB and Codable+JSON
/// implementations only: Trove's generated coder does not use it.
// @persistable(collection: "users")
struct User: Sendable, Equatable, Codable {
    var id: String
    var name: String
    var email: String
    var age: Int
    var score: Double
    var tags: [String]
    var created: Date
    // @metadata
    var metadata: UserStats?
}

/// The metadata of a ``User``: small, read and written apart from the user.
// @coded
struct UserStats: Sendable, Equatable, Codable {
    var visits: Int
    var lastSeen: Date
}
