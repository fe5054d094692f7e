import Foundation
import GRDB

/// The same service on GRDB.swift's `DatabasePool`, the idiomatic way: a table with the fields of
/// ``User`` (key `id`), an SQL index on `city`, records through `Codable`; `synchronous = NORMAL`
/// and a busy timeout of ``busyTimeout`` seconds, as Trove's defaults.
public final class GRDBUserStore: UserStore {
    private static let city = Column("city")

    /// How long the writer waits for a lock that another connection holds before it fails with
    /// `SQLITE_BUSY`: 5 seconds, Trove's default (`Configuration.busyTimeoutMilliseconds`).
    ///
    /// GRDB's default is no wait at all (`busyMode = .immediateError`), and a pool's one writer is
    /// not alone on the file: a reader of the pool that finds the write-ahead log's index header
    /// changing under it (a commit is publishing it) takes the log's write lock for a moment to
    /// read the header again. A write that begins in that moment fails at once with "database is
    /// locked" instead of waiting for the reader, and the request answers 500 (the 23 non-2xx
    /// answers of a write-heavy load test: see BENCHMARKS.md, issue 29). GRDB documents the busy
    /// mode as the setting for connections that share a file; its readers already wait up to 10
    /// seconds.
    public static let busyTimeout: TimeInterval = 5

    /// The pool: parallel readers in WAL mode, one writer.
    public let pool: DatabasePool

    /// Opens (or creates) the database at `path`, with its table and index.
    public init(path: String) throws {
        var configuration = GRDB.Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.create(table: User.databaseTableName, options: .ifNotExists) { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("email", .text).notNull()
                table.column("city", .text).notNull()
                table.column("age", .integer).notNull()
            }
            try db.create(indexOn: User.databaseTableName, columns: ["city"], options: .ifNotExists)
        }
    }

    /// Inserts `user` in a write of the pool.
    public func create(_ user: User) async throws {
        try await pool.write { db in try user.insert(db) }
    }

    /// Fetches the row by primary key on one of the pool's readers.
    public func user(id: String) async throws -> User? {
        try await pool.read { db in try User.fetchOne(db, key: id) }
    }

    /// Updates the row in a write of the pool; `false` when no row has the key.
    public func update(_ user: User) async throws -> Bool {
        try await pool.write { db in
            // One statement: `update` throws `recordNotFound` when no row has the key.
            do {
                try user.update(db)
                return true
            } catch RecordError.recordNotFound {
                return false
            }
        }
    }

    /// Deletes the row by primary key in a write of the pool.
    public func delete(id: String) async throws -> Bool {
        try await pool.write { db in try User.deleteOne(db, key: id) }
    }

    /// `WHERE city = ? ORDER BY id LIMIT ?` (through the index on `city`) on one of the pool's readers.
    public func users(city: String?, limit: Int) async throws -> [User] {
        try await pool.read { db in
            var request = User.all()
            if let city { request = request.filter(Self.city == city) }
            return try request.order(Column("id")).limit(limit).fetchAll(db)
        }
    }

    /// One write per ``Seed/batchSize`` users, inserting only those that are missing.
    public func seed(count: Int) async throws -> Int {
        var written = 0
        for start in stride(from: 0, to: count, by: Seed.batchSize) {
            let range = start..<min(start + Seed.batchSize, count)
            written += try await pool.write { db in
                var inserted = 0
                for index in range where try !User.exists(db, key: Seed.id(index)) {
                    try Seed.user(index).insert(db)
                    inserted += 1
                }
                return inserted
            }
        }
        return written
    }
}

extension User: FetchableRecord, PersistableRecord {
    /// The table of the GRDB store.
    public static var databaseTableName: String { "users" }
}
