import Dispatch

/// A connection to a ``Database``: its own SQLite handle, its own caches of decoded items and
/// metadata, and closure-scoped transactions.
///
/// ```swift
/// let connection = try database.newConnection()
/// try connection.write { tx in
///     try tx.write(user)
/// }
/// let sameUser = try connection.read { tx in
///     try tx.read(User.self, key: user.id)
/// }
/// ```
///
/// A connection runs one transaction at a time; transactions of several connections run in
/// parallel, with one writer at a time across the database. A read transaction sees one
/// consistent snapshot for its whole duration. When another connection commits, this
/// connection evicts exactly the changed entries from its caches before its next transaction.
///
/// A connection is a ``DatabaseWriter``: every convenience and query terminal runs on it. The
/// synchronous methods run on the caller's thread; the `async` twins wait for the connection
/// without holding a thread and run their body in the caller's task, off the caller's actor.
public final class Connection: @unchecked Sendable {
    // @unchecked because `core` is only used while `lock` is held, which serializes the
    // transactions of this connection; everything else is immutable and Sendable.

    /// The database this connection belongs to.
    public let database: Database

    let lock = TransactionLock()
    let core: ConnectionCore
    /// The executor that the bodies of this connection's `async` transactions prefer: a serial
    /// queue of its own, off Swift's cooperative threads (see ``QueueExecutor``).
    let executor = QueueExecutor(queue: DispatchQueue(label: "Trove.Connection"))

    init(database: Database) throws {
        self.database = database
        self.core = ConnectionCore(sqlite: try database.openConnectionHandle(), database: database)
    }

    /// Runs `body` in a write transaction on the connection's state, for the runtime's own
    /// changes (registering extensions), and commits it. `body` returns its result and what
    /// undoes its changes outside the file, run when the commit fails.
    func withWriteTransaction<T>(_ body: (ConnectionCore) throws -> (T, () -> Void)) throws -> T {
        try lock.withLock(misuse: Connection.nestedMessage) {
            try database.writerLock.withLock(misuse: Connection.nestedWriteMessage) {
                try core.beginWrite()
                let result: T
                let undo: () -> Void
                do {
                    (result, undo) = try body(core)
                } catch {
                    core.rollbackWrite()
                    throw error
                }
                do {
                    if let changeset = try core.commitWrite() {
                        database.changeHub.publish(changeset)
                    }
                } catch {
                    undo()
                    throw error
                }
                return result
            }
        }
    }

    static let nestedMessage =
        "Trove: a transaction was started on a Connection from inside a transaction of the same connection (on the same thread or in the same task). Nested transactions are not supported: use the transaction you already have."
    static let nestedWriteMessage =
        "Trove: a write transaction was started from inside another write transaction of the same Database, on the same thread or in the same task. This would deadlock: one writer at a time. Use the transaction you already have."
}

extension Database {
    /// Opens a handle on the database's file with the configuration's per-connection settings
    /// (busy timeout, synchronous, page count limit, tuning): every connection, explicit or of the
    /// pool, opens through here.
    func openConnectionHandle() throws -> SQLiteConnection {
        let sqlite = try SQLiteConnection(
            path: path, access: configuration.isReadOnly ? .readOnly : .readWrite, key: connectionKey,
            busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        try sqlite.execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
        if let maximumPageCount = configuration.maximumPageCount {
            try sqlite.execute("PRAGMA max_page_count = \(max(1, maximumPageCount))")
        }
        try configuration.applyTuning(to: sqlite)
        return sqlite
    }
}
