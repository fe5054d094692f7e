/// The clauses of a query of a ``SecondaryIndex``: conditions (all must hold), orderings, limit
/// and offset.
struct IndexQueryClauses<Item: Persistable>: Sendable {
    var conditions: [IndexCondition<Item>] = []
    var orderings: [IndexOrder<Item>] = []
    var limit: Int?
    var offset = 0
}

/// A query of a ``SecondaryIndex`` in a read transaction: which items, in what order, how many,
/// returned as items, keys, the first item or a count.
///
/// ```swift
/// let page = try usersByAge.query(tx)
///     .filter(.column("age", in: 18..<30), .column("city", equals: "Paris"))
///     .sorted(by: .column("age", .descending))
///     .limit(20, offset: 40)
///     .items()
/// ```
///
/// Conditions combine with AND. Without an ordering, items come in key order; with one, items
/// with equal values come in key order. Items come through the connection's cache like any
/// other read.
///
/// - Important: A query is valid only inside the closure of its transaction.
public struct IndexQuery<Item: Persistable> {
    let index: SecondaryIndex<Item>
    let transaction: ReadTransaction
    var clauses = IndexQueryClauses<Item>()

    init(index: SecondaryIndex<Item>, transaction: ReadTransaction) {
        self.index = index
        self.transaction = transaction
    }

    /// The query with `conditions` added: every one must hold.
    ///
    /// - Parameter conditions: Conditions on columns of the index.
    /// - Returns: The narrowed query.
    public func filter(_ conditions: IndexCondition<Item>...) -> Self {
        var copy = self
        copy.clauses.conditions += conditions
        return copy
    }

    /// The query with its results ordered by `orderings`, the first deciding first, then by key.
    ///
    /// - Parameter orderings: Orderings by columns of the index.
    /// - Returns: The ordered query.
    public func sorted(by orderings: IndexOrder<Item>...) -> Self {
        var copy = self
        copy.clauses.orderings += orderings
        return copy
    }

    /// The query with its results ordered by `ordering` in `direction`, then by key.
    ///
    /// ```swift
    /// User.query(tx).sorted(by: .age, .descending)
    /// ```
    ///
    /// - Parameters:
    ///   - ordering: An ordering by a column of the index.
    ///   - direction: The direction, which replaces the ordering's own.
    /// - Returns: The ordered query.
    public func sorted(by ordering: IndexOrder<Item>, _ direction: SortDirection) -> Self {
        sorted(by: .column(ordering.column, direction))
    }

    /// The query with at most `limit` results, after skipping `offset`.
    ///
    /// - Parameters:
    ///   - limit: The most results (at least 0).
    ///   - offset: The results to skip first (default 0).
    /// - Returns: The limited query.
    public func limit(_ limit: Int, offset: Int = 0) -> Self {
        var copy = self
        copy.clauses.limit = max(0, limit)
        copy.clauses.offset = max(0, offset)
        return copy
    }

    /// The matching items, decoded (or taken from the connection's cache).
    ///
    /// - Returns: The items, in the query's order.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/extensionFailed`` when the index is
    ///   not registered, is stale or has no such column, a decoding error, or an SQLite error.
    public func items() throws -> [Item] {
        try IndexQueryRunner(index: index, clauses: clauses).items(in: transaction)
    }

    /// The first matching item, or `nil`.
    ///
    /// - Returns: The first item in the query's order.
    /// - Throws: What ``items()`` throws.
    public func first() throws -> Item? {
        try limit(min(clauses.limit ?? 1, 1), offset: clauses.offset).items().first
    }

    /// The keys of the matching items, without decoding anything.
    ///
    /// - Returns: The keys, in the query's order.
    /// - Throws: What ``items()`` throws, and ``TroveError/Code/invalidKey`` for a stored key
    ///   that is not an `Item.ID`.
    public func keys() throws -> [Item.ID] {
        try IndexQueryRunner(index: index, clauses: clauses).keys(in: transaction)
    }

    /// The number of matching items (after limit and offset, when given).
    ///
    /// - Returns: The count.
    /// - Throws: What ``items()`` throws.
    public func count() throws -> Int {
        try IndexQueryRunner(index: index, clauses: clauses).count(in: transaction)
    }
}

// Explicit non-conformance to Sendable: a query holds its transaction.
@available(*, unavailable)
extension IndexQuery: Sendable {}

/// A query of a ``SecondaryIndex`` bound to a connection: each result runs it in a read
/// transaction of its own, synchronously or `async`.
///
/// ```swift
/// let count = try await usersByAge.query(connection).filter(.column("age", in: 18...)).count()
/// ```
public struct ConnectionIndexQuery<Item: Persistable>: Sendable {
    let index: SecondaryIndex<Item>
    let connection: Connection
    var clauses = IndexQueryClauses<Item>()

    init(index: SecondaryIndex<Item>, connection: Connection) {
        self.index = index
        self.connection = connection
    }

    /// The query with `conditions` added (see ``IndexQuery/filter(_:)``).
    public func filter(_ conditions: IndexCondition<Item>...) -> Self {
        var copy = self
        copy.clauses.conditions += conditions
        return copy
    }

    /// The query ordered by `orderings` (see ``IndexQuery/sorted(by:)``).
    public func sorted(by orderings: IndexOrder<Item>...) -> Self {
        var copy = self
        copy.clauses.orderings += orderings
        return copy
    }

    /// The query ordered by `ordering` in `direction` (see ``IndexQuery/sorted(by:_:)``).
    public func sorted(by ordering: IndexOrder<Item>, _ direction: SortDirection) -> Self {
        sorted(by: .column(ordering.column, direction))
    }

    /// The query limited (see ``IndexQuery/limit(_:offset:)``).
    public func limit(_ limit: Int, offset: Int = 0) -> Self {
        var copy = self
        copy.clauses.limit = max(0, limit)
        copy.clauses.offset = max(0, offset)
        return copy
    }

    private var runner: IndexQueryRunner<Item> { IndexQueryRunner(index: index, clauses: clauses) }

    /// The matching items (see ``IndexQuery/items()``), in a read transaction.
    @_disfavoredOverload
    public func items() throws -> [Item] {
        let runner = runner
        return try connection.read { try runner.items(in: $0) }
    }

    /// The matching items, in a read transaction on the connection's queue.
    public func items() async throws -> [Item] {
        let runner = runner
        return try await connection.read { try runner.items(in: $0) }
    }

    /// The first matching item (see ``IndexQuery/first()``), in a read transaction.
    @_disfavoredOverload
    public func first() throws -> Item? {
        try limit(min(clauses.limit ?? 1, 1), offset: clauses.offset).items().first
    }

    /// The first matching item, in a read transaction on the connection's queue.
    public func first() async throws -> Item? {
        try await limit(min(clauses.limit ?? 1, 1), offset: clauses.offset).items().first
    }

    /// The keys of the matching items (see ``IndexQuery/keys()``), in a read transaction.
    @_disfavoredOverload
    public func keys() throws -> [Item.ID] {
        let runner = runner
        return try connection.read { try runner.keys(in: $0) }
    }

    /// The keys of the matching items, in a read transaction on the connection's queue.
    public func keys() async throws -> [Item.ID] {
        let runner = runner
        return try await connection.read { try runner.keys(in: $0) }
    }

    /// The number of matching items (see ``IndexQuery/count()``), in a read transaction.
    @_disfavoredOverload
    public func count() throws -> Int {
        let runner = runner
        return try connection.read { try runner.count(in: $0) }
    }

    /// The number of matching items, in a read transaction on the connection's queue.
    public func count() async throws -> Int {
        let runner = runner
        return try await connection.read { try runner.count(in: $0) }
    }
}

/// Runs the clauses of a query: builds its SQL and reads the results.
struct IndexQueryRunner<Item: Persistable>: Sendable {
    let index: SecondaryIndex<Item>
    let clauses: IndexQueryClauses<Item>

    func items(in transaction: ReadTransaction) throws -> [Item] {
        var items: [Item] = []
        try run(select: "t.key, t.data, t.metadata", in: transaction) { statement in
            let key = statement.string(at: 0)
            let cacheKey = CacheKey(collection: Item.collection, key: key)
            // Cast only what the cache has: this code is not specialized for `Item`, and casting
            // a miss (`nil` as `Any?`) to `Item` cost a dynamic cast and the metadata of `Item?`.
            if let entry = transaction.cachedItem(at: cacheKey), let cached = entry as? Item {
                items.append(cached)
                return
            }
            var item: Item
            do {
                item = try transaction.decodeStored(Item.Coder.self, from: statement.bytes(at: 1), collection: Item.collection)
            } catch {
                throw TroveError.coderFailure(error, decoding: true, collection: Item.collection, key: key, field: nil)
            }
            if Item.Metadata.self != NoMetadata.self && !statement.isNull(at: 2) {
                do {
                    item.metadata = try transaction.decodeStored(
                        Item.MetadataCoder.self, from: statement.bytes(at: 2), collection: Item.collection)
                } catch {
                    throw TroveError.coderFailure(
                        error, decoding: true, collection: Item.collection, key: key, field: "metadata")
                }
            }
            transaction.cacheItem(item, at: cacheKey)
            items.append(item)
        }
        return items
    }

    func keys(in transaction: ReadTransaction) throws -> [Item.ID] {
        var keys: [Item.ID] = []
        try run(select: "t.key", in: transaction) { statement in
            let key = statement.string(at: 0)
            guard let id = Item.ID(itemKey: key) else {
                throw TroveError(
                    code: .invalidKey, message: "The stored key is not a valid \(Item.ID.self).",
                    collection: Item.collection, key: key)
            }
            keys.append(id)
        }
        return keys
    }

    func count(in transaction: ReadTransaction) throws -> Int {
        var count = 0
        try run(select: nil, in: transaction) { count = Int($0.int64(at: 0)) }
        return count
    }

    /// Runs the query, selecting `select` from the joined rows (`i`: the index, `t`: the items),
    /// or counting them when `select` is `nil`, and calls `row` with each result.
    private func run(select: String?, in transaction: ReadTransaction, row: (Statement) throws -> Void) throws {
        let core = transaction.checkedCore
        // The index's collection as a whole: any change to it may change the query's result.
        transaction.recorder?.recordIndex(index.name, of: Item.collection)
        let implementation = index.implementation
        try core.database.checkQueryable(index.name, fingerprint: implementation.fingerprint)
        let table = "\"\(implementation.table)\""
        var parameters: [IndexValue] = []
        var predicates: [String] = []
        var hasList = false
        for condition in clauses.conditions {
            let column = "i.\"\(try checkedColumn(condition.column))\""
            switch condition.predicate {
            case .equals(let value):
                parameters.append(value)
                predicates.append("\(column) = ?\(parameters.count)")
            case .oneOf(let values):
                hasList = true
                guard !values.isEmpty else {
                    predicates.append("0")
                    continue
                }
                var placeholders: [String] = []
                for value in values {
                    parameters.append(value)
                    placeholders.append("?\(parameters.count)")
                }
                predicates.append("\(column) IN (\(placeholders.joined(separator: ", ")))")
            case .range(let lower, let lowerIncluded, let upper, let upperIncluded):
                if let lower {
                    parameters.append(lower)
                    predicates.append("\(column) \(lowerIncluded ? ">=" : ">") ?\(parameters.count)")
                }
                if let upper {
                    parameters.append(upper)
                    predicates.append("\(column) \(upperIncluded ? "<=" : "<") ?\(parameters.count)")
                }
                if lower == nil && upper == nil {
                    predicates.append("\(column) IS NOT NULL")
                }
            case .isNull:
                predicates.append("\(column) IS NULL")
            case .isNotNull:
                predicates.append("\(column) IS NOT NULL")
            }
        }
        let whereClause = predicates.isEmpty ? "" : " WHERE " + predicates.joined(separator: " AND ")
        var orderClause = " ORDER BY "
        for ordering in clauses.orderings {
            orderClause += "i.\"\(try checkedColumn(ordering.column))\"\(ordering.direction == .descending ? " DESC" : ""), "
        }
        orderClause += "t.key"
        let limitClause =
            clauses.limit == nil && clauses.offset == 0
            ? "" : " LIMIT \(clauses.limit.map(String.init) ?? "-1") OFFSET \(clauses.offset)"
        let from = " FROM \(table) AS i JOIN trove_items AS t ON t.rowid = i.rowid"
        let sql: String
        if let select {
            sql = "SELECT \(select)\(from)\(whereClause)\(orderClause)\(limitClause)"
        } else if limitClause.isEmpty {
            sql = "SELECT count(*) FROM \(table) AS i\(whereClause)"
        } else {
            sql = "SELECT count(*) FROM (SELECT 1\(from)\(whereClause)\(orderClause)\(limitClause))"
        }
        // A statement per shape is kept, but not one per length of an IN list.
        let statement = try hasList ? core.sqlite.makeStatement(sql) : core.sqlite.cachedStatement(sql)
        defer { statement.reset() }
        for (offset, value) in parameters.enumerated() {
            try statement.bind(value, at: Int32(offset + 1))
        }
        while try statement.step() {
            try row(statement)
        }
    }

    private func checkedColumn(_ name: String) throws -> String {
        guard index.columns.contains(where: { $0.name == name }) else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The index '\(index.name)' has no column '\(name)'; its columns are \(index.columns.map { "'\($0.name)'" }.joined(separator: ", ")).",
                field: name, extensionName: index.name)
        }
        return name
    }
}
