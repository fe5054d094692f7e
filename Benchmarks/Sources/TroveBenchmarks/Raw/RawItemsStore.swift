/// Raw SQLite on the items table of Trove (collection, key, data, metadata; unique on
/// collection and key), with every statement prepared once and reused.
///
/// With ``HandWrittenItemCoder`` it is the baseline: the limit of Trove's design. With
/// ``JSONItemCoder`` it is what a user who stores `Codable` values as JSON blobs writes.
final class RawItemsStore<Coder: ItemCoder>: BenchmarkStore {
    private static var collection: String { "users" }

    private let sqlite: RawSQLite
    private var coder = Coder()
    private let beginRead: RawStatement
    private let beginWrite: RawStatement
    private let commit: RawStatement
    private let insertItem: RawStatement
    private let updateItem: RawStatement
    private let deleteItem: RawStatement
    private let selectItem: RawStatement
    private let selectAll: RawStatement
    private let selectMetadata: RawStatement

    init(directory: String) throws {
        sqlite = try RawSQLite(path: directory + "/items.sqlite")
        try sqlite.execute(
            """
            CREATE TABLE IF NOT EXISTS items (
                rowid INTEGER PRIMARY KEY,
                collection TEXT NOT NULL,
                key TEXT NOT NULL,
                data BLOB NOT NULL,
                metadata BLOB,
                UNIQUE (collection, key)
            )
            """)
        beginRead = try sqlite.prepare("BEGIN DEFERRED")
        beginWrite = try sqlite.prepare("BEGIN IMMEDIATE")
        commit = try sqlite.prepare("COMMIT")
        insertItem = try sqlite.prepare("INSERT INTO items (collection, key, data, metadata) VALUES (?1, ?2, ?3, ?4)")
        updateItem = try sqlite.prepare("UPDATE items SET data = ?3, metadata = ?4 WHERE collection = ?1 AND key = ?2")
        deleteItem = try sqlite.prepare("DELETE FROM items WHERE collection = ?1 AND key = ?2")
        selectItem = try sqlite.prepare("SELECT data, metadata FROM items WHERE collection = ?1 AND key = ?2")
        selectAll = try sqlite.prepare("SELECT key, data, metadata FROM items WHERE collection = ?1 ORDER BY key")
        selectMetadata = try sqlite.prepare("SELECT metadata FROM items WHERE collection = ?1 AND key = ?2")
    }

    // MARK: Transactions

    private func inTransaction<T>(_ begin: RawStatement, _ body: () throws -> T) throws -> T {
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

    // MARK: Writes

    /// Binds the row of `user` to `statement` (parameters 1 to 4) and runs it.
    @inline(__always)
    private func write(_ user: User, with statement: RawStatement) throws {
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
                    try statement.run()
                }
            }
        }
    }

    func insert(_ users: [User]) throws {
        try inTransaction(beginWrite) {
            for user in users { try write(user, with: insertItem) }
        }
    }

    func update(_ users: [User]) throws {
        try inTransaction(beginWrite) {
            for user in users { try write(user, with: updateItem) }
        }
    }

    func writeEach(_ users: [User]) throws {
        for user in users {
            try inTransaction(beginWrite) { try write(user, with: updateItem) }
        }
    }

    func delete(_ keys: [String]) throws {
        try inTransaction(beginWrite) {
            for key in keys {
                try bindKey(key, to: deleteItem) { try deleteItem.run() }
            }
        }
    }

    // MARK: Reads

    @inline(__always)
    private func bindKey<T>(_ key: String, to statement: RawStatement, _ body: () throws -> T) throws -> T {
        try Self.collection.withUTF8Buffer { collection in
            try key.withUTF8Buffer { key in
                statement.bindText(collection, at: 1)
                statement.bindText(key, at: 2)
                return try body()
            }
        }
    }

    /// Reads one user; outside a transaction, the statement is its own read transaction.
    @inline(__always)
    private func read(_ key: String) throws -> User? {
        try bindKey(key, to: selectItem) {
            defer { selectItem.reset() }
            guard try selectItem.step() else { return nil }
            return try coder.decode(
                data: selectItem.blob(at: 0), metadata: selectItem.isNull(at: 1) ? nil : selectItem.blob(at: 1))
        }
    }

    func readAll() throws -> [User] {
        try inTransaction(beginRead) {
            try Self.collection.withUTF8Buffer { collection in
                selectAll.bindText(collection, at: 1)
                defer { selectAll.reset() }
                var users: [User] = []
                while try selectAll.step() {
                    users.append(
                        try coder.decode(
                            data: selectAll.blob(at: 1), metadata: selectAll.isNull(at: 2) ? nil : selectAll.blob(at: 2)))
                }
                return users
            }
        }
    }

    func readEach(_ keys: [String]) throws -> Checksum {
        var checksum = Checksum()
        for key in keys {
            if let user = try read(key) { checksum.add(user) }
        }
        return checksum
    }

    func readBatch(_ keys: [String]) throws -> Checksum {
        try inTransaction(beginRead) {
            var checksum = Checksum()
            for key in keys {
                if let user = try read(key) { checksum.add(user) }
            }
            return checksum
        }
    }

    func readMetadata(_ keys: [String]) throws -> Checksum {
        try inTransaction(beginRead) {
            var checksum = Checksum()
            for key in keys {
                try bindKey(key, to: selectMetadata) {
                    defer { selectMetadata.reset() }
                    if try selectMetadata.step(), !selectMetadata.isNull(at: 0) {
                        checksum.add(try coder.decodeMetadata(selectMetadata.blob(at: 0)))
                    }
                }
            }
            return checksum
        }
    }
}

/// The baseline: raw SQLite with the hand-written compact binary coder.
typealias BaselineStore = RawItemsStore<HandWrittenItemCoder>
/// Raw SQLite with `JSONEncoder`/`JSONDecoder` blobs.
typealias JSONStore = RawItemsStore<JSONItemCoder>
