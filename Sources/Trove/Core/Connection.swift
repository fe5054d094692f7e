internal import TroveCSQLite
import Dispatch

/// A connection to a ``Database``: its own SQLite handle, its own caches of decoded items and
/// metadata, and closure-scoped transactions.
///
/// ```swift
/// let connection = try database.newConnection()
/// try connection.readWrite { tx in
///     try tx.write(user)
/// }
/// let user = try connection.read { tx in
///     try User.read(tx).byKey(id)
/// }
/// ```
///
/// A connection runs one transaction at a time; transactions of several connections run in
/// parallel, with one writer at a time across the database. A read transaction sees one
/// consistent snapshot for its whole duration. When another connection commits, this
/// connection evicts exactly the changed entries from its caches before its next transaction.
///
/// The synchronous methods run on the caller's thread; the `async` twins run on the
/// connection's own serial queue and never block the caller's thread.
public final class Connection: @unchecked Sendable {
    // @unchecked because `core` is only used while `lock` is held, which serializes the
    // transactions of this connection; everything else is immutable and Sendable.

    /// The database this connection belongs to.
    public let database: Database

    let lock = TransactionLock()
    let core: ConnectionCore
    private let queue = DispatchQueue(label: "Trove.Connection")

    init(database: Database) throws {
        self.database = database
        self.core = ConnectionCore(sqlite: try database.openConnectionHandle(), database: database)
    }

    // MARK: Synchronous transactions

    /// Runs `body` in a read transaction and returns its result.
    ///
    /// The transaction sees one consistent snapshot of the database: commits of other
    /// connections during `body` are not visible until the next transaction.
    ///
    /// ```swift
    /// let count = try connection.read { tx in try tx.count(in: "users") }
    /// ```
    ///
    /// - Parameter body: The reads to run. If it throws, the transaction ends and the error is
    ///   rethrown.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails.
    /// - Important: The transaction must not escape `body`. Calling `read` or `readWrite` on the
    ///   same connection from inside `body` is a programming error that stops the program.
    @_disfavoredOverload
    public func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        try lock.withLock(misuse: Connection.nestedMessage) {
            try core.runRead(body)
        }
    }

    /// Runs `body` in a read-write transaction, commits it, and returns its result.
    ///
    /// One read-write transaction runs at a time across every connection of the database; this
    /// method waits for the current one to finish. Readers on other connections are never
    /// blocked and keep seeing their snapshot until their next transaction.
    ///
    /// If `body` throws, the transaction is rolled back and the error is rethrown: nothing it
    /// wrote is stored, and nothing it cached stays in the caches.
    ///
    /// ```swift
    /// try connection.readWrite { tx in
    ///     try tx.write(user)
    ///     try tx.remove(Session.self, key: oldSessionID)
    /// }
    /// ```
    ///
    /// - Parameter body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails (the transaction is
    ///   then rolled back).
    /// - Important: The transaction must not escape `body`. Starting a transaction on the same
    ///   connection, or a read-write transaction on any connection of the same database, from
    ///   inside `body` is a programming error that stops the program (it would deadlock).
    @_disfavoredOverload
    public func readWrite<T>(_ body: (ReadWriteTransaction) throws -> T) throws -> T {
        try lock.withLock(misuse: Connection.nestedMessage) {
            try database.writerLock.withLock(misuse: Connection.nestedWriteMessage) {
                try core.runReadWrite(body)
            }
        }
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

    // MARK: Asynchronous transactions

    /// Runs `body` in a read transaction on the connection's queue, without blocking the
    /// caller's thread.
    ///
    /// - Parameter body: The reads to run. If it throws, the error is rethrown.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, ``TroveError`` when SQLite fails, or `CancellationError`
    ///   when the task was cancelled before the transaction started (a transaction that began
    ///   runs to its end).
    public func read<T: Sendable>(_ body: @escaping @Sendable (ReadTransaction) throws -> T) async throws -> T {
        try await run { try self.read(body) }
    }

    /// Runs `body` in a read-write transaction on the connection's queue, without blocking the
    /// caller's thread, and commits it.
    ///
    /// If `body` throws, the transaction is rolled back and the error is rethrown.
    ///
    /// - Parameter body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, ``TroveError`` when SQLite fails, or `CancellationError`
    ///   when the task was cancelled before the transaction started (a transaction that began
    ///   runs to its end).
    public func readWrite<T: Sendable>(
        _ body: @escaping @Sendable (ReadWriteTransaction) throws -> T
    ) async throws -> T {
        try await run { try self.readWrite(body) }
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        // Cancellation throws `CancellationError`, as the pool's transactions do (see
        // TransactionsAndConcurrency.md).
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    static let nestedMessage =
        "Trove: a transaction was started on a Connection from inside a transaction of the same connection. Nested transactions are not supported: use the transaction you already have."
    static let nestedWriteMessage =
        "Trove: a readWrite transaction was started from inside another readWrite transaction of the same Database on the same thread. This would deadlock: one writer at a time. Use the transaction you already have."
}

extension Database {
    /// Opens a handle on the database's file with the configuration's per-connection settings
    /// (busy timeout, synchronous, page count limit, tuning): every connection, explicit or of the
    /// pool, opens through here.
    func openConnectionHandle() throws -> SQLiteConnection {
        let sqlite = try SQLiteConnection(
            path: path, flags: configuration.isReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE)
        sqlite3_busy_timeout(sqlite.handle, Int32(clamping: configuration.busyTimeoutMilliseconds))
        try sqlite.execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
        if let maximumPageCount = configuration.maximumPageCount {
            try sqlite.execute("PRAGMA max_page_count = \(max(1, maximumPageCount))")
        }
        try configuration.applyTuning(to: sqlite)
        return sqlite
    }
}
