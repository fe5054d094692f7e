extension Database {
    // MARK: Transactions on the database's own connections

    /// Runs `body` in a read transaction on one of the database's readers, without blocking the
    /// caller's thread, and returns its result.
    ///
    /// Reads run in parallel, up to ``Configuration/maximumReaderCount`` at a time, each at its
    /// own consistent snapshot; more wait, first come, first served, without holding a thread.
    /// Each reader keeps its caches of decoded items across transactions and evicts exactly what
    /// later commits changed, as a ``Connection`` does.
    ///
    /// ```swift
    /// let user = try await database.read { tx in try User.read(tx).byKey(id) }
    /// ```
    ///
    /// Works from any isolation, `@MainActor` included: the transaction runs on the reader's own
    /// queue.
    ///
    /// - Parameters:
    ///   - label: A name for the transaction in ``transactionsInProgress`` and in the warning
    ///     about long transactions (see ``Configuration/longTransactionThreshold``).
    ///   - fileID: The file that starts the transaction, listed with it.
    ///   - line: The line that starts the transaction, listed with it.
    ///   - body: The reads to run. If it throws, the transaction ends and the error is rethrown.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, ``TroveError`` when SQLite fails, or `CancellationError`
    ///   when the task was cancelled while it waited for a reader (a transaction that started
    ///   runs to its end).
    public func read<T: Sendable>(
        label: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: @escaping @Sendable (ReadTransaction) throws -> T
    ) async throws -> T {
        pool.startMonitoringIfNeeded()
        return try await pool.readers.run(label: label, fileID: fileID, line: line) { connection in
            try connection.read(self, body)
        }
    }

    /// Runs `body` in a read-write transaction on the database's writer, without blocking the
    /// caller's thread, commits it, and returns its result.
    ///
    /// Read-write transactions run one at a time, in the order they were asked for; the
    /// readers go on in parallel meanwhile. If `body` throws, the transaction is rolled back and
    /// the error is rethrown.
    ///
    /// ```swift
    /// try await database.readWrite { tx in try tx.write(user) }
    /// ```
    ///
    /// - Parameters:
    ///   - label: A name for the transaction in ``transactionsInProgress`` and in the warning
    ///     about long transactions.
    ///   - fileID: The file that starts the transaction, listed with it.
    ///   - line: The line that starts the transaction, listed with it.
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, ``TroveError`` when SQLite fails (the transaction is then
    ///   rolled back), or `CancellationError` when the task was cancelled while it waited for
    ///   the writer.
    public func readWrite<T: Sendable>(
        label: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: @escaping @Sendable (ReadWriteTransaction) throws -> T
    ) async throws -> T {
        pool.startMonitoringIfNeeded()
        return try await pool.writer.run(label: label, fileID: fileID, line: line) { connection in
            try connection.readWrite(self, body)
        }
    }

    /// Runs `body` in a read transaction on one of the database's readers, on the caller's
    /// thread, and returns its result.
    ///
    /// When every reader is busy, the caller's thread waits for one, in turn with the `async`
    /// callers. Prefer `read(label:fileID:line:_:)` with `await` in a server or on the
    /// main thread.
    ///
    /// - Parameters:
    ///   - label: A name for the transaction in ``transactionsInProgress``.
    ///   - fileID: The file that starts the transaction.
    ///   - line: The line that starts the transaction.
    ///   - body: The reads to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, ``TroveError`` when SQLite fails, or ``TroveError`` of code
    ///   ``TroveError/Code/misuse`` when called from inside the body of another transaction of
    ///   this database on the same thread (it could wait for itself; use the transaction you
    ///   have).
    @_disfavoredOverload
    public func read<T>(
        label: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: (ReadTransaction) throws -> T
    ) throws -> T {
        try checkNotNested("read", fileID: fileID, line: line)
        pool.startMonitoringIfNeeded()
        return try pool.readers.runSynchronously(label: label, fileID: fileID, line: line) { connection in
            try connection.read(self, body)
        }
    }

    /// Runs `body` in a read-write transaction on the database's writer, on the caller's
    /// thread, commits it, and returns its result.
    ///
    /// When the writer is busy, the caller's thread waits for it, in turn with the `async`
    /// callers. If `body` throws, the transaction is rolled back and the error is rethrown.
    ///
    /// - Parameters:
    ///   - label: A name for the transaction in ``transactionsInProgress``.
    ///   - fileID: The file that starts the transaction.
    ///   - line: The line that starts the transaction.
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, ``TroveError`` when SQLite fails, or ``TroveError`` of code
    ///   ``TroveError/Code/misuse`` when called from inside the body of another transaction of
    ///   this database (or of a read-write transaction of one of its connections) on the same
    ///   thread: it would wait for itself.
    @_disfavoredOverload
    public func readWrite<T>(
        label: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: (ReadWriteTransaction) throws -> T
    ) throws -> T {
        try checkNotNested("readWrite", fileID: fileID, line: line)
        if writerLock.isHeldByCurrentThread {
            throw TroveError(
                code: .misuse,
                message:
                    "database.readWrite was called at \(fileID):\(line) from inside a readWrite transaction of a connection of the same database on the same thread: one writer at a time, it would wait for itself. Use the transaction you already have.",
                path: path)
        }
        pool.startMonitoringIfNeeded()
        return try pool.writer.runSynchronously(label: label, fileID: fileID, line: line) { connection in
            try connection.readWrite(self, body)
        }
    }

    private func checkNotNested(_ method: String, fileID: String, line: Int) throws {
        if pool.isRunningOnCurrentThread {
            throw TroveError(
                code: .misuse,
                message:
                    "database.\(method) was called at \(fileID):\(line) from inside the body of another transaction of the same database on the same thread: nested transactions are not supported (it could wait for itself). Use the transaction you already have.",
                path: path)
        }
    }

    // MARK: Watching transactions

    /// The transactions of the database's own connections that run or wait now, the oldest
    /// first.
    ///
    /// Use it to find a transaction that holds a connection too long: each says its kind, its
    /// label, the file and line that started it, and its age.
    ///
    /// ```swift
    /// for activity in database.transactionsInProgress {
    ///     print(activity)  // readWrite running "import" (App/Importer.swift:42) for 12.5 seconds
    /// }
    /// ```
    ///
    /// Transactions of connections made with ``newConnection()`` are not listed.
    public var transactionsInProgress: [TransactionActivity] {
        (pool.writer.activities + pool.readers.activities).sorted { $0.since < $1.since }
    }

    /// Sets what is called, once per transaction, when a transaction of the database's own
    /// connections runs longer than ``Configuration/longTransactionThreshold``; `nil` restores
    /// the default, a line on the standard error.
    ///
    /// ```swift
    /// database.setLongTransactionHandler { activity in
    ///     logger.warning("Slow Trove transaction: \(activity)")
    /// }
    /// ```
    ///
    /// - Parameter handler: Called on a background queue with the transaction, which still runs.
    public func setLongTransactionHandler(_ handler: (@Sendable (TransactionActivity) -> Void)?) {
        pool.setLongTransactionHandler(handler)
    }

    /// The number of transactions waiting for a reader (for tests).
    var waitingReaderCount: Int { pool.readers.waiterCount }

    /// The number of transactions waiting for the writer (for tests).
    var waitingWriterCount: Int { pool.writer.waiterCount }
}
