/// A query of items as a value: an index query, a full-text search, a traversal of
/// relationships. It is built without a database, and only its terminal names where it runs:
///
/// | where | items | the first | keys | how many |
/// | --- | --- | --- | --- | --- |
/// | a SQLite transaction | `items(tx)` | `first(tx)` | `keys(tx)` | `count(tx)` |
/// | any engine's transaction | `try await items(tx)` | `first(tx)` | `keys(tx)` | `count(tx)` |
/// | a SQLite place, one read transaction | `items(in: db)` | `first(in: db)` | `keys(in: db)` | `count(in: db)` |
/// | any place, one read transaction | `try await items(in: db)` | … | … | … |
///
/// ```swift
/// let query = User.query.filter(.city("Paris")).sorted(by: .age).limit(20)
/// let parisians = try await query.items(in: database)   // a Database, a Connection, a PostgresStore
/// try database.read { tx in try query.count(tx) }        // inside a transaction, with other reads
/// ```
///
/// The terminals are written once, here, for every query type and every place.
public protocol ItemQuery<Item>: Sendable {
    /// The type of the items the query returns.
    associatedtype Item: Persistable

    /// What the query selects, for the engine that runs it.
    /// Apps use the terminals below instead; ``QueryPlan`` has nothing to call.
    var plan: QueryPlan<Item> { get }
}

extension ItemQuery {
    // MARK: In a SQLite transaction

    /// The items, in the query's order, read in `transaction`.
    ///
    /// - Parameter transaction: A read (or read-write) transaction of a SQLite database.
    /// - Returns: The items.
    /// - Throws: ``TroveError``: ``TroveError/Code/extensionFailed`` when the query's extension is
    ///   not registered, is stale or has no such column or edge; a decoding error; SQLite's.
    @inlinable
    public func items(_ transaction: ReadTransaction) throws -> [Item] {
        try transaction.planItems(plan)
    }

    /// The first item, in the query's order, or `nil` when none matches.
    ///
    /// - Parameter transaction: A read (or read-write) transaction of a SQLite database.
    /// - Returns: The first item, or `nil`.
    /// - Throws: What ``items(_:)-(ReadTransaction)`` throws.
    @inlinable
    public func first(_ transaction: ReadTransaction) throws -> Item? {
        try transaction.planItems(plan.first).first
    }

    /// The keys of the items, in the query's order, without decoding the items.
    ///
    /// - Parameter transaction: A read (or read-write) transaction of a SQLite database.
    /// - Returns: The keys.
    /// - Throws: What ``items(_:)-(ReadTransaction)`` throws, and ``TroveError/Code/invalidKey``
    ///   for a stored key that is not an `Item.ID`.
    @inlinable
    public func keys(_ transaction: ReadTransaction) throws -> [Item.ID] {
        try transaction.planKeys(plan)
    }

    /// The number of items the query returns (after its limit and offset, when it has them).
    ///
    /// - Parameter transaction: A read (or read-write) transaction of a SQLite database.
    /// - Returns: The count.
    /// - Throws: What ``items(_:)-(ReadTransaction)`` throws.
    @inlinable
    public func count(_ transaction: ReadTransaction) throws -> Int {
        try transaction.planCount(plan)
    }

    // MARK: In any engine's transaction

    /// The items, in the query's order, read in `transaction` of any engine.
    ///
    /// - Parameter transaction: A transaction of a SQLite database or of a PostgreSQL store.
    /// - Returns: The items.
    /// - Throws: What the engine throws; an engine that cannot run this kind of query refuses it
    ///   with ``TroveError/Code/misuse`` naming it.
    public func items(_ transaction: some TransactionReading) async throws -> [Item] {
        try await transaction.items(matching: plan)
    }

    /// The first item, in the query's order, or `nil`, read in `transaction` of any engine.
    ///
    /// - Parameter transaction: A transaction of a SQLite database or of a PostgreSQL store.
    /// - Returns: The first item, or `nil`.
    /// - Throws: What ``items(_:)-(TransactionReading)`` throws.
    public func first(_ transaction: some TransactionReading) async throws -> Item? {
        try await transaction.items(matching: plan.first).first
    }

    /// The keys of the items, in the query's order, read in `transaction` of any engine.
    ///
    /// - Parameter transaction: A transaction of a SQLite database or of a PostgreSQL store.
    /// - Returns: The keys.
    /// - Throws: What ``items(_:)-(TransactionReading)`` throws.
    public func keys(_ transaction: some TransactionReading) async throws -> [Item.ID] {
        try await transaction.keys(matching: plan)
    }

    /// The number of items the query returns, counted in `transaction` of any engine.
    ///
    /// - Parameter transaction: A transaction of a SQLite database or of a PostgreSQL store.
    /// - Returns: The count.
    /// - Throws: What ``items(_:)-(TransactionReading)`` throws.
    public func count(_ transaction: some TransactionReading) async throws -> Int {
        try await transaction.count(matching: plan)
    }

    // MARK: On a SQLite place, synchronously

    /// The items, in the query's order, in one read transaction of `database` on the caller's
    /// thread.
    ///
    /// - Parameter database: A ``Database`` or a ``Connection``.
    /// - Returns: The items.
    /// - Throws: What ``items(_:)-(ReadTransaction)`` throws.
    @inlinable
    @_disfavoredOverload
    public func items(in database: some DatabaseReader) throws -> [Item] {
        try database.read { try items($0) }
    }

    /// The first item, in the query's order, or `nil`, in one read transaction of `database`.
    ///
    /// - Parameter database: A ``Database`` or a ``Connection``.
    /// - Returns: The first item, or `nil`.
    /// - Throws: What ``items(_:)-(ReadTransaction)`` throws.
    @inlinable
    @_disfavoredOverload
    public func first(in database: some DatabaseReader) throws -> Item? {
        try database.read { try first($0) }
    }

    /// The keys of the items, in one read transaction of `database`.
    ///
    /// - Parameter database: A ``Database`` or a ``Connection``.
    /// - Returns: The keys.
    /// - Throws: What ``keys(_:)-(ReadTransaction)`` throws.
    @inlinable
    @_disfavoredOverload
    public func keys(in database: some DatabaseReader) throws -> [Item.ID] {
        try database.read { try keys($0) }
    }

    /// The number of items the query returns, in one read transaction of `database`.
    ///
    /// - Parameter database: A ``Database`` or a ``Connection``.
    /// - Returns: The count.
    /// - Throws: What ``items(_:)-(ReadTransaction)`` throws.
    @inlinable
    @_disfavoredOverload
    public func count(in database: some DatabaseReader) throws -> Int {
        try database.read { try count($0) }
    }

    // MARK: On any place

    /// The items, in the query's order, in one read transaction of `database`, any engine's.
    ///
    /// - Parameter database: A ``Database``, a ``Connection``, or a PostgreSQL store.
    /// - Returns: The items.
    /// - Throws: What ``ItemQuery/items(_:)-(TransactionReading)`` throws, and `CancellationError` when the
    ///   task is cancelled before the transaction begins.
    public func items(in database: some AsyncDatabaseReader) async throws -> [Item] {
        try await database.read { tx in try await items(tx) }
    }

    /// The first item, in the query's order, or `nil`, in one read transaction of `database`.
    ///
    /// - Parameter database: A ``Database``, a ``Connection``, or a PostgreSQL store.
    /// - Returns: The first item, or `nil`.
    /// - Throws: What ``items(in:)-(AsyncDatabaseReader)`` throws.
    public func first(in database: some AsyncDatabaseReader) async throws -> Item? {
        try await database.read { tx in try await first(tx) }
    }

    /// The keys of the items, in one read transaction of `database`.
    ///
    /// - Parameter database: A ``Database``, a ``Connection``, or a PostgreSQL store.
    /// - Returns: The keys.
    /// - Throws: What ``items(in:)-(AsyncDatabaseReader)`` throws.
    public func keys(in database: some AsyncDatabaseReader) async throws -> [Item.ID] {
        try await database.read { tx in try await keys(tx) }
    }

    /// The number of items the query returns, in one read transaction of `database`.
    ///
    /// - Parameter database: A ``Database``, a ``Connection``, or a PostgreSQL store.
    /// - Returns: The count.
    /// - Throws: What ``items(in:)-(AsyncDatabaseReader)`` throws.
    public func count(in database: some AsyncDatabaseReader) async throws -> Int {
        try await database.read { tx in try await count(tx) }
    }
}
