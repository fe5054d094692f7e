/// The transactions of a ``Database``, on its own pool of connections: readers in parallel, up to
/// ``Configuration/maximumReaderCount`` at a time, each at its own snapshot with its own caches,
/// and one writer. More wait, first come, first served; an `async` transaction waits without
/// holding a thread (10,000 waiting tasks run on a handful of threads), and a task cancelled while
/// it waits leaves the queue with `CancellationError`. A transaction that runs longer than
/// ``Configuration/longTransactionThreshold`` is reported, with the label and the place in the code
/// that started it (``transactionsInProgress``).
///
/// The conveniences of ``DatabaseReader`` and ``DatabaseWriter`` (``DatabaseReader/read(_:key:)``,
/// ``DatabaseWriter/write(_:)-(Item)``…) and the terminals of queries run on these.
extension Database: DatabaseWriter {
    /// Runs `body` in a read transaction on one of the database's readers, on the caller's thread.
    ///
    /// When every reader is busy, the thread waits for one, in turn with the `async` callers.
    /// Nested in another transaction of the database on the same thread, it throws
    /// ``TroveError/Code/misuse`` instead of waiting for itself.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails or the call is nested.
    public func read<T>(from origin: TransactionOrigin, _ body: (ReadTransaction) throws -> T) throws -> T {
        try checkNotNested("read", origin)
        pool.startMonitoringIfNeeded()
        return try pool.readers.runSynchronously(label: origin.label, fileID: origin.fileID, line: origin.line) {
            connection in
            try connection.core(self).runRead(body)
        }
    }

    /// Runs `body` in a read-write transaction on the database's writer, on the caller's thread,
    /// and commits it, or rolls it back if `body` throws.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body` (nothing is then written), or ``TroveError`` when SQLite fails
    ///   or the call is nested in a transaction of the database on the same thread.
    public func write<T>(from origin: TransactionOrigin, _ body: (ReadWriteTransaction) throws -> T) throws -> T {
        try checkNotNested("write", origin)
        if writerLock.isHeldByCurrentThread {
            throw TroveError(
                code: .misuse,
                message:
                    "database.write was called at \(origin.fileID):\(origin.line) from inside a write transaction of a connection of the same database on the same thread: one writer at a time, it would wait for itself. Use the transaction you already have.",
                path: path)
        }
        pool.startMonitoringIfNeeded()
        return try pool.writer.runSynchronously(label: origin.label, fileID: origin.fileID, line: origin.line) {
            connection in
            let core = try connection.core(self)
            return try writerLock.withLock(misuse: Connection.nestedWriteMessage) {
                try core.runReadWrite(body)
            }
        }
    }

    /// Runs `body` in a read transaction on one of the database's readers, in the caller's task.
    ///
    /// The task waits for a reader without holding a thread; `body` then runs between the
    /// beginning and the end of the read transaction, on the reader's own dispatch queue (not on
    /// Swift's cooperative threads, which SQLite's blocking work would hold), off the caller's actor.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`; ``TroveError`` when SQLite fails, or with code
    ///   ``TroveError/Code/misuse`` when the task already runs a transaction of this database;
    ///   `CancellationError` when the task is cancelled while it waits for a reader.
    public func read<T: Sendable>(
        from origin: TransactionOrigin, _ body: sending (ReadTransaction) async throws -> T
    ) async throws -> T {
        let transactions = try checkNotNested("read", origin)
        pool.startMonitoringIfNeeded()
        return try await onLeasedConnection(pool.readers, origin, transactions) { core in
            try await core.runRead(body)
        }
    }

    /// Runs `body` in a read-write transaction on the database's writer, in the caller's task, and
    /// commits it, or rolls it back if `body` throws.
    ///
    /// The task waits for the writer without holding a thread; `body` then runs between the
    /// beginning and the commit, on the writer's dispatch queue, while every other writer of the
    /// database waits: keep it short, and do not wait in it for work that writes.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body` (nothing is then written); ``TroveError`` when SQLite fails, or
    ///   with code ``TroveError/Code/misuse`` when the task already runs a transaction of this
    ///   database; `CancellationError` when the task is cancelled while it waits.
    public func write<T: Sendable>(
        from origin: TransactionOrigin, _ body: sending (ReadWriteTransaction) async throws -> T
    ) async throws -> T {
        let transactions = try checkNotNested("write", origin)
        pool.startMonitoringIfNeeded()
        return try await onLeasedConnection(pool.writer, origin, transactions) { core in
            try await writerLock.withLock(misuse: Connection.nestedWriteMessage) {
                try await core.runReadWrite(body)
            }
        }
    }

    /// Runs `work` with the state of a connection of `lane`, once the task holds one, as a
    /// transaction of this database for the task (`transactions`, the task's
    /// ``transactionsOfTask``, with this database added).
    ///
    /// `work` runs on the connection's queue, which gets the connection back before the task
    /// returns to the caller's executor; a task that must wait for a connection waits parked in
    /// its ``ConnectionGrant``, holding no thread (``ConnectionLane/lease(label:fileID:line:)``).
    /// None of it needs Swift's cooperative threads, which synchronous callers may all hold while
    /// they wait for this very connection.
    @inline(__always)
    private func onLeasedConnection<T>(
        _ lane: ConnectionLane, _ origin: TransactionOrigin, _ transactions: TransactionsOfTask,
        _ work: (ConnectionCore) async throws -> T
    ) async throws -> T {
        let transactions = transactions.adding(id)
        switch lane.lease(label: origin.label, fileID: origin.fileID, line: origin.line) {
        case .granted(let connection):
            return try await withTaskExecutorPreference(connection.executor) {
                defer { lane.release(connection) }
                let core = try connection.core(self)
                return try await Database.$transactionsOfTask.withValue(transactions) {
                    try await work(core)
                }
            }
        case .queued(let waiter, let grant):
            return try await withTaskCancellationHandler {
                try await withTaskExecutorPreference(grant) {
                    let connection = try grant.connection()
                    defer { lane.release(connection) }
                    let core = try connection.core(self)
                    return try await Database.$transactionsOfTask.withValue(transactions) {
                        try await work(core)
                    }
                }
            } onCancel: {
                lane.cancelWaiter(waiter)
            }
        case .cancelled:
            throw CancellationError()
        }
    }

    /// The databases whose transactions the current task runs (and a task it is a child of): a
    /// transaction of one of them started from its body would wait for itself.
    @TaskLocal static var transactionsOfTask = TransactionsOfTask()

    /// The databases whose transactions a task runs: the first inline, any others in an array,
    /// so that a transaction's body (one database, the common case) costs no allocation.
    struct TransactionsOfTask: Sendable {
        private var first: ObjectIdentifier?
        private var others: [ObjectIdentifier] = []

        func contains(_ database: ObjectIdentifier) -> Bool {
            first == database || others.contains(database)
        }

        func adding(_ database: ObjectIdentifier) -> Self {
            var result = self
            if result.first == nil { result.first = database } else { result.others.append(database) }
            return result
        }
    }

    private var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Throws when the current thread or task runs a transaction of this database already;
    /// returns the transactions the task runs.
    @discardableResult
    private func checkNotNested(_ method: String, _ origin: TransactionOrigin) throws -> TransactionsOfTask {
        let transactions = Database.transactionsOfTask
        guard pool.isRunningOnCurrentThread || transactions.contains(id) else { return transactions }
        throw TroveError(
            code: .misuse,
            message:
                "database.\(method) was called at \(origin.fileID):\(origin.line) from inside the body of another transaction of the same database: nested transactions are not supported (it could wait for itself). Use the transaction you already have.",
            path: path)
    }
}
