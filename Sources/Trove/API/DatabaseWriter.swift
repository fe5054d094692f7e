/// Something that runs read and read-write transactions on a SQLite database, synchronously or
/// asynchronously: a ``Database`` or a ``Connection`` (see ``DatabaseReader``).
///
/// ```swift
/// try db.write(user)
/// try db.write { tx in
///     try tx.write(user)
///     try tx.remove(Session.self, key: oldSession)
/// }
/// ```
public protocol DatabaseWriter: DatabaseReader, AsyncDatabaseWriter
where WritingTransaction == ReadWriteTransaction {
    /// Runs `body` in a read-write transaction on the caller's thread, commits it and returns its
    /// result, or rolls it back if `body` throws.
    ///
    /// Call it as `write { tx in … }`: ``write(label:fileID:line:_:)`` fills in `origin`.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body` (nothing is then written), or ``TroveError`` when SQLite
    ///   fails or the call would wait for a transaction the same thread holds
    ///   (``TroveError/Code/misuse``).
    func write<T>(from origin: TransactionOrigin, _ body: (ReadWriteTransaction) throws -> T) throws -> T
}

extension DatabaseWriter {
    /// Runs `body` in a read-write transaction on the caller's thread, commits it and returns its
    /// result, or rolls it back if `body` throws.
    ///
    /// ```swift
    /// try db.write { tx in try tx.write(user) }
    /// ```
    ///
    /// - Parameters:
    ///   - label: A name for the transaction, shown while it runs or waits.
    ///   - fileID: Where the transaction was started (the caller's, by default).
    ///   - line: The line where it was started (the caller's, by default).
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body` (nothing is then written), or ``TroveError`` when SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func write<T>(
        label: String? = nil, fileID: String = #fileID, line: Int = #line, _ body: (ReadWriteTransaction) throws -> T
    ) throws -> T {
        try write(from: TransactionOrigin(label: label, fileID: fileID, line: line), body)
    }
}
