import Foundation

/// A user: the DESIGN.md model, with every kind of field.
// @persistable(collection: "users")
struct User: Sendable, Equatable {
    // @key
    var userID: UUID
    var name: String
    // @indexed(unique: true)
    var email: String
    // @indexed
    var age: Int = 0
    var address: Address?
    var tags: [String] = []
    var roles: Set<Role> = []
    var scores: [String: Int] = [:]
    var favoriteShape: Shape?
    // @searchable
    var bio: String = ""
    /// A backticked name.
    var `default`: Bool = false
    /// Indexed: optional, matched by equality, ranges and nil.
    // @indexed
    var nickname: String?
    /// Indexed: a raw-value enum, stored by its raw value.
    // @indexed
    var mainRole: Role = .reader
    /// Indexed: a Bool, matched by equality.
    // @indexed
    var isVerified: Bool = false
    /// Indexed: a floating-point number.
    // @indexed
    var rating: Double = 0
    // @metadata
    var stats: UserStats?
    // @transient
    var avatarCache: Data? = Data([1, 2, 3])
    // @transient
    var isSelected = false

    /// Computed: ignored.
    var displayName: String { "\(name) <\(email)>" }
    /// Static: ignored.
    static let maximumAge = 150
}

/// A postal address, stored inside a user.
// @coded
struct Address: Sendable, Equatable, Hashable {
    var street: String
    var city: String
    var zip: String?
}

/// What the app knows about a user's activity: the user's metadata.
// @coded
struct UserStats: Sendable, Equatable {
    /// Indexed in the index of `User`, as its metadata.
    // @indexed
    var logins: Int
    // @indexed
    var lastSeen: Date?
}
