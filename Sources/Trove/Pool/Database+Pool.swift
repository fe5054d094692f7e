extension Database {
    // MARK: Watching transactions

    /// The transactions of the database's own connections that run or wait now, the oldest
    /// first.
    ///
    /// Use it to find a transaction that holds a connection too long: each says its kind, its
    /// label, the file and line that started it, and its age.
    ///
    /// ```swift
    /// for activity in database.transactionsInProgress {
    ///     print(activity)  // write running "import" (App/Importer.swift:42) for 12.5 seconds
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
