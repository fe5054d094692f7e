/// A query of a ``SecondaryIndex`` on the database's own readers: each result runs it in a read
/// transaction of its own, synchronously or `async` (``ConnectionIndexQuery`` for ``Database``).
///
/// ```swift
/// let adults = try await User.index.query(database).filter(.age(18...)).count()
/// ```
public struct DatabaseIndexQuery<Item: Persistable>: Sendable {
    @usableFromInline let index: SecondaryIndex<Item>
    @usableFromInline let database: Database
    @usableFromInline var clauses = IndexQueryClauses()

    init(index: SecondaryIndex<Item>, database: Database) {
        self.index = index
        self.database = database
    }

    /// The query with `conditions` added (see ``IndexQuery/filter(_:)``).
    @inlinable
    public func filter(_ conditions: IndexCondition<Item>...) -> Self {
        var copy = self
        copy.clauses.add(conditions)
        return copy
    }

    /// The query ordered by `orderings` (see ``IndexQuery/sorted(by:)``).
    @inlinable
    public func sorted(by orderings: IndexOrder<Item>...) -> Self {
        var copy = self
        copy.clauses.add(orderings)
        return copy
    }

    /// The query ordered by `ordering` in `direction` (see ``IndexQuery/sorted(by:_:)``).
    @inlinable
    public func sorted(by ordering: IndexOrder<Item>, _ direction: SortDirection) -> Self {
        sorted(by: .column(ordering.column, direction))
    }

    /// The query limited (see ``IndexQuery/limit(_:offset:)``).
    @inlinable
    public func limit(_ limit: Int, offset: Int = 0) -> Self {
        var copy = self
        copy.clauses.setLimit(limit, offset: offset)
        return copy
    }

    /// The matching items (see ``IndexQuery/items()``), in a read transaction.
    @_disfavoredOverload
    @inlinable
    public func items() throws -> [Item] {
        let (index, clauses) = (index, clauses)
        return try database.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).items() }
    }

    /// The matching items, in a read transaction on a reader, without blocking the caller's thread.
    @inlinable
    public func items() async throws -> [Item] {
        let (index, clauses) = (index, clauses)
        return try await database.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).items() }
    }

    /// The first matching item (see ``IndexQuery/first()``), in a read transaction.
    @_disfavoredOverload
    @inlinable
    public func first() throws -> Item? {
        let (index, clauses) = (index, clauses.first)
        return try database.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).items().first }
    }

    /// The first matching item, in a read transaction on a reader, without blocking the
    /// caller's thread.
    @inlinable
    public func first() async throws -> Item? {
        let (index, clauses) = (index, clauses.first)
        return try await database.read {
            try IndexQuery(index: index, transaction: $0, clauses: clauses).items().first
        }
    }

    /// The keys of the matching items (see ``IndexQuery/keys()``), in a read transaction.
    @_disfavoredOverload
    @inlinable
    public func keys() throws -> [Item.ID] {
        let (index, clauses) = (index, clauses)
        return try database.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).keys() }
    }

    /// The keys of the matching items, in a read transaction on a reader, without blocking the
    /// caller's thread.
    @inlinable
    public func keys() async throws -> [Item.ID] {
        let (index, clauses) = (index, clauses)
        return try await database.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).keys() }
    }

    /// The number of matching items (see ``IndexQuery/count()``), in a read transaction.
    @_disfavoredOverload
    @inlinable
    public func count() throws -> Int {
        let (planner, clauses) = (index.planner, clauses)
        return try database.read { try planner.count(clauses, in: $0) }
    }

    /// The number of matching items, in a read transaction on a reader, without blocking the
    /// caller's thread.
    @inlinable
    public func count() async throws -> Int {
        let (planner, clauses) = (index.planner, clauses)
        return try await database.read { try planner.count(clauses, in: $0) }
    }
}

extension SecondaryIndex {
    /// A query of this index that runs on the database's own readers, one read transaction per
    /// result.
    ///
    /// - Parameter database: The database to read.
    /// - Returns: The query.
    public func query(_ database: Database) -> DatabaseIndexQuery<Item> {
        DatabaseIndexQuery(index: self, database: database)
    }
}
