import GRDB

/// GRDB.swift 7.10.0 the idiomatic way: ``User`` is a Codable record in its own table, through
/// a `DatabasePool` (WAL: one writer, parallel readers), with `synchronous = NORMAL` as the
/// other implementations. Nested values (`tags`, `metadata`) are JSON columns, as GRDB encodes
/// them; `created` is GRDB's default date format.
final class GRDBStore: BenchmarkStore {
    /// The pool, also used by the concurrency workloads (``ConcurrencySuite``).
    let pool: DatabasePool

    init(directory: String) throws {
        var configuration = GRDB.Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: directory + "/users.grdb.sqlite", configuration: configuration)
        try pool.write { db in
            try db.create(table: User.databaseTableName, options: .ifNotExists) { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("email", .text).notNull()
                table.column("age", .integer).notNull()
                table.column("score", .double).notNull()
                table.column("tags", .jsonText).notNull()
                table.column("created", .datetime).notNull()
                table.column("metadata", .jsonText)
            }
        }
    }

    func insert(_ users: [User]) throws {
        try pool.write { db in
            for user in users { try user.insert(db) }
        }
    }

    func readAll() throws -> [User] {
        try pool.read { db in try User.fetchAll(db) }
    }

    func readEach(_ keys: [String]) throws -> Checksum {
        var checksum = Checksum()
        for key in keys {
            if let user = try pool.read({ db in try User.fetchOne(db, key: key) }) { checksum.add(user) }
        }
        return checksum
    }

    func readBatch(_ keys: [String]) throws -> Checksum {
        try pool.read { db in
            var checksum = Checksum()
            for key in keys {
                if let user = try User.fetchOne(db, key: key) { checksum.add(user) }
            }
            return checksum
        }
    }

    func readMetadata(_ keys: [String]) throws -> Checksum {
        try pool.read { db in
            var checksum = Checksum()
            for key in keys {
                let request = User.filter(key: key).select(User.Columns.metadata, as: UserStats.self)
                if let stats = try request.fetchOne(db) { checksum.add(stats) }
            }
            return checksum
        }
    }

    func update(_ users: [User]) throws {
        try pool.write { db in
            for user in users { try user.update(db) }
        }
    }

    func delete(_ keys: [String]) throws {
        try pool.write { db in
            for key in keys { try User.deleteOne(db, key: key) }
        }
    }

    func writeEach(_ users: [User]) throws {
        for user in users {
            try pool.write { db in try user.update(db) }
        }
    }
}

extension User: FetchableRecord, PersistableRecord {
    static var databaseTableName: String { "users" }

    enum Columns {
        static let metadata = Column("metadata")
    }
}

/// Metadata read alone is a JSON column value: GRDB gives `Codable` values a JSON
/// `DatabaseValueConvertible` conformance.
extension UserStats: DatabaseValueConvertible {}
