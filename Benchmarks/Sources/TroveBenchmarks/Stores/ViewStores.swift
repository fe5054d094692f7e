import CSQLiteBenchmark
import Foundation
import GRDB
import Synchronization
import Trove

/// A store of the views benchmark (issue 15): messages, grouped by conversation and ordered by
/// timestamp then key.
protocol ViewBenchmarkStore: AnyObject {
    /// The SQLite file, for the WAL probe.
    var path: String { get }
    /// Writes `messages` in one write transaction (setup, not timed).
    func insert(_ messages: ArraySlice<Message>) throws
    /// Ends the setup (Trove: registers the view, which fills it from the stored messages).
    func finishSetup() throws
    /// Writes `message`, changed, in a write transaction of its own.
    func update(_ message: Message) throws
    /// Every key of `group` in order, read again from the database (`nil`: the store cannot).
    func keys(in group: String) throws -> [String]?
    /// The messages at rows 0..<`limit` of `group`, each read in a read transaction of its own
    /// (`nil`: the store cannot).
    func top(_ limit: Int, in group: String) throws -> [Message]?
    /// The stored message at `key`.
    func message(_ key: String) throws -> Message?
}

/// Counts the calls of a view's sort closure. An atomic, not a lock: the closure runs inside
/// Trove's write transactions, on whichever thread runs them.
final class CallCounter: Sendable {
    private let calls = Atomic<Int>(0)

    func increment() {
        calls.add(1, ordering: .relaxed)
    }

    var value: Int { calls.load(ordering: .relaxed) }
}

/// Trove, with or without a persistent `View<Message>` grouped by conversation and sorted by a
/// closure that compares timestamps and counts its calls.
final class TroveViewStore: ViewBenchmarkStore {
    static let viewName = "messages_by_conversation"

    let path: String
    let database: Trove.Database
    let writer: Trove.Connection
    let reader: Trove.Connection
    let view: View<Message>?

    /// - Parameters:
    ///   - counter: Counts the calls of the view's sort closure; `nil` for no view at all.
    ///   - inMemory: Whether the view keeps its pages in memory (`.inMemory`) or in the file.
    ///   - key: The key of the file (`nil`: plain; the encrypted pass, issue 34).
    init(directory: String, counter: CallCounter?, inMemory: Bool = false, key: EncryptionKey? = nil) throws {
        path = directory + "/messages.trove"
        database = try Trove.Database(path: path, configuration: .benchmark(key: key))
        writer = try database.newConnection()
        reader = try database.newConnection()
        view = counter.map { counter in
            View<Message>(
                Self.viewName, storage: inMemory ? .inMemory : .persistent, grouping: { message, _ in message.conversation },
                areInIncreasingOrder: { lhs, rhs in
                    counter.increment()
                    return lhs.timestamp < rhs.timestamp
                })
        }
    }

    func insert(_ messages: ArraySlice<Message>) throws {
        try writer.write { tx in try tx.write(Array(messages)) }
    }

    func finishSetup() throws {
        if let view { try database.register(view.databaseExtension) }
    }

    func update(_ message: Message) throws {
        try writer.write { tx in try tx.write(message) }
    }

    func keys(in group: String) throws -> [String]? {
        guard let view else { return nil }
        return try reader.read { tx in try view.rows(in: group).keys(tx) }
    }

    func top(_ limit: Int, in group: String) throws -> [Message]? {
        guard let view else { return nil }
        return try reader.read { tx in try view.rows(in: group, range: 0..<limit).items(tx) }
    }

    func message(_ key: String) throws -> Message? {
        try reader.read { tx in try tx.read(Message.self, key: key) }
    }
}

/// Raw SQLite through the C API: a table of messages with an index on (conversation, timestamp,
/// key), which serves both the ordered key list of a conversation (from the index alone) and
/// its first rows; every statement prepared once.
final class RawViewStore: ViewBenchmarkStore {
    let path: String
    private let sqlite: RawSQLite
    private let insertStatement: RawStatement
    private let updateStatement: RawStatement
    private let keysStatement: RawStatement
    private let topStatement: RawStatement
    private let messageStatement: RawStatement
    private let begin: RawStatement
    private let beginRead: RawStatement
    private let commit: RawStatement

    init(directory: String) throws {
        path = directory + "/messages.sqlite"
        sqlite = try RawSQLite(path: path)
        try sqlite.execute(
            "CREATE TABLE messages (key TEXT NOT NULL UNIQUE, conversation TEXT NOT NULL, timestamp INTEGER NOT NULL, text TEXT NOT NULL)")
        try sqlite.execute("CREATE INDEX messages_order ON messages (conversation, timestamp, key)")
        insertStatement = try sqlite.prepare(
            "INSERT INTO messages (key, conversation, timestamp, text) VALUES (?1, ?2, ?3, ?4)")
        updateStatement = try sqlite.prepare(
            "UPDATE messages SET conversation = ?2, timestamp = ?3, text = ?4 WHERE key = ?1")
        keysStatement = try sqlite.prepare("SELECT key FROM messages WHERE conversation = ?1 ORDER BY timestamp, key")
        topStatement = try sqlite.prepare(
            "SELECT key, conversation, timestamp, text FROM messages WHERE conversation = ?1 ORDER BY timestamp, key LIMIT ?2")
        messageStatement = try sqlite.prepare("SELECT key, conversation, timestamp, text FROM messages WHERE key = ?1")
        begin = try sqlite.prepare("BEGIN IMMEDIATE")
        beginRead = try sqlite.prepare("BEGIN DEFERRED")
        commit = try sqlite.prepare("COMMIT")
    }

    private func bind(_ message: Message, to statement: RawStatement, body: () throws -> Void) throws {
        try message.id.withUTF8Buffer { key in
            try message.conversation.withUTF8Buffer { conversation in
                try message.text.withUTF8Buffer { text in
                    statement.bindText(key, at: 1)
                    statement.bindText(conversation, at: 2)
                    statement.bindInt64(Int64(message.timestamp), at: 3)
                    statement.bindText(text, at: 4)
                    try body()
                }
            }
        }
    }

    private func inWriteTransaction(_ body: () throws -> Void) throws {
        try begin.run()
        do {
            try body()
            try commit.run()
        } catch {
            try? sqlite.execute("ROLLBACK")
            throw error
        }
    }

    func insert(_ messages: ArraySlice<Message>) throws {
        try inWriteTransaction {
            for message in messages {
                try bind(message, to: insertStatement) { try insertStatement.run() }
            }
        }
    }

    func finishSetup() throws {}

    func update(_ message: Message) throws {
        try inWriteTransaction {
            try bind(message, to: updateStatement) { try updateStatement.run() }
        }
    }

    private func row(_ statement: RawStatement) -> Message {
        Message(
            id: statement.text(at: 0), conversation: statement.text(at: 1), timestamp: Int(statement.int64(at: 2)),
            text: statement.text(at: 3))
    }

    func keys(in group: String) throws -> [String]? {
        try group.withUTF8Buffer { group in
            keysStatement.bindText(group, at: 1)
            defer { keysStatement.reset() }
            var keys: [String] = []
            while try keysStatement.step() { keys.append(keysStatement.text(at: 0)) }
            return keys
        }
    }

    func top(_ limit: Int, in group: String) throws -> [Message]? {
        // A read transaction, as Trove's `read` and GRDB's `pool.read`.
        try beginRead.run()
        defer { try? commit.run() }
        return try group.withUTF8Buffer { group in
            topStatement.bindText(group, at: 1)
            topStatement.bindInt64(Int64(limit), at: 2)
            defer { topStatement.reset() }
            var messages: [Message] = []
            while try topStatement.step() { messages.append(row(topStatement)) }
            return messages
        }
    }

    func message(_ key: String) throws -> Message? {
        try key.withUTF8Buffer { key in
            messageStatement.bindText(key, at: 1)
            defer { messageStatement.reset() }
            return try messageStatement.step() ? row(messageStatement) : nil
        }
    }
}

extension Message: FetchableRecord, PersistableRecord {}

/// GRDB 7.10: ``Message`` as a Codable record in its table with an index on (conversation,
/// timestamp, id), through a `DatabasePool`; the key list and the first rows of a conversation
/// through the query interface, each in `pool.read`.
final class GRDBViewStore: ViewBenchmarkStore {
    let path: String
    let pool: DatabasePool

    init(directory: String) throws {
        path = directory + "/messages.grdb.sqlite"
        var configuration = GRDB.Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.create(table: Message.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("conversation", .text).notNull()
                table.column("timestamp", .integer).notNull()
                table.column("text", .text).notNull()
            }
            try db.create(
                index: "message_order", on: Message.databaseTableName, columns: ["conversation", "timestamp", "id"])
        }
    }

    private static let order = [Column("timestamp"), Column("id")]

    func insert(_ messages: ArraySlice<Message>) throws {
        try pool.write { db in
            for message in messages { try message.insert(db) }
        }
    }

    func finishSetup() throws {}

    func update(_ message: Message) throws {
        try pool.write { db in try message.update(db) }
    }

    func keys(in group: String) throws -> [String]? {
        try pool.read { db in
            try String.fetchAll(
                db, Message.select(Column("id")).filter(Column("conversation") == group).order(Self.order))
        }
    }

    func top(_ limit: Int, in group: String) throws -> [Message]? {
        try pool.read { db in
            try Message.filter(Column("conversation") == group).order(Self.order).limit(limit).fetchAll(db)
        }
    }

    func message(_ key: String) throws -> Message? {
        try pool.read { db in try Message.fetchOne(db, key: key) }
    }
}
