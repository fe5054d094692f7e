/// Something that runs read transactions, on any engine: a SQLite ``Database`` or
/// ``Connection``, or TrovePostgres's store.
///
/// Code written against this protocol runs unchanged on either engine: the transaction it
/// receives is a ``TransactionReading``, and every convenience (``read(_:key:)``, ``count(of:)``,
/// the terminals of queries) is written once, in extensions of this protocol.
///
/// ```swift
/// func adults(_ db: some AsyncDatabaseReader) async throws -> [User] {
///     try await User.query.filter(.age(18...)).sorted(by: .age).items(in: db)
/// }
/// ```
///
/// The body of a transaction may suspend (on a server, every read does). On SQLite it runs in
/// the calling task, holding a connection of the database, so keep it short: it holds a
/// snapshot (a reader) or the database's only writer for as long as it runs.
public protocol AsyncDatabaseReader: Sendable {
    /// The transaction that read bodies receive.
    associatedtype ReadingTransaction: TransactionReading

    /// Runs `body` in a read transaction, one consistent snapshot, and returns its result.
    ///
    /// Call it as `read { tx in … }`: ``read(label:fileID:line:_:)`` fills in `origin`.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`; ``TroveError`` when the engine fails; `CancellationError`
    ///   when the task is cancelled before the transaction begins.
    func read<T: Sendable>(from origin: TransactionOrigin, _ body: sending (ReadingTransaction) async throws -> T)
        async throws -> T
}

extension AsyncDatabaseReader {
    /// Runs `body` in a read transaction, one consistent snapshot, and returns its result.
    ///
    /// ```swift
    /// let (user, posts) = try await db.read { tx in
    ///     (try await tx.read(User.self, key: id), try await tx.count(of: Post.self))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - label: A name for the transaction, shown while it runs or waits.
    ///   - fileID: Where the transaction was started (the caller's, by default).
    ///   - line: The line where it was started (the caller's, by default).
    ///   - body: The reads to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`, or what the engine throws.
    @inlinable
    public func read<T: Sendable>(
        label: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: sending (ReadingTransaction) async throws -> T
    ) async throws -> T {
        try await read(from: TransactionOrigin(label: label, fileID: fileID, line: line), body)
    }
}
