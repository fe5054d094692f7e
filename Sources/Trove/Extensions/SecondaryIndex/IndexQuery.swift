import Synchronization

/// The clauses of a query of a ``SecondaryIndex``: conditions (all must hold), orderings, limit
/// and offset. Not generic, and the same for every engine: SQLite builds its SQL from them in
/// ``IndexQueryPlanner``, TrovePostgres in its own dialect.
@usableFromInline
package struct IndexQueryClauses: Sendable, Hashable {
    /// A condition on a column (an ``IndexCondition`` without its item type).
    @usableFromInline
    package struct Condition: Sendable, Hashable {
        @usableFromInline package let column: String
        @usableFromInline package let predicate: IndexPredicate

        @inlinable
        init(column: String, predicate: IndexPredicate) {
            self.column = column
            self.predicate = predicate
        }
    }

    /// An ordering by a column (an ``IndexOrder`` without its item type).
    @usableFromInline
    package struct Ordering: Sendable, Hashable {
        @usableFromInline package let column: String
        @usableFromInline package let descending: Bool

        @inlinable
        init(column: String, descending: Bool) {
            self.column = column
            self.descending = descending
        }
    }

    @usableFromInline package var conditions: [Condition]
    @usableFromInline package var orderings: [Ordering]
    @usableFromInline package var limit: Int?
    @usableFromInline package var offset: Int

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

/// A query of a ``SecondaryIndex``, as a value: which items, in what order, how many. Built
/// without a database, run by its terminals (``ItemQuery``) where you say:
///
/// ```swift
/// let adults = User.query.filter(.age(18...)).sorted(by: .age).limit(20)
/// let page = try adults.items(in: database)            // one read transaction of any place
/// let same = try await adults.items(in: store)         // any engine, with await
/// try database.read { tx in try adults.count(tx) }     // inside a transaction
/// let ada = try await User.byEmail("ada@example.com").first(in: database)
/// ```
///
/// Conditions combine with AND. Without an ordering, items come in key order; with one, items
/// with equal values come in key order. Key order is by value for an integer key type (-1
/// before 9 before 10), and by the stored text, byte by byte, for the others (`String`, `UUID`,
/// any `LosslessStringConvertible`). Items come through the connection's cache like any other
/// read. A query is `Sendable`: keep it in a property, pass it to a task.
///
/// It also reads the values of its index's columns without reading an item, as an
/// ``IndexValueQuery`` run by its `value` terminal: ``count(of:)``, ``sum(of:)``, ``min(of:)``,
/// ``max(of:)``, ``average(of:)``, per group with ``grouped(by:)``, ``distinct(_:)``, and the
/// columns of each result with ``values(of:)``.
public struct IndexQuery<Item: Persistable>: ItemQuery {
    @usableFromInline let index: SecondaryIndex<Item>
    @usableFromInline var clauses: IndexQueryClauses

    @inlinable
    init(index: SecondaryIndex<Item>, clauses: IndexQueryClauses = IndexQueryClauses()) {
        self.index = index
        self.clauses = clauses
    }

    /// The query narrowed to the items that meet every condition of `conditions` too.
    ///
    /// - Parameter conditions: Conditions on columns of the index (`.column("age", in: 18...)`,
    ///   or the generated `.age(18...)`).
    /// - Returns: The narrowed query.
    @inlinable
    public func filter(_ conditions: IndexCondition<Item>...) -> Self {
        var copy = self
        copy.clauses.add(conditions)
        return copy
    }

    /// The query sorted by `orderings`, after any orderings it has; ties are ordered by key.
    ///
    /// - Parameter orderings: Orderings by columns of the index (`.column("age", .descending)`,
    ///   or the generated `.age`).
    /// - Returns: The sorted query.
    @inlinable
    public func sorted(by orderings: IndexOrder<Item>...) -> Self {
        var copy = self
        copy.clauses.add(orderings)
        return copy
    }

    /// The query sorted by `ordering`'s column in `direction`.
    ///
    /// - Parameters:
    ///   - ordering: An ordering by a column of the index (`.age`).
    ///   - direction: Ascending or descending.
    /// - Returns: The sorted query.
    @inlinable
    public func sorted(by ordering: IndexOrder<Item>, _ direction: SortDirection) -> Self {
        sorted(by: .column(ordering.column, direction))
    }

    /// The query limited to `limit` results, after skipping `offset`.
    ///
    /// - Parameters:
    ///   - limit: The largest number of results (a negative number counts as 0).
    ///   - offset: How many results to skip first.
    /// - Returns: The limited query.
    @inlinable
    public func limit(_ limit: Int, offset: Int = 0) -> Self {
        var copy = self
        copy.clauses.setLimit(limit, offset: offset)
        return copy
    }

    /// What the query selects, for the engine that runs it.
    @inlinable
    public var plan: QueryPlan<Item> {
        QueryPlan(.index(index, clauses))
    }
}

extension ReadTransaction {
    /// The items of an index query, decoded through the cache: specialized for `Item` where it is
    /// called (the SQL is built and run by the non-generic ``IndexQueryPlanner``).
    @inlinable
    func indexItems<Item: Persistable>(_ index: SecondaryIndex<Item>, _ clauses: IndexQueryClauses) throws -> [Item] {
        try decodedItems(Item.self) {
            try index.planner.readItemRows(
                clauses, in: self, collection: Item.collection, withMetadata: Item.Metadata.self != NoMetadata.self,
                cached: $0, decodeData: $1, decodeMetadata: $2, decoded: $3)
        }
    }

    /// The keys of the items of an index query.
    @inlinable
    func indexKeys<Item: Persistable>(_ index: SecondaryIndex<Item>, _ clauses: IndexQueryClauses) throws -> [Item.ID] {
        var keys: [Item.ID] = []
        try index.planner.readKeys(clauses, in: self) { key in
            guard let id = Item.ID(itemKey: key) else {
                throw TroveError(
                    code: .invalidKey, message: "The stored key '\(key)' is not a valid \(Item.ID.self).",
                    collection: Item.collection, key: key)
            }
            keys.append(id)
        }
        return keys
    }
}


/// Builds and runs the SQL of the queries of one ``SecondaryIndex``, for every item type: the
/// non-generic half of ``IndexQuery``, which hands it closures that decode the rows.
@usableFromInline
final class IndexQueryPlanner: Sendable {
    /// What a query selects.
    enum Selection: Hashable {
        case items, keys, count
        /// The rows of an ``IndexValueQuery``.
        case values(IndexValueSelection)
    }

    let name: String
    /// The collection of the indexed items, which a query records as read when an observation
    /// runs it.
    let collection: String
    let fingerprint: String
    /// The columns, which the conditions and orderings are checked against.
    let columns: IndexColumnSet
    /// The names and types of the columns, and whether each holds several values per item: what
    /// aggregates and projections are checked against.
    let columnTypes: [IndexValueSelection.Column]
    /// How the keys of the indexed items compare: what orders the items that the orderings
    /// find equal, and the items of a query without orderings.
    let keyOrder: ItemKeyOrder
    /// The table, quoted.
    let table: String
    /// The table, unquoted.
    let rawTable: String
    /// The column of the index's table that holds each item's stored key: a name no index
    /// column may take.
    static let keyColumn = "trove_key"
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
        name: String, collection: String, table: String, fingerprint: String, columns: IndexColumnSet,
        columnTypes: [IndexValueSelection.Column], keyOrder: ItemKeyOrder
    ) {
        self.name = name
        self.collection = collection
        self.table = "\"\(table)\""
        rawTable = table
        self.fingerprint = fingerprint
        self.columns = columns
        self.columnTypes = columnTypes
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
        let keys = CollectionKeys(collection)
        try run(clauses, selecting: .items, in: transaction) { statement in
            try transaction.handOverItemRow(
                of: statement, keys: keys, withMetadata: withMetadata, cached: cached,
                decodeData: decodeData, decodeMetadata: decodeMetadata, decoded: decoded)
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

    /// The rows of `selection` over the rows `clauses` select, each value as SQLite stores it.
    ///
    /// - Throws: The errors of a query; ``TroveError/Code/extensionFailed`` for a column the
    ///   index does not have or whose type has no such aggregate; ``TroveError/Code/overflow`` for
    ///   an integer sum beyond 64 bits.
    func valueRows(
        _ clauses: IndexQueryClauses, selecting selection: IndexValueSelection, in transaction: ReadTransaction
    ) throws -> [[IndexValue]] {
        var rows: [[IndexValue]] = []
        do {
            try run(clauses, selecting: .values(selection), in: transaction) { statement in
                let count = statement.columnCount
                var row: [IndexValue] = []
                row.reserveCapacity(Int(count))
                var column: Int32 = 0
                while column < count {
                    row.append(statement.value(at: column))
                    column += 1
                }
                rows.append(row)
            }
        } catch let error as TroveError
            where selection.sumsIntegers && error.sqliteMessage?.contains("integer overflow") == true
        {
            throw selection.overflow(index: name, collection: collection, cause: error)
        }
        return rows
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
        try core.checkQueryable(name, fingerprint: fingerprint)
        let hasList = clauses.conditions.contains { $0.predicate.hasList }
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
            case .oneOf(let values), .containsAny(let values), .containsAll(let values):
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
        // Then by key (see `ItemKeyOrder`), from the index's own copy of the key: the SQLite index
        // of a column that is not unique is on the column then these terms, so that an equality
        // on it, or an ordering by it alone, needs no sort. A limited query that needs one sorts
        // the index's rows to pick its page before it reads any item (see `.items` below).
        orderClause += keyOrder.orderingTerms(of: "i.\"\(Self.keyColumn)\"")
        let limitClause =
            clauses.limit == nil && clauses.offset == 0
            ? "" : " LIMIT ?\(parameterCount + 1) OFFSET ?\(parameterCount + 2)"
        let key = "i.\"\(Self.keyColumn)\""
        switch selection {
        case .items where limitClause.isEmpty:
            return
                "SELECT t.key, t.data, t.metadata FROM \(table) AS i JOIN trove_items AS t ON t.rowid = i.rowid\(whereClause)\(orderClause)"
        case .items:
            // The page is chosen from the index alone, then only its rows are read from the
            // items: a query whose order needs a sort (a range, an ordering by another column)
            // sorts the index's rows, not the items, and reads no item it does not return. The
            // page is sorted again after the join, which costs nothing at its size.
            let sortColumns = Set(clauses.orderings.map(\.column)).sorted().map { ", i.\"\($0)\"" }.joined()
            let page =
                "SELECT i.rowid AS rowid, \(key)\(sortColumns) FROM \(table) AS i\(whereClause)\(orderClause)\(limitClause)"
            return
                "SELECT t.key, t.data, t.metadata FROM (\(page)) AS i JOIN trove_items AS t ON t.rowid = i.rowid\(orderClause)"
        case .keys:
            // The index keeps each item's key: no item is read.
            return "SELECT \(key) FROM \(table) AS i\(whereClause)\(orderClause)\(limitClause)"
        case .count where limitClause.isEmpty:
            return "SELECT count(*) FROM \(table) AS i\(whereClause)"
        case .count:
            return "SELECT count(*) FROM (SELECT 1 FROM \(table) AS i\(whereClause)\(orderClause)\(limitClause))"
        case .values(let values):
            _ = try values.resultTypes(index: name, collection: collection, columns: columnTypes)
            return try values.sql(
                from: "\(table) AS i\(whereClause)", alias: "i", order: orderClause, limit: limitClause, key: key,
                column: { "i.\"\(try checkedColumn($0))\"" }, dialect: .sqlite)
        }
    }

    /// The SQL predicates of `conditions` on the index's table named `alias`, with a numbered
    /// placeholder for each value, numbered after `parameterCount`, which counts them (the values
    /// in order are ``values(of:)``). A full-text search that filters by the index uses it too.
    func predicates(of conditions: [IndexQueryClauses.Condition], alias: String, parameterCount: inout Int) throws
        -> [String]
    {
        try columns.predicates(of: conditions, dialect: SQLiteIndexDialect(alias: alias, table: rawTable)) { _ in
            parameterCount += 1
            return "?\(parameterCount)"
        }
    }

    /// The values of `conditions`, in the order of the placeholders of ``predicates(of:alias:parameterCount:)``.
    static func values(of conditions: [IndexQueryClauses.Condition]) -> [IndexValue] {
        var values: [IndexValue] = []
        for condition in conditions {
            switch condition.predicate {
            case .equals(let value): values.append(value)
            case .oneOf(let list), .containsAny(let list), .containsAll(let list): values += list
            case .range(let lower, _, let upper, _):
                if let lower { values.append(lower) }
                if let upper { values.append(upper) }
            case .isNull, .isNotNull: break
            }
        }
        return values
    }

    private func checkedColumn(_ name: String) throws -> String {
        try columns.orderingColumn(name)
    }
}

/// SQLite's side of the SQL of an index's conditions: a single-valued column is a column of the
/// index's table; a multi-valued column is a table of (value, item row id) pairs, keyed by both
/// (``SecondaryIndexValuesTable``), which a condition looks up by
/// value, and whose matching row ids the index's rows are kept to (`IN`, a semi-join: an item
/// comes once however many of its values match).
struct SQLiteIndexDialect: IndexSQLDialect {
    /// The alias of the index's table in the query.
    let alias: String
    /// The index's table, unquoted.
    let table: String

    func column(_ name: String) -> String { "\(alias).\"\(name)\"" }

    func containsAny(_ name: String, _ placeholders: [String]) -> String {
        let values = placeholders.count == 1 ? "= \(placeholders[0])" : "IN (\(placeholders.joined(separator: ", ")))"
        return
            "\(alias).rowid IN (SELECT item FROM \"\(valuesTable(name))\" WHERE value \(values))"
    }

    func containsAll(_ name: String, _ placeholders: [String]) -> String {
        guard placeholders.count > 1 else { return containsAny(name, placeholders) }
        // The values are distinct, and an item has each value once: it has them all when it
        // has as many of them as there are.
        return
            "\(alias).rowid IN (SELECT item FROM \"\(valuesTable(name))\" WHERE value IN (\(placeholders.joined(separator: ", "))) GROUP BY item HAVING count(*) = \(placeholders.count))"
    }

    var never: String { "0" }

    private func valuesTable(_ column: String) -> String {
        SecondaryIndexValuesTable.name(of: table, column: column)
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
        // Kept for none or one value only (`hasList`), told apart from IN lists all the same.
        case .containsAny(let values): -100_000 - values.count
        case .containsAll(let values): -200_000 - values.count
        case .range(let lower, let lowerIncluded, let upper, let upperIncluded):
            16 | (lower == nil ? 0 : lowerIncluded ? 1 : 2) | (upper == nil ? 0 : upperIncluded ? 4 : 8)
        }
    }
}
