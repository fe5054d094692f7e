/// What the HTTP routes need from a database: one implementation per store, so that the same
/// routes, with the same JSON, run on Trove (``TroveUserStore``) and on GRDB (``GRDBUserStore``).
///
/// Every method is one transaction. Implementations are `Sendable`: the server calls them from
/// many request tasks at once.
public protocol UserStore: Sendable {
    /// Stores a new user (its `id` is fresh: the caller made it).
    func create(_ user: User) async throws
    /// The user with key `id`, or `nil` when there is none.
    func user(id: String) async throws -> User?
    /// Replaces the user with key `user.id`, in one transaction; `false` (and nothing written)
    /// when there is no such user.
    func update(_ user: User) async throws -> Bool
    /// Removes the user with key `id`; `false` when there was none.
    func delete(id: String) async throws -> Bool
    /// At most `limit` users of `city` (every city when `nil`), in key order, through the index on
    /// `city`.
    func users(city: String?, limit: Int) async throws -> [User]
    /// Writes ``Seed/user(_:)`` for every index in `0..<count` that is not stored yet, in batches;
    /// returns how many it wrote.
    func seed(count: Int) async throws -> Int
}

/// The deterministic users the load test reads and updates: `user-0`, `user-1`, … spread over
/// ``cities``.
public enum Seed {
    /// The cities of the seeded users: `GET /users?city=…` finds about `count / 50` users each.
    public static let cities: [String] = (0..<50).map { "city-\($0)" }

    /// How many users one seeding transaction writes.
    public static let batchSize = 1_000

    /// The key of the seeded user number `index`.
    public static func id(_ index: Int) -> String { "user-\(index)" }

    /// The seeded user number `index`.
    public static func user(_ index: Int) -> User {
        User(
            id: id(index), name: "User \(index)", email: "user\(index)@example.com",
            city: cities[index % cities.count], age: 18 + index % 60)
    }
}
