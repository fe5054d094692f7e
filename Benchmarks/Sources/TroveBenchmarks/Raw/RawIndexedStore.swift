/// Raw SQLite on Trove's items table plus an index table maintained by hand: the design of
/// Trove's ``SecondaryIndex`` written as carefully as possible, every statement prepared once.
///
/// The index table is `users_index (rowid INTEGER PRIMARY KEY, key TEXT, age INTEGER, email
/// TEXT)`, its `rowid` the item's and its `key` a copy of the item's, with an SQLite index on
/// `(age, key)` and a unique one on `email` (Trove's layout since issue 29). Each write of an
/// item writes its index row in the same transaction: an insert takes the new row id from
/// `sqlite3_last_insert_rowid`, an update looks it up first and then changes both rows by row id.
/// A query joins the index to the items and returns them in key order, as Trove's queries do; a
/// limited query picks its page from the index first, then reads only its items.
///
/// With ``HandWrittenItemCoder`` it is the baseline of the index workloads; with
/// ``JSONItemCoder``, the Codable+JSON implementation.
final class RawIndexedStore<Coder: ItemCoder>: IndexedBenchmarkStore {
    private static var collection: String { "users" }

    /// The open database and its statements.
    private final class Session {
        let sqlite: RawSQLite
        let beginRead: RawStatement
        let beginWrite: RawStatement
        let commit: RawStatement
        let insertItem: RawStatement
        let selectRowID: RawStatement
        let updateItem: RawStatement
        let insertIndexRow: RawStatement
        let updateIndexRow: RawStatement
        let selectByAge: RawStatement
        let selectByAgeRange: RawStatement
        let pageByAge: RawStatement
        let pageByAgeRange: RawStatement
        let pageByAgeSortedByEmail: RawStatement
        let sumOfAges: RawStatement
        let countByAge: RawStatement

        init(path: String) throws {
            sqlite = try RawSQLite(path: path)
            try sqlite.execute(
                """
                CREATE TABLE IF NOT EXISTS items (
                    rowid INTEGER PRIMARY KEY,
                    collection TEXT NOT NULL,
                    key TEXT NOT NULL,
                    data BLOB NOT NULL,
                    metadata BLOB,
                    UNIQUE (collection, key)
                );
                """)
            try Session.createIndex(sqlite)
            beginRead = try sqlite.prepare("BEGIN DEFERRED")
            beginWrite = try sqlite.prepare("BEGIN IMMEDIATE")
            commit = try sqlite.prepare("COMMIT")
            insertItem = try sqlite.prepare(
                "INSERT INTO items (collection, key, data, metadata) VALUES (?1, ?2, ?3, ?4)")
            selectRowID = try sqlite.prepare("SELECT rowid FROM items WHERE collection = ?1 AND key = ?2")
            updateItem = try sqlite.prepare("UPDATE items SET data = ?3, metadata = ?4 WHERE rowid = ?5")
            insertIndexRow = try sqlite.prepare(Session.insertIndexRowSQL)
            updateIndexRow = try sqlite.prepare("UPDATE users_index SET age = ?2, email = ?3 WHERE rowid = ?1")
            let select = "SELECT t.data, t.metadata FROM users_index AS i JOIN items AS t ON t.rowid = i.rowid"
            selectByAge = try sqlite.prepare("\(select) WHERE i.age = ?1 ORDER BY i.key")
            selectByAgeRange = try sqlite.prepare("\(select) WHERE i.age >= ?1 AND i.age < ?2 ORDER BY i.key")
            func page(_ condition: String, orderedBy order: [String]) -> String {
                let columns = order.joined(separator: ", ")
                let outer = order.map { "i." + $0 }.joined(separator: ", ")
                return
                    "SELECT t.data, t.metadata FROM (SELECT rowid, \(columns) FROM users_index WHERE \(condition) ORDER BY \(columns) LIMIT ?9) AS i JOIN items AS t ON t.rowid = i.rowid ORDER BY \(outer)"
            }
            pageByAge = try sqlite.prepare(page("age = ?1", orderedBy: ["key"]))
            pageByAgeRange = try sqlite.prepare(page("age >= ?1 AND age < ?2", orderedBy: ["key"]))
            pageByAgeSortedByEmail = try sqlite.prepare(page("age = ?1", orderedBy: ["email", "key"]))
            sumOfAges = try sqlite.prepare("SELECT coalesce(sum(age), 0) FROM users_index WHERE age >= ?1 AND age < ?2")
            countByAge = try sqlite.prepare(
                "SELECT age, count(*) FROM users_index WHERE age >= ?1 AND age < ?2 GROUP BY age ORDER BY age")
        }

        /// Writes an index row: row id, age, email, key.
        static var insertIndexRowSQL: String { "INSERT INTO users_index (rowid, age, email, key) VALUES (?1, ?2, ?3, ?4)" }

        /// Creates the index table and its SQLite indexes when they are not there.
        static func createIndex(_ sqlite: RawSQLite) throws {
            try sqlite.execute(
                """
                CREATE TABLE IF NOT EXISTS users_index (rowid INTEGER PRIMARY KEY, key TEXT NOT NULL, age INTEGER, email TEXT);
                CREATE INDEX IF NOT EXISTS users_index_age ON users_index (age, key);
                CREATE UNIQUE INDEX IF NOT EXISTS users_index_email ON users_index (email);
                """)
        }

        func inTransaction<T>(_ begin: RawStatement, _ body: () throws -> T) throws -> T {
            try begin.run()
            do {
                let result = try body()
                try commit.run()
                return result
            } catch {
                try? sqlite.execute("ROLLBACK")
                throw error
            }
        }
    }

    private let path: String
    private var openSession: Session?
    private var coder = Coder()

    private var session: Session {
        get throws {
            guard let openSession else { throw BenchmarkError("the raw SQLite database is closed") }
            return openSession
        }
    }

    init(directory: String) throws {
        path = directory + "/items.sqlite"
        openSession = try Session(path: path)
    }

    // MARK: Writes

    /// Binds the row of `user` to `statement` (parameters 1 to 4) and calls `body`.
    @inline(__always)
    private func bind<T>(_ user: User, to statement: RawStatement, _ body: () throws -> T) throws -> T {
        try Self.collection.withUTF8Buffer { collection in
            try user.id.withUTF8Buffer { key in
                try coder.withEncoded(user) { data, metadata in
                    statement.bindText(collection, at: 1)
                    statement.bindText(key, at: 2)
                    statement.bindBlob(data, at: 3)
                    if let metadata {
                        statement.bindBlob(metadata, at: 4)
                    } else {
                        statement.bindNull(at: 4)
                    }
                    return try body()
                }
            }
        }
    }

    /// Writes the index row of `user` at `rowID` with `statement` (rowid, age, email, and the key
    /// when `withKey`: an update leaves the key as it is).
    @inline(__always)
    private static func writeIndexRow(
        of user: User, rowID: Int64, with statement: RawStatement, withKey: Bool = true
    ) throws {
        try user.email.withUTF8Buffer { email in
            try user.id.withUTF8Buffer { key in
                statement.bindInt64(rowID, at: 1)
                statement.bindInt64(Int64(user.age), at: 2)
                statement.bindText(email, at: 3)
                if withKey { statement.bindText(key, at: 4) }
                try statement.run()
            }
        }
    }

    func insert(_ users: [User]) throws {
        let session = try session
        try session.inTransaction(session.beginWrite) {
            for user in users {
                try bind(user, to: session.insertItem) { try session.insertItem.run() }
                try Self.writeIndexRow(
                    of: user, rowID: session.sqlite.lastInsertRowID, with: session.insertIndexRow)
            }
        }
    }

    func update(_ users: [User]) throws {
        let session = try session
        try session.inTransaction(session.beginWrite) {
            for user in users {
                // The row id first, from the unique index on (collection, key); then both rows by
                // row id. `UPDATE … WHERE collection AND key RETURNING rowid` cost 22,000
                // instructions more per update (SQLite fills an ephemeral table for RETURNING).
                let rowID: Int64 = try Self.collection.withUTF8Buffer { collection in
                    try user.id.withUTF8Buffer { key in
                        let select = session.selectRowID
                        defer { select.reset() }
                        select.bindText(collection, at: 1)
                        select.bindText(key, at: 2)
                        guard try select.step() else { throw BenchmarkError("no user \(user.id) to update") }
                        return select.int64(at: 0)
                    }
                }
                try bind(user, to: session.updateItem) {
                    session.updateItem.bindInt64(rowID, at: 5)
                    try session.updateItem.run()
                }
                try Self.writeIndexRow(of: user, rowID: rowID, with: session.updateIndexRow, withKey: false)
            }
        }
    }

    func dropIndex() throws {
        try session.sqlite.execute("DROP TABLE users_index")
    }

    /// Creates the index table and fills it from every stored user, decoded, in one transaction.
    func addIndex() throws {
        let session = try session
        try session.inTransaction(session.beginWrite) {
            try Session.createIndex(session.sqlite)
            let select = try session.sqlite.prepare("SELECT rowid, data, metadata FROM items WHERE collection = ?1")
            let insert = try session.sqlite.prepare(Session.insertIndexRowSQL)
            try Self.collection.withUTF8Buffer { collection in
                select.bindText(collection, at: 1)
                defer { select.reset() }
                while try select.step() {
                    let user = try coder.decode(
                        data: select.blob(at: 1), metadata: select.isNull(at: 2) ? nil : select.blob(at: 2))
                    try Self.writeIndexRow(of: user, rowID: select.int64(at: 0), with: insert)
                }
            }
        }
    }

    func close() throws {
        openSession = nil
    }

    func reopen() throws {
        openSession = try Session(path: path)
    }

    // MARK: Queries

    /// The users that `statement`, bound, selects; one autocommit statement is its own read
    /// transaction.
    @inline(__always)
    private func users(_ statement: RawStatement) throws -> [User] {
        defer { statement.reset() }
        var users: [User] = []
        while try statement.step() {
            users.append(
                try coder.decode(data: statement.blob(at: 0), metadata: statement.isNull(at: 1) ? nil : statement.blob(at: 1)))
        }
        return users
    }

    /// The users that `statement` selects for the age `lower`, or the ages from `lower` to
    /// `upper` (`?1`, `?2`), at most `limit` of them when it takes a limit (`?9`).
    @inline(__always)
    private func users(_ statement: RawStatement, age lower: Int, to upper: Int? = nil, limit: Int? = nil) throws
        -> [User]
    {
        statement.bindInt64(Int64(lower), at: 1)
        if let upper { statement.bindInt64(Int64(upper), at: 2) }
        if let limit { statement.bindInt64(Int64(limit), at: 9) }
        return try users(statement)
    }

    func users(age: Int) throws -> [User] {
        try users(session.selectByAge, age: age)
    }

    func users(ages: Range<Int>) throws -> [User] {
        try users(session.selectByAgeRange, age: ages.lowerBound, to: ages.upperBound)
    }

    func page(age: Int, limit: Int) throws -> [User] {
        try users(session.pageByAge, age: age, limit: limit)
    }

    func page(ages: Range<Int>, limit: Int) throws -> [User] {
        try users(session.pageByAgeRange, age: ages.lowerBound, to: ages.upperBound, limit: limit)
    }

    func pageSortedByEmail(age: Int, limit: Int) throws -> [User] {
        try users(session.pageByAgeSortedByEmail, age: age, limit: limit)
    }

    func ageAggregates(ages: Range<Int>) throws -> AgeAggregates {
        let session = try session
        return try session.inTransaction(session.beginRead) {
            let sum = session.sumOfAges
            sum.bindInt64(Int64(ages.lowerBound), at: 1)
            sum.bindInt64(Int64(ages.upperBound), at: 2)
            defer { sum.reset() }
            guard try sum.step() else { throw BenchmarkError("raw SQLite: the sum returned no row") }
            var aggregates = AgeAggregates(sum: Int(sum.int64(at: 0)), counts: [])
            let counts = session.countByAge
            counts.bindInt64(Int64(ages.lowerBound), at: 1)
            counts.bindInt64(Int64(ages.upperBound), at: 2)
            defer { counts.reset() }
            while try counts.step() {
                aggregates.counts.append(AgeCount(age: Int(counts.int64(at: 0)), count: Int(counts.int64(at: 1))))
            }
            return aggregates
        }
    }
}

/// The baseline of the index workloads: raw SQLite, the index table maintained by hand, the
/// hand-written compact binary coder.
typealias BaselineIndexedStore = RawIndexedStore<HandWrittenItemCoder>
/// Raw SQLite, the index table maintained by hand, `JSONEncoder`/`JSONDecoder` blobs.
typealias JSONIndexedStore = RawIndexedStore<JSONItemCoder>
