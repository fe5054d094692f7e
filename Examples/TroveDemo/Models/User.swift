import Foundation

/// A person who uses the demo app: a top-level item of the `users` collection.
///
/// Every annotation is a comment: the TrovePlugin reads them at build time and generates the `Persistable`
/// conformance, the binary coder and the typed accessors. Nothing here costs anything at run time.
// @persistable(collection: "users")
struct User: Sendable, Equatable {
    /// The key of the item in its collection.
    // @key
    var userID: UUID
    /// A column of the generated full-text search, whose matches weigh five times those of the bio:
    /// `User.search(for: .prefixes(of: input)).hits(tx)`.
    // @searchable(weight: 5)
    var name: String
    /// A column of the generated secondary index, unique: `User.byEmail(_:).first(tx)` finds a user by it, and a
    /// second user with the same email is refused.
    // @indexed(unique: true)
    var email: String
    /// A column of the generated secondary index: `User.query.filter(.age(40...)).items(tx)`.
    // @indexed
    var age: Int
    /// A `@coded` enum with raw values, with a default that old data without the field decodes to.
    var role: Role = .member
    /// A `@coded` struct stored inside the item.
    var address: Address?
    /// A column of the generated full-text search.
    // @searchable
    var bio: String = ""
    /// Stored in its own column: it can be read and replaced without decoding the user.
    // @metadata
    var metadata: UserStats?
    /// Never stored: a user read from the database has no cached avatar.
    // @transient
    var avatarCache: Data? = nil
}
