import Synchronization

/// The clauses of a query of a ``SecondaryIndex``: conditions (all must hold), orderings, limit
/// and offset. Not generic: the SQL is built from them once, for every item type, in
/// ``IndexQueryPlanner``.
@usableFromInline
struct IndexQueryClauses: Sendable {
    /// A condition on a column (an ``IndexCondition`` without its item type).
    @usableFromInline
    struct Condition: Sendable, Hashable {
        @usableFromInline let column: String
        @usableFromInline let predicate: IndexPredicate

        @inlinable
        init(column: String, predicate: IndexPredicate) {
            self.column = column
            self.predicate = predicate
        }
    }

    /// An ordering by a column (an ``IndexOrder`` without its item type).
    @usableFromInline
    struct Ordering: Sendable, Hashable {
        @usableFromInline let column: String
        @usableFromInline let descending: Bool

        @inlinable
        init(column: String, descending: Bool) {
            self.column = column
            self.descending = descending
        }
    }

    @usableFromInline var conditions: [Condition]
    @usableFromInline var orderings: [Ordering]
    @usableFromInline var limit: Int?
    @usableFromInline var offset: Int

    @inlinable
    init() {
        conditions = []
        orderings = []
        limit = nil
        offset = 0
    }

    @inlinable
    mutating func add<Item>(_ conditions: [IndexCondition<Item>]) {
        for condition in conditions {
            self.conditions.append(Condition(column: condition.column, predicate: condition.predicate))
        }
    }

    @inlinable
    mutating func add<Item>(_ orderings: [IndexOrder<Item>]) {
        for ordering in orderings {
            self.orderings.append(Ordering(column: ordering.column, descending: ordering.direction == .descending))
        }
    }

    @inlinable
    mutating func setLimit(_ limit: Int, offset: Int) {
        self.limit = max(0, limit)
        self.offset = max(0, offset)
    }

    /// The clauses of the first result: at most one, after the same offset.
    @inlinable
    var first: Self {
        var copy = self
        copy.setLimit(min(limit ?? 1, 1), offset: offset)
        return copy
    }
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
/// with equal values come in key order. Key order is by value for an integer key type (-1
/// before 9 before 10), and by the stored text, byte by byte, for the others (`String`, `UUID`,
/// any `LosslessStringConvertible`). Items come through the connection's cache like any other
/// read.
///
/// - Important: A query is valid only inside the closure of its transaction.
public struct IndexQuery<Item: Persistable> {
    // The results are `@inlinable`, so that the loop over the rows is specialized for `Item` in
    // the caller's module (as the typed reads are); the SQL is built and run by the non-generic
    // `IndexQueryPlanner`.
    @usableFromInline let index: SecondaryIndex<Item>
    @usableFromInline let transaction: ReadTransaction
    @usableFromInline var clauses: IndexQueryClauses

    @inlinable
    init(index: SecondaryIndex<Item>, transaction: ReadTransaction, clauses: IndexQueryClauses = IndexQueryClauses()) {
        self.index = index
        self.transaction = transaction
        self.clauses = clauses
    }

    /// The query with `conditions` added: every one must hold.
    ///
    /// - Parameter conditions: Conditions on columns of the index.
    /// - Returns: The narrowed query.
    @inlinable
    public func filter(_ conditions: IndexCondition<Item>...) -> Self {
        var copy = self
        copy.clauses.add(conditions)
        return copy
    }

    /// The query with its results ordered by `orderings`, the first deciding first, then by key
    /// (by value for an integer key type, by text for the others).
    ///
    /// - Parameter orderings: Orderings by columns of the index.
    /// - Returns: The ordered query.
    @inlinable
    public func sorted(by orderings: IndexOrder<Item>...) -> Self {
        var copy = self
        copy.clauses.add(orderings)
        return copy
    }

    /// The query with its results ordered by `ordering` in `direction`, then by key (by value
    /// for an integer key type, by text for the others).
    ///
    /// ```swift
    /// User.query(tx).sorted(by: .age, .descending)
    /// ```
    ///
    /// - Parameters:
    ///   - ordering: An ordering by a column of the index.
    ///   - direction: The direction, which replaces the ordering's own.
    /// - Returns: The ordered query.
    @inlinable
    public func sorted(by ordering: IndexOrder<Item>, _ direction: SortDirection) -> Self {
        sorted(by: .column(ordering.column, direction))
    }

    /// The query with at most `limit` results, after skipping `offset`.
    ///
    /// - Parameters:
    ///   - limit: The most results (at least 0).
    ///   - offset: The results to skip first (default 0).
    /// - Returns: The limited query.
    @inlinable
    public func limit(_ limit: Int, offset: Int = 0) -> Self {
        var copy = self
        copy.clauses.setLimit(limit, offset: offset)
        return copy
    }

    /// The matching items, decoded (or taken from the connection's cache).
    ///
    /// - Returns: The items, in the query's order.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/extensionFailed`` when the index is
    ///   not registered, is stale or has no such column, a decoding error, or an SQLite error.
    @inlinable
    public func items() throws -> [Item] {
        let transaction = transaction
        var items: [Item] = []
        try index.planner.readItemRows(
            clauses, in: transaction, collection: Item.collection,
            withMetadata: Item.Metadata.self != NoMetadata.self,
            cached: { cacheKey in
                guard let cached = transaction.cachedItem(at: cacheKey) as? Item else { return false }
                items.append(cached)
                return true
            },
            decodeData: {
                items.append(try transaction.decodeStored(Item.Coder.self, from: $0, collection: Item.collection))
            },
            decodeMetadata: {
                items[items.count - 1].metadata = try transaction.decodeStored(
                    Item.MetadataCoder.self, from: $0, collection: Item.collection)
            },
            decoded: { cacheKey in transaction.cacheItem(items[items.count - 1], at: cacheKey) })
        return items
    }

    /// The first matching item, or `nil`.
    ///
    /// - Returns: The first item in the query's order.
    /// - Throws: What ``items()`` throws.
    @inlinable
    public func first() throws -> Item? {
        try IndexQuery(index: index, transaction: transaction, clauses: clauses.first).items().first
    }

    /// The keys of the matching items, without decoding anything.
    ///
    /// - Returns: The keys, in the query's order.
    /// - Throws: What ``items()`` throws, and ``TroveError/Code/invalidKey`` for a stored key
    ///   that is not an `Item.ID`.
    @inlinable
    public func keys() throws -> [Item.ID] {
        var keys: [Item.ID] = []
        try index.planner.readKeys(clauses, in: transaction) { key in
            guard let id = Item.ID(itemKey: key) else {
                throw TroveError(
                    code: .invalidKey, message: "The stored key is not a valid \(Item.ID.self).",
                    collection: Item.collection, key: key)
            }
            keys.append(id)
        }
        return keys
    }

    /// The number of matching items (after limit and offset, when given).
    ///
    /// - Returns: The count.
    /// - Throws: What ``items()`` throws.
    @inlinable
    public func count() throws -> Int {
        try index.planner.count(clauses, in: transaction)
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
    @usableFromInline let index: SecondaryIndex<Item>
    @usableFromInline let connection: Connection
    @usableFromInline var clauses = IndexQueryClauses()

    init(index: SecondaryIndex<Item>, connection: Connection) {
        self.index = index
        self.connection = connection
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
        return try connection.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).items() }
    }

    /// The matching items, in a read transaction on the connection's queue.
    @inlinable
    public func items() async throws -> [Item] {
        let (index, clauses) = (index, clauses)
        return try await connection.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).items() }
    }

    /// The first matching item (see ``IndexQuery/first()``), in a read transaction.
    @_disfavoredOverload
    @inlinable
    public func first() throws -> Item? {
        let (index, clauses) = (index, clauses.first)
        return try connection.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).items().first }
    }

    /// The first matching item, in a read transaction on the connection's queue.
    @inlinable
    public func first() async throws -> Item? {
        let (index, clauses) = (index, clauses.first)
        return try await connection.read {
            try IndexQuery(index: index, transaction: $0, clauses: clauses).items().first
        }
    }

    /// The keys of the matching items (see ``IndexQuery/keys()``), in a read transaction.
    @_disfavoredOverload
    @inlinable
    public func keys() throws -> [Item.ID] {
        let (index, clauses) = (index, clauses)
        return try connection.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).keys() }
    }

    /// The keys of the matching items, in a read transaction on the connection's queue.
    @inlinable
    public func keys() async throws -> [Item.ID] {
        let (index, clauses) = (index, clauses)
        return try await connection.read { try IndexQuery(index: index, transaction: $0, clauses: clauses).keys() }
    }

    /// The number of matching items (see ``IndexQuery/count()``), in a read transaction.
    @_disfavoredOverload
    @inlinable
    public func count() throws -> Int {
        let (planner, clauses) = (index.planner, clauses)
        return try connection.read { try planner.count(clauses, in: $0) }
    }

    /// The number of matching items, in a read transaction on the connection's queue.
    @inlinable
    public func count() async throws -> Int {
        let (planner, clauses) = (index.planner, clauses)
        return try await connection.read { try planner.count(clauses, in: $0) }
    }
}

/// Builds and runs the SQL of the queries of one ``SecondaryIndex``, for every item type: the
/// non-generic half of ``IndexQuery``, which hands it closures that decode the rows.
@usableFromInline
final class IndexQueryPlanner: Sendable {
    /// What a query selects.
    enum Selection: Hashable {
        case items, keys, count
    }

    let name: String
    /// The collection of the indexed items, which a query records as read when an observation
    /// runs it.
    let collection: String
    let fingerprint: String
    let columnNames: [String]
    /// How the keys of the indexed items compare: what orders the items that the orderings
    /// find equal, and the items of a query without orderings.
    let keyOrder: ItemKeyOrder
    /// The table, quoted.
    let table: String
    /// The SQL of the queries run so far, by shape (what is selected, the columns and operators
    /// of the conditions, the orderings, whether there is a limit or offset; not the values, nor
    /// the limit and offset, which are bound), shared by every
    /// connection: building it cost more than looking it up. Queries with an `IN` list are not
    /// kept (a shape per length of the list). A list searched in order, not a dictionary: a
    /// program has few shapes, and the first use of a dictionary keyed by a new type looks its
    /// `Hashable` conformance up in the runtime's tables (about 375,000 instructions).
    private let sqlByShape = Mutex<[(shape: Shape, sql: String)]>([])
    /// The most shapes kept.
    private static let sqlCacheLimit = 64

    init(
        name: String, collection: String, table: String, fingerprint: String, columnNames: [String],
        keyOrder: ItemKeyOrder
    ) {
        self.name = name
        self.collection = collection
        self.table = "\"\(table)\""
        self.fingerprint = fingerprint
        self.columnNames = columnNames
        self.keyOrder = keyOrder
    }

    /// Runs `clauses` and reads the items of the rows in order: for each, calls `cached` with its
    /// cache key, and when it returns `false` (the item is not cached), `decodeData` with its data,
    /// `decodeMetadata` with its metadata when `withMetadata` and the column is not `NULL`, then
    /// `decoded` with its cache key.
    ///
    /// - Throws: ``TroveError`` naming the item and the field when a closure throws, the errors
    ///   of a query, or when SQLite fails.
    @usableFromInline
    func readItemRows(
        _ clauses: IndexQueryClauses, in transaction: ReadTransaction, collection: String, withMetadata: Bool,
        cached: (CacheKey) -> Bool, decodeData: (UnsafeRawBufferPointer) throws -> Void,
        decodeMetadata: (UnsafeRawBufferPointer) throws -> Void, decoded: (CacheKey) -> Void
    ) throws {
        try run(clauses, selecting: .items, in: transaction) { statement in
            let key = statement.string(at: 0)
            let cacheKey = CacheKey(collection: collection, key: key)
            if cached(cacheKey) { return }
            try transaction.decodeRow(
                of: statement, dataColumn: 1, metadataColumn: withMetadata ? 2 : nil, collection: collection,
                key: { key }, decodeData: decodeData, decodeMetadata: decodeMetadata)
            decoded(cacheKey)
        }
    }

    /// Runs `clauses` and calls `row` with the stored key of each row, in order.
    @usableFromInline
    func readKeys(_ clauses: IndexQueryClauses, in transaction: ReadTransaction, row: (String) throws -> Void)
        throws
    {
        try run(clauses, selecting: .keys, in: transaction) { try row($0.string(at: 0)) }
    }

    /// The number of rows that `clauses` select.
    @usableFromInline
    func count(_ clauses: IndexQueryClauses, in transaction: ReadTransaction) throws -> Int {
        var count = 0
        try run(clauses, selecting: .count, in: transaction) { count = Int($0.int64(at: 0)) }
        return count
    }

    /// Runs the query, selecting from the joined rows (`i`: the index, `t`: the items), or
    /// counting them, and calls `row` with each result.
    private func run(
        _ clauses: IndexQueryClauses, selecting selection: Selection, in transaction: ReadTransaction,
        row: (Statement) throws -> Void
    ) throws {
        let core = transaction.checkedCore
        // The index's collection as a whole: any change to it may change the query's result.
        transaction.recorder?.recordIndex(name, of: collection)
        try core.database.checkQueryable(name, fingerprint: fingerprint)
        let hasList = clauses.conditions.contains {
            if case .oneOf = $0.predicate { true } else { false }
        }
        let sql: String
        if hasList {
            sql = try makeSQL(clauses, selecting: selection)
        } else {
            let shape = Shape(selection: selection, clauses: clauses)
            if let cached = sqlByShape.withLock({ $0.first { $0.shape == shape }?.sql }) {
                sql = cached
            } else {
                sql = try makeSQL(clauses, selecting: selection)
                sqlByShape.withLock { cache in
                    if cache.count < Self.sqlCacheLimit { cache.append((shape, sql)) }
                }
            }
        }
        // A statement per shape is kept, but not one per length of an IN list.
        let statement = try hasList ? core.sqlite.makeStatement(sql) : core.sqlite.cachedStatement(sql)
        defer { statement.reset() }
        // The parameters in the order of `makeSQL`'s placeholders.
        var parameter: Int32 = 0
        for condition in clauses.conditions {
            switch condition.predicate {
            case .equals(let value):
                parameter += 1
                try statement.bind(value, at: parameter)
            case .oneOf(let values):
                for value in values {
                    parameter += 1
                    try statement.bind(value, at: parameter)
                }
            case .range(let lower, _, let upper, _):
                if let lower {
                    parameter += 1
                    try statement.bind(lower, at: parameter)
                }
                if let upper {
                    parameter += 1
                    try statement.bind(upper, at: parameter)
                }
            case .isNull, .isNotNull:
                break
            }
        }
        if clauses.limit != nil || clauses.offset != 0 {
            // Bound, so that each page of a query is not a statement of its own.
            try statement.bind(Int64(clauses.limit ?? -1), at: parameter + 1)
            try statement.bind(Int64(clauses.offset), at: parameter + 2)
        }
        while try statement.step() {
            try row(statement)
        }
    }

    /// The SQL of `clauses`, with a numbered placeholder for each value, in order.
    private func makeSQL(_ clauses: IndexQueryClauses, selecting selection: Selection) throws -> String {
        var parameterCount = 0
        let predicates = try predicates(of: clauses.conditions, alias: "i", parameterCount: &parameterCount)
        let whereClause = predicates.isEmpty ? "" : " WHERE " + predicates.joined(separator: " AND ")
        var orderClause = " ORDER BY "
        for ordering in clauses.orderings {
            orderClause += "i.\"\(try checkedColumn(ordering.column))\"\(ordering.descending ? " DESC" : ""), "
        }
        // Then by key (see `ItemKeyOrder`). For integer keys an expression of the key column
        // costs no more than the column: SQLite sorts the ties of an ordering by key either way
        // (a column's index gives its values' order, not their ties'), and the rows of a query
        // without orderings too.
        orderClause += keyOrder.orderingTerms(of: "t.key")
        let limitClause =
            clauses.limit == nil && clauses.offset == 0
            ? "" : " LIMIT ?\(parameterCount + 1) OFFSET ?\(parameterCount + 2)"
        let from = " FROM \(table) AS i JOIN trove_items AS t ON t.rowid = i.rowid"
        switch selection {
        case .items:
            return "SELECT t.key, t.data, t.metadata\(from)\(whereClause)\(orderClause)\(limitClause)"
        case .keys:
            return "SELECT t.key\(from)\(whereClause)\(orderClause)\(limitClause)"
        case .count where limitClause.isEmpty:
            return "SELECT count(*) FROM \(table) AS i\(whereClause)"
        case .count:
            return "SELECT count(*) FROM (SELECT 1\(from)\(whereClause)\(orderClause)\(limitClause))"
        }
    }

    /// The SQL predicates of `conditions` on the index's table named `alias`, with a numbered
    /// placeholder for each value, numbered after `parameterCount`, which counts them (the values
    /// in order are ``values(of:)``). A full-text search that filters by the index uses it too.
    func predicates(of conditions: [IndexQueryClauses.Condition], alias: String, parameterCount: inout Int) throws
        -> [String]
    {
        var predicates: [String] = []
        for condition in conditions {
            let column = "\(alias).\"\(try checkedColumn(condition.column))\""
            switch condition.predicate {
            case .equals:
                parameterCount += 1
                predicates.append("\(column) = ?\(parameterCount)")
            case .oneOf(let values):
                guard !values.isEmpty else {
                    predicates.append("0")
                    continue
                }
                var placeholders: [String] = []
                for _ in values {
                    parameterCount += 1
                    placeholders.append("?\(parameterCount)")
                }
                predicates.append("\(column) IN (\(placeholders.joined(separator: ", ")))")
            case .range(let lower, let lowerIncluded, let upper, let upperIncluded):
                if lower != nil {
                    parameterCount += 1
                    predicates.append("\(column) \(lowerIncluded ? ">=" : ">") ?\(parameterCount)")
                }
                if upper != nil {
                    parameterCount += 1
                    predicates.append("\(column) \(upperIncluded ? "<=" : "<") ?\(parameterCount)")
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
        return predicates
    }

    /// The values of `conditions`, in the order of the placeholders of ``predicates(of:alias:parameterCount:)``.
    static func values(of conditions: [IndexQueryClauses.Condition]) -> [IndexValue] {
        var values: [IndexValue] = []
        for condition in conditions {
            switch condition.predicate {
            case .equals(let value): values.append(value)
            case .oneOf(let list): values += list
            case .range(let lower, _, let upper, _):
                if let lower { values.append(lower) }
                if let upper { values.append(upper) }
            case .isNull, .isNotNull: break
            }
        }
        return values
    }

    private func checkedColumn(_ name: String) throws -> String {
        guard columnNames.contains(name) else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The index '\(self.name)' has no column '\(name)'; its columns are \(columnNames.map { "'\($0)'" }.joined(separator: ", ")).",
                field: name, extensionName: self.name)
        }
        return name
    }
}

extension IndexQueryPlanner {
    /// A query without its values: queries of the same shape have the same SQL.
    fileprivate struct Shape {
        let selection: Selection
        let clauses: IndexQueryClauses

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.selection == rhs.selection
                && (lhs.clauses.limit == nil && lhs.clauses.offset == 0)
                    == (rhs.clauses.limit == nil && rhs.clauses.offset == 0)
                && lhs.clauses.conditions.count == rhs.clauses.conditions.count
                && lhs.clauses.orderings == rhs.clauses.orderings
                && lhs.clauses.conditions.elementsEqual(rhs.clauses.conditions) {
                    $0.column == $1.column && $0.predicate.shape == $1.predicate.shape
                }
        }
    }
}

extension IndexPredicate {
    /// The operator without its values: what decides the SQL (an `IN` list also by its length,
    /// which ``IndexQueryPlanner`` does not cache).
    fileprivate var shape: Int {
        switch self {
        case .equals: 0
        case .isNull: 1
        case .isNotNull: 2
        case .oneOf(let values): -1 - values.count
        case .range(let lower, let lowerIncluded, let upper, let upperIncluded):
            16 | (lower == nil ? 0 : lowerIncluded ? 1 : 2) | (upper == nil ? 0 : upperIncluded ? 4 : 8)
        }
    }
}
