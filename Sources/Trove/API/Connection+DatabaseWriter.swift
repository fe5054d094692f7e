/// The transactions of a ``Connection``: one at a time on the connection, one writer at a time
/// across the database, each read transaction one consistent snapshot.
///
/// The conveniences of ``DatabaseReader`` and ``DatabaseWriter`` and the terminals of queries run
/// on these.
extension Connection: DatabaseWriter {
    /// Runs `body` in a read transaction of the connection, on the caller's thread.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started (a connection does not list its
    ///     transactions: only ``Database/transactionsInProgress`` does).
    ///   - body: The reads to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails.
    /// - Important: The transaction must not escape `body`. Starting a transaction of the same
    ///   connection from inside `body` is a programming error that stops the program.
    public func read<T>(from origin: TransactionOrigin, _ body: (ReadTransaction) throws -> T) throws -> T {
        try lock.withLock(misuse: Connection.nestedMessage) {
            try core.runRead(body)
        }
    }

    /// Runs `body` in a read-write transaction of the connection, on the caller's thread, and
    /// commits it, or rolls it back if `body` throws (nothing it wrote is stored, nothing it
    /// cached stays in the caches).
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started.
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails.
    /// - Important: Starting a transaction of the same connection, or a write transaction of any
    ///   connection of the same database, from inside `body` is a programming error that stops
    ///   the program (it would deadlock).
    public func write<T>(from origin: TransactionOrigin, _ body: (ReadWriteTransaction) throws -> T) throws -> T {
        try lock.withLock(misuse: Connection.nestedMessage) {
            try database.writerLock.withLock(misuse: Connection.nestedWriteMessage) {
                try core.runReadWrite(body)
            }
        }
    }

    /// Runs `body` in a read transaction of the connection, in the caller's task: it waits for
    /// the connection without holding a thread, and `body` runs off the caller's actor.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started.
    ///   - body: The reads to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`; ``TroveError`` when SQLite fails, or with code
    ///   ``TroveError/Code/misuse`` when the task runs a transaction of this connection already;
    ///   `CancellationError` when the task is cancelled while it waits.
    public func read<T: Sendable>(
        from origin: TransactionOrigin, _ body: sending (ReadTransaction) async throws -> T
    ) async throws -> T {
        try await withTaskExecutorPreference(executor) {
            try await lock.withLock(misuse: Connection.nestedMessage) {
                try await core.runRead(body)
            }
        }
    }

    /// Runs `body` in a read-write transaction of the connection, in the caller's task, and commits
    /// it, or rolls it back if `body` throws. Every other writer of the database waits meanwhile:
    /// keep it short.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started.
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body` (nothing is then written); ``TroveError`` when SQLite fails, or
    ///   with code ``TroveError/Code/misuse`` when the task runs a transaction of this connection
    ///   or a write transaction of this database already; `CancellationError` when the task is
    ///   cancelled while it waits.
    public func write<T: Sendable>(
        from origin: TransactionOrigin, _ body: sending (ReadWriteTransaction) async throws -> T
    ) async throws -> T {
        try Task.checkCancellation()
        return try await withTaskExecutorPreference(executor) {
            try await lock.withLock(misuse: Connection.nestedMessage) {
                try await database.writerLock.withLock(misuse: Connection.nestedWriteMessage) {
                    try await core.runReadWrite(body)
                }
            }
        }
    }
}
