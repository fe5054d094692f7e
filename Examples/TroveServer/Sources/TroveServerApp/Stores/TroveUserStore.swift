import Trove

/// The service on Trove: the database-level API, so that reads run in parallel on the database's
/// pool of readers and writes are queued to its one writer, without a connection per request.
public final class TroveUserStore: UserStore {
    /// The database, with the generated index of `User` (on `city`) registered at open.
    public let database: Database

    /// Opens (or creates) the database at `path`.
    public init(path: String) throws {
        database = try Database(path: path, models: [User.self])
    }

    /// Writes `user` through the one writer: the typed one-call convenience.
    public func create(_ user: User) async throws {
        try await database.write(user)
    }

    /// Reads the user on one of the pool's readers: the typed one-call convenience.
    public func user(id: String) async throws -> User? {
        try await database.read(User.self, key: id)
    }

    /// Checks and writes in one write transaction, so that a concurrent `DELETE` cannot slip
    /// between the check and the write.
    public func update(_ user: User) async throws -> Bool {
        try await database.write { tx in
            // Existence only: nothing is decoded.
            guard try tx.hasItem(forKey: user.id, in: User.collection) else { return false }
            try tx.write(user)
            return true
        }
    }

    /// Removes the user in one write transaction.
    public func delete(id: String) async throws -> Bool {
        try await database.write { tx in try tx.remove(User.self, key: id) }
    }

    /// The generated index query on `city` (by key without a city), on one of the pool's readers.
    public func users(city: String?, limit: Int) async throws -> [User] {
        try await database.read { tx in
            let query = User.query
            if let city {
                return try query.filter(.city(city)).limit(limit).items(tx)
            }
            return try query.limit(limit).items(tx)
        }
    }

    /// One write transaction per ``Seed/batchSize`` users, writing only those that are missing.
    public func seed(count: Int) async throws -> Int {
        var written = 0
        for start in stride(from: 0, to: count, by: Seed.batchSize) {
            let range = start..<min(start + Seed.batchSize, count)
            written += try await database.write { tx in
                let missing = try range.filter { try !tx.hasItem(forKey: Seed.id($0), in: User.collection) }
                try tx.write(missing.map(Seed.user))
                return missing.count
            }
        }
        return written
    }
}
