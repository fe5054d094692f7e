/// Something that runs read transactions on a SQLite database, synchronously or asynchronously:
/// a ``Database`` (its pool of readers) or a ``Connection``.
///
/// It is an ``AsyncDatabaseReader`` whose transaction is a ``ReadTransaction``, with synchronous
/// twins: the same calls, without `await`, run on the caller's thread. Conveniences are written
/// once, in extensions of this protocol, so every place has every one of them:
///
/// ```swift
/// let user = try db.read(User.self, key: id)                  // one call, one transaction
/// let (user, count) = try db.read { tx in                      // several, one snapshot
///     (try tx.read(User.self, key: id), try tx.count(of: Post.self))
/// }
/// let adults = try User.query.filter(.age(18...)).items(in: db)
/// ```
///
/// In `async` code the asynchronous overloads are chosen (write `await`): they wait for a
/// connection without holding a thread, and never block the caller's actor.
public protocol DatabaseReader: AsyncDatabaseReader where ReadingTransaction == ReadTransaction {
    /// Runs `body` in a read transaction on the caller's thread and returns its result.
    ///
    /// Call it as `read { tx in … }`: ``read(label:fileID:line:_:)`` fills in `origin`.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails or the call is nested in
    ///   a transaction of the same place on the same thread (``TroveError/Code/misuse``).
    func read<T>(from origin: TransactionOrigin, _ body: (ReadTransaction) throws -> T) throws -> T
}

extension DatabaseReader {
    /// Runs `body` in a read transaction on the caller's thread, one consistent snapshot, and
    /// returns its result.
    ///
    /// ```swift
    /// let count = try db.read { tx in try tx.count(of: User.self) }
    /// ```
    ///
    /// - Parameters:
    ///   - label: A name for the transaction, shown while it runs or waits.
    ///   - fileID: Where the transaction was started (the caller's, by default).
    ///   - line: The line where it was started (the caller's, by default).
    ///   - body: The reads to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func read<T>(
        label: String? = nil, fileID: String = #fileID, line: Int = #line, _ body: (ReadTransaction) throws -> T
    ) throws -> T {
        try read(from: TransactionOrigin(label: label, fileID: fileID, line: line), body)
    }
}
