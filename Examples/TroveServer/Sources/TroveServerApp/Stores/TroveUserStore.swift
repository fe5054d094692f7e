import Trove

/// The service on Trove: the database's asynchronous transactions, so that reads run in parallel
/// on its pool of readers and writes wait for its one writer, without a connection per request
/// and without holding a thread while they wait.
public final class TroveUserStore: UserStore {
    /// The database, with the generated index of `User` (on `city`) registered at open.
    public let database: Database

    /// Opens (or creates) the database at `path`.
    public init(path: String) throws {
        database = try Database(path: path, models: [User.self])
    }

    /// Writes `user` in a write transaction of its own, through the one writer.
    public func create(_ user: User) async throws {
        try await database.write(user)
    }

    /// Reads the user in a read transaction of its own, on one of the pool's readers.
    public func user(id: String) async throws -> User? {
        try await database.read(User.self, key: id)
    }

    /// Checks and writes in one write transaction, so that a concurrent `DELETE` cannot slip
    /// between the check and the write.
    public func update(_ user: User) async throws -> Bool {
        try await database.write { tx in
            // Existence only: nothing is decoded.
            guard try tx.contains(User.self, key: user.id) else { return false }
            try tx.write(user)
            return true
        }
    }

    /// Removes the user in a write transaction of its own.
    public func delete(id: String) async throws -> Bool {
        try await database.remove(User.self, key: id)
    }

    /// The generated index query on `city` (every user, in key order, without a city), in a read
    /// transaction of its own on one of the pool's readers.
    public func users(city: String?, limit: Int) async throws -> [User] {
        var query = User.query
        if let city { query = query.filter(.city(city)) }
        return try await query.limit(limit).items(in: database)
    }

    /// One write transaction per ``Seed/batchSize`` users, writing only those that are missing.
    public func seed(count: Int) async throws -> Int {
        var written = 0
        for start in stride(from: 0, to: count, by: Seed.batchSize) {
            let range = start..<min(start + Seed.batchSize, count)
            written += try await database.write { tx in
                let missing = try range.filter { try !tx.contains(User.self, key: Seed.id($0)) }
                try tx.write(missing.map(Seed.user))
                return missing.count
            }
        }
        return written
    }
}
