/// Something that runs read-write transactions, on any engine (see ``AsyncDatabaseReader``).
///
/// ```swift
/// func signUp(_ db: some AsyncDatabaseWriter, _ user: User) async throws {
///     try await db.write(user)                                     // one call, one transaction
///     try await db.write { tx in try await tx.write(user.welcomeNote) }   // or several in one
/// }
/// ```
public protocol AsyncDatabaseWriter: AsyncDatabaseReader {
    /// The transaction that write bodies receive.
    associatedtype WritingTransaction: TransactionWriting

    /// Runs `body` in a read-write transaction and commits it, or rolls it back if `body` throws.
    ///
    /// Call it as `write { tx in … }`: ``write(label:fileID:line:_:)`` fills in `origin`. One
    /// writer at a time; on a server, a body whose transaction conflicts with another's runs again.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body` (nothing is then written); ``TroveError`` when the engine
    ///   fails; `CancellationError` when the task is cancelled before the transaction begins.
    func write<T: Sendable>(from origin: TransactionOrigin, _ body: sending (WritingTransaction) async throws -> T)
        async throws -> T
}

extension AsyncDatabaseWriter {
    /// Runs `body` in a read-write transaction and commits it, or rolls it back if `body` throws.
    ///
    /// ```swift
    /// try await db.write { tx in
    ///     try await tx.write(user)
    ///     try await tx.remove(Session.self, key: oldSession)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - label: A name for the transaction, shown while it runs or waits.
    ///   - fileID: Where the transaction was started (the caller's, by default).
    ///   - line: The line where it was started (the caller's, by default).
    ///   - body: The reads and writes to run.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body` (nothing is then written), or what the engine throws.
    @inlinable
    public func write<T: Sendable>(
        label: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: sending (WritingTransaction) async throws -> T
    ) async throws -> T {
        try await write(from: TransactionOrigin(label: label, fileID: fileID, line: line), body)
    }
}
