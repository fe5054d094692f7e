/// A read of the values of an index's columns, not of its items: an aggregate (count, sum,
/// minimum, maximum, average), the same aggregate per group, the distinct values of a column, or
/// the columns of the matching items (a projection). Built from an ``IndexQuery`` without a
/// database; only its terminal, `value`, names where it runs:
///
/// ```swift
/// let adults = byAge.query.filter(.column("age", in: 18...))
/// let total = try adults.sum(of: "visits").value(tx)                  // inside a transaction
/// let perCity = try adults.grouped(by: "city").count().value(in: database)
/// let oldest = try await adults.max(of: "age").value(in: store)       // any engine
/// ```
///
/// Every read runs over the rows the query selects: its filter, and, when the query has a limit
/// or an offset, its order and its page (the sum of the ten highest scores). Nothing is decoded:
/// the values come from the index's table, and no item goes through the cache.
///
/// A column's `nil` values are skipped by `count(of:)`, `sum`, `min`, `max` and `average`, as SQL
/// does; `grouped(by:)` and `distinct` keep `nil` as a value of its own, first.
public struct IndexValueQuery<Item: Persistable, Value: Sendable>: Sendable {
    let query: IndexQuery<Item>
    let selection: IndexValueSelection
    /// Builds the value from the rows the engine returns.
    let make: @Sendable ([[IndexValue]]) throws -> Value

    init(
        _ query: IndexQuery<Item>, _ selection: IndexValueSelection,
        make: @escaping @Sendable ([[IndexValue]]) throws -> Value
    ) {
        self.query = query
        self.selection = selection
        self.make = make
    }

    /// The value, read in `transaction`.
    ///
    /// - Parameter transaction: A read (or read-write) transaction of a SQLite database.
    /// - Returns: The value.
    /// - Throws: ``TroveError``: ``TroveError/Code/extensionFailed`` when the index is not
    ///   registered or is stale, has no such column, or the column's type has no such aggregate
    ///   (the sum of a text column); ``TroveError/Code/overflow`` when an integer sum does not fit
    ///   in an `Int`; SQLite's.
    public func value(_ transaction: ReadTransaction) throws -> Value {
        try make(transaction.indexValueRows(matching: query.plan, selecting: selection))
    }

    /// The value, read in `transaction` of any engine.
    ///
    /// - Parameter transaction: A transaction of a SQLite database or of a PostgreSQL store.
    /// - Returns: The value.
    /// - Throws: What ``value(_:)-(ReadTransaction)`` throws, in the engine's words for its own
    ///   failures.
    public func value(_ transaction: some TransactionReading) async throws -> Value {
        try make(await transaction.indexValueRows(matching: query.plan, selecting: selection))
    }

    /// The value, in one read transaction of `database` on the caller's thread.
    ///
    /// - Parameter database: A ``Database`` or a ``Connection``.
    /// - Returns: The value.
    /// - Throws: What ``value(_:)-(ReadTransaction)`` throws.
    @_disfavoredOverload
    public func value(in database: some DatabaseReader) throws -> Value {
        try database.read { try value($0) }
    }

    /// The value, in one read transaction of `database`, any engine's.
    ///
    /// - Parameter database: A ``Database``, a ``Connection``, or a PostgreSQL store.
    /// - Returns: The value.
    /// - Throws: What ``value(_:)-(TransactionReading)`` throws, and `CancellationError` when the
    ///   task is cancelled before the transaction begins.
    public func value(in database: some AsyncDatabaseReader) async throws -> Value {
        try await database.read { tx in try await value(tx) }
    }
}

/// The aggregate of one group of a grouped read (``IndexQuery/grouped(by:)``): the group's value
/// in the grouping column, and the aggregate of its rows.
public struct IndexGroup<Aggregate: Sendable & Hashable>: Sendable, Hashable {
    /// The value of the grouping column shared by the group's rows (``IndexValue/null`` for the
    /// rows without one).
    public let group: IndexValue
    /// The aggregate of the group's rows.
    public let value: Aggregate

    /// A group and its aggregate.
    ///
    /// - Parameters:
    ///   - group: The value of the grouping column.
    ///   - value: The aggregate.
    public init(group: IndexValue, value: Aggregate) {
        self.group = group
        self.value = value
    }
}

/// The indexed values of one item that a projection (``IndexQuery/values(of:)``) selects: its
/// key and the values of the columns asked for, in their order, without decoding the item.
public struct IndexRow<Item: Persistable>: Sendable {
    /// The key of the item.
    public let key: Item.ID
    /// The values of the columns asked for, in the order they were named.
    public let values: [IndexValue]

    /// A row.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - values: The values of the columns.
    public init(key: Item.ID, values: [IndexValue]) {
        self.key = key
        self.values = values
    }
}

extension IndexRow: Equatable where Item.ID: Equatable {}
extension IndexRow: Hashable where Item.ID: Hashable {}

/// The rows of an ``IndexQuery`` grouped by the values of one column of its index
/// (``IndexQuery/grouped(by:)``), to aggregate per group. Each aggregate returns an
/// ``IndexValueQuery`` of the groups, sorted by the group's value (`nil` first, then as the
/// index orders the column), one per distinct value among the query's rows.
public struct IndexGrouping<Item: Persistable>: Sendable {
    let query: IndexQuery<Item>
    let column: String

    init(query: IndexQuery<Item>, column: String) {
        self.query = query
        self.column = column
    }

    /// The number of rows of each group.
    ///
    /// - Returns: The read, to run with its `value` terminal.
    public func count() -> IndexValueQuery<Item, [IndexGroup<Int>]> {
        grouped(.count) { Int($0.integer ?? 0) }
    }

    /// The number of non-`nil` values of `column` in each group.
    ///
    /// - Parameter column: A column of the index.
    /// - Returns: The read, to run with its `value` terminal.
    public func count(of column: String) -> IndexValueQuery<Item, [IndexGroup<Int>]> {
        grouped(.countValues(column)) { Int($0.integer ?? 0) }
    }

    /// The sum of the integer `column` in each group (0 for a group with only `nil` values).
    ///
    /// - Parameter column: An integer column of the index.
    /// - Returns: The read, to run with its `value` terminal.
    public func sum(of column: String) -> IndexValueQuery<Item, [IndexGroup<Int>]> {
        grouped(.sum(column)) { Int($0.integer ?? 0) }
    }

    /// The sum of the numeric `column` in each group, as a `Double`.
    ///
    /// - Parameters:
    ///   - column: An integer or real column of the index.
    ///   - type: `Double.self`.
    /// - Returns: The read, to run with its `value` terminal.
    public func sum(of column: String, as type: Double.Type) -> IndexValueQuery<Item, [IndexGroup<Double>]> {
        grouped(.total(column)) { $0.real ?? 0 }
    }

    /// The smallest non-`nil` value of `column` in each group, or `nil`.
    ///
    /// - Parameter column: A column of the index.
    /// - Returns: The read, to run with its `value` terminal.
    public func min(of column: String) -> IndexValueQuery<Item, [IndexGroup<IndexValue?>]> {
        grouped(.min(column)) { $0 == .null ? nil : $0 }
    }

    /// The largest non-`nil` value of `column` in each group, or `nil`.
    ///
    /// - Parameter column: A column of the index.
    /// - Returns: The read, to run with its `value` terminal.
    public func max(of column: String) -> IndexValueQuery<Item, [IndexGroup<IndexValue?>]> {
        grouped(.max(column)) { $0 == .null ? nil : $0 }
    }

    /// The average of the non-`nil` values of the numeric `column` in each group, or `nil` when
    /// the group has none.
    ///
    /// - Parameter column: An integer or real column of the index.
    /// - Returns: The read, to run with its `value` terminal.
    public func average(of column: String) -> IndexValueQuery<Item, [IndexGroup<Double?>]> {
        grouped(.average(column)) { $0.real }
    }

    private func grouped<Aggregate: Sendable & Hashable>(
        _ aggregate: IndexValueSelection.Aggregate, _ convert: @escaping @Sendable (IndexValue) -> Aggregate
    ) -> IndexValueQuery<Item, [IndexGroup<Aggregate>]> {
        IndexValueQuery(query, IndexValueSelection(.aggregate(aggregate, groupedBy: column))) { rows in
            rows.map { IndexGroup(group: $0[0], value: convert($0[1])) }
        }
    }
}

extension IndexQuery {
    // MARK: Aggregates, groups, distinct values and projections

    /// The number of non-`nil` values of `column` among the query's rows (``ItemQuery/count(_:)-(ReadTransaction)``
    /// counts the rows).
    ///
    /// - Parameter column: A column of the index.
    /// - Returns: The read, to run with its `value` terminal.
    public func count(of column: String) -> IndexValueQuery<Item, Int> {
        aggregate(.countValues(column)) { Int($0.integer ?? 0) }
    }

    /// The sum of the integer `column` over the query's rows, skipping `nil` values; 0 when there
    /// are none. A sum beyond `Int`'s range throws ``TroveError/Code/overflow``, never wraps.
    ///
    /// ```swift
    /// let visits = try byAge.query.filter(.column("age", in: 18...)).sum(of: "visits").value(tx)
    /// ```
    ///
    /// - Parameter column: An integer column of the index (a real column needs
    ///   ``sum(of:as:)``).
    /// - Returns: The read, to run with its `value` terminal.
    public func sum(of column: String) -> IndexValueQuery<Item, Int> {
        aggregate(.sum(column)) { Int($0.integer ?? 0) }
    }

    /// The sum of the numeric `column` over the query's rows, as a `Double`, skipping `nil`
    /// values; 0 when there are none.
    ///
    /// ```swift
    /// let total = try byAge.query.sum(of: "score", as: Double.self).value(in: database)
    /// ```
    ///
    /// - Parameters:
    ///   - column: An integer or real column of the index.
    ///   - type: `Double.self`.
    /// - Returns: The read, to run with its `value` terminal.
    public func sum(of column: String, as type: Double.Type) -> IndexValueQuery<Item, Double> {
        aggregate(.total(column)) { $0.real ?? 0 }
    }

    /// The smallest non-`nil` value of `column` among the query's rows, as the index stores it,
    /// or `nil` when there is none.
    ///
    /// - Parameter column: A column of the index, of any type.
    /// - Returns: The read, to run with its `value` terminal.
    public func min(of column: String) -> IndexValueQuery<Item, IndexValue?> {
        aggregate(.min(column)) { $0 == .null ? nil : $0 }
    }

    /// The largest non-`nil` value of `column` among the query's rows, as the index stores it, or
    /// `nil` when there is none.
    ///
    /// - Parameter column: A column of the index, of any type.
    /// - Returns: The read, to run with its `value` terminal.
    public func max(of column: String) -> IndexValueQuery<Item, IndexValue?> {
        aggregate(.max(column)) { $0 == .null ? nil : $0 }
    }

    /// The average of the non-`nil` values of the numeric `column` among the query's rows, or
    /// `nil` when there is none.
    ///
    /// - Parameter column: An integer or real column of the index.
    /// - Returns: The read, to run with its `value` terminal.
    public func average(of column: String) -> IndexValueQuery<Item, Double?> {
        aggregate(.average(column)) { $0.real }
    }

    /// The query's rows grouped by the values of `column`, to aggregate per group:
    ///
    /// ```swift
    /// let perCity = try byAge.query.grouped(by: "city").count().value(tx)
    /// for city in perCity { print(city.group, city.value) }
    /// ```
    ///
    /// - Parameter column: A column of the index.
    /// - Returns: The grouping, whose aggregates return the groups sorted by value.
    public func grouped(by column: String) -> IndexGrouping<Item> {
        IndexGrouping(query: self, column: column)
    }

    /// The distinct values of `column` among the query's rows, sorted as the index orders them,
    /// ``IndexValue/null`` first when a row has no value.
    ///
    /// - Parameter column: A column of the index.
    /// - Returns: The read, to run with its `value` terminal.
    public func distinct(_ column: String) -> IndexValueQuery<Item, [IndexValue]> {
        IndexValueQuery(self, IndexValueSelection(.distinct(column))) { rows in rows.map { $0[0] } }
    }

    /// The key and the indexed values of `columns` of each item the query returns, in its order
    /// and within its limit, without reading or decoding the items:
    ///
    /// ```swift
    /// for row in try byAge.query.sorted(by: .column("age")).values(of: "age", "city").value(tx) {
    ///     print(row.key, row.values[0], row.values[1])
    /// }
    /// ```
    ///
    /// - Parameter columns: Columns of the index, in the order of each row's values.
    /// - Returns: The read, to run with its `value` terminal.
    public func values(of columns: String...) -> IndexValueQuery<Item, [IndexRow<Item>]> {
        IndexValueQuery(self, IndexValueSelection(.columns(columns))) { rows in
            try rows.map { row in
                guard case .text(let key) = row[0], let id = Item.ID(itemKey: key) else {
                    throw TroveError(
                        code: .invalidKey, message: "The stored key '\(row[0])' is not a valid \(Item.ID.self).",
                        collection: Item.collection)
                }
                return IndexRow(key: id, values: Array(row.dropFirst()))
            }
        }
    }

    private func aggregate<Value: Sendable>(
        _ aggregate: IndexValueSelection.Aggregate, _ convert: @escaping @Sendable (IndexValue) -> Value
    ) -> IndexValueQuery<Item, Value> {
        IndexValueQuery(self, IndexValueSelection(.aggregate(aggregate, groupedBy: nil))) { rows in
            convert(rows.first?.first ?? .null)
        }
    }
}

extension IndexValue {
    /// The integer, or `nil`.
    fileprivate var integer: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The number as a `Double` (an integer converted), or `nil`.
    fileprivate var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
}

/// What an ``IndexValueQuery`` selects from the rows of an index query: not generic, the same for
/// every engine. It checks itself against the index's columns and builds its SQL around the
/// query's own clauses (``sql(from:alias:order:limit:key:column:dialect:)``), in each engine's
/// dialect where they differ. Public for the engines' seam (``TransactionReading``) only.
@_spi(TroveEngine)
public struct IndexValueSelection: Sendable, Hashable {
    /// A column of an index, as a selection is checked against it.
    package struct Column: Sendable {
        /// Its name.
        package var name: String
        /// The type of its values.
        package var type: IndexColumnType
        /// Whether it holds several values per item (which no aggregate reads).
        package var isMultiValued: Bool

        /// A column named `name` of `type`.
        package init(name: String, type: IndexColumnType, isMultiValued: Bool) {
            self.name = name
            self.type = type
            self.isMultiValued = isMultiValued
        }
    }

    /// An aggregate function of a column.
    package enum Aggregate: Sendable, Hashable {
        /// The number of rows.
        case count
        /// The number of non-`NULL` values.
        case countValues(String)
        /// The sum of an integer column, as an integer.
        case sum(String)
        /// The sum of a numeric column, as a real number.
        case total(String)
        case min(String)
        case max(String)
        case average(String)

        /// The column aggregated, if any.
        var column: String? {
            switch self {
            case .count: nil
            case .countValues(let column), .sum(let column), .total(let column), .min(let column), .max(let column),
                .average(let column):
                column
            }
        }
    }

    /// What is selected.
    package enum Kind: Sendable, Hashable {
        /// One aggregate of the rows, or one per value of the column `groupedBy`.
        case aggregate(Aggregate, groupedBy: String?)
        /// The distinct values of a column.
        case distinct(String)
        /// The key then the values of columns, per row.
        case columns([String])
    }

    /// The SQL dialect of an engine.
    package enum Dialect: Sendable {
        case sqlite, postgres
    }

    package let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// Whether the selection sums an integer column: what an integer overflow comes from.
    package var sumsIntegers: Bool {
        if case .aggregate(.sum, _) = kind { true } else { false }
    }

    /// The types of the columns of each result row, after checking the selection against the
    /// columns of the index `index` (of the items of `collection`): the key is text.
    ///
    /// - Throws: ``TroveError/Code/extensionFailed`` naming the index and the column for a column
    ///   the index does not have, or whose type has no such aggregate.
    package func resultTypes(index: String, collection: String, columns: [Column]) throws -> [IndexColumnType] {
        func type(of column: String) throws -> IndexColumnType {
            guard let found = columns.first(where: { $0.name == column }) else {
                throw TroveError(
                    code: .extensionFailed,
                    message:
                        "The index '\(index)' has no column '\(column)'; its columns are \(columns.map { "'\($0.name)'" }.joined(separator: ", ")).",
                    collection: collection, field: column, extensionName: index)
            }
            guard !found.isMultiValued else {
                throw TroveError(
                    code: .extensionFailed,
                    message:
                        "The column '\(column)' of the index '\(index)' holds several values per item: aggregates, distinct values and projections read the columns that hold one.",
                    collection: collection, field: column, extensionName: index)
            }
            return found.type
        }
        func refuse(_ what: String, of column: String, _ type: IndexColumnType, needs: String) -> TroveError {
            TroveError(
                code: .extensionFailed,
                message:
                    "The \(what) of the column '\(column)' of the index '\(index)' needs \(needs); '\(column)' holds \(type.words).",
                collection: collection, field: column, extensionName: index)
        }
        switch kind {
        case .columns(let names):
            return try [.text] + names.map(type(of:))
        case .distinct(let column):
            return [try type(of: column)]
        case .aggregate(let aggregate, let group):
            var types = try group.map { [try type(of: $0)] } ?? []
            let columnType = try aggregate.column.map(type(of:))
            switch (aggregate, columnType) {
            case (.count, _), (.countValues, _):
                types.append(.integer)
            case (.sum(let column), let type?):
                guard type == .integer else {
                    throw refuse(
                        "sum", of: column, type,
                        needs: type == .real
                            ? "an integer column for an Int; ask for sum(of: \"\(column)\", as: Double.self)"
                            : "an integer or real column")
                }
                types.append(.integer)
            case (.total(let column), let type?), (.average(let column), let type?):
                guard type == .integer || type == .real else {
                    throw refuse(
                        aggregate == .total(column) ? "sum" : "average", of: column, type,
                        needs: "an integer or real column")
                }
                types.append(.real)
            case (.min, let type?), (.max, let type?):
                types.append(type)
            default:
                types.append(.integer)
            }
            return types
        }
    }

    /// The SQL of the selection over the rows of an index query.
    ///
    /// - Parameters:
    ///   - from: The index's table under `alias`, then the query's `WHERE` clause (empty when it
    ///     has no condition).
    ///   - alias: The alias of the index's table.
    ///   - order: The query's ` ORDER BY` clause, ties included.
    ///   - limit: The query's ` LIMIT … OFFSET …` clause, or empty.
    ///   - key: The column of the item's key.
    ///   - column: The quoted column, under `alias`, of a column of the index.
    ///   - dialect: The engine's dialect, for what differs.
    /// - Returns: The SQL, whose placeholders are the query's.
    /// - Throws: What `column` throws: the error of a column the index does not have.
    package func sql(
        from: String, alias: String, order: String, limit: String, key: String, column: (String) throws -> String,
        dialect: Dialect
    ) throws -> String {
        // A page is selected first; without one, the order does not change an aggregate.
        let rows = limit.isEmpty ? from : "(SELECT \(alias).* FROM \(from)\(order)\(limit)) AS \(alias)"
        switch kind {
        case .columns(let names):
            let list = try ([key] + names.map(column)).joined(separator: ", ")
            return "SELECT \(list) FROM \(from)\(order)\(limit)"
        case .distinct(let name):
            let value = try column(name)
            return "SELECT DISTINCT \(value) FROM \(rows) ORDER BY \(value) ASC NULLS FIRST"
        case .aggregate(let aggregate, let group):
            let function = try expression(of: aggregate, column: column, dialect: dialect)
            guard let group else { return "SELECT \(function) FROM \(rows)" }
            let value = try column(group)
            return "SELECT \(value), \(function) FROM \(rows) GROUP BY \(value) ORDER BY \(value) ASC NULLS FIRST"
        }
    }

    /// The SQL of an aggregate in `dialect`: a sum of no values is 0, an average of none `NULL`;
    /// an integer sum that does not fit in 64 bits fails (SQLite's `sum`; PostgreSQL's exact sum
    /// cast back to `bigint`) instead of wrapping or turning real.
    private func expression(of aggregate: Aggregate, column: (String) throws -> String, dialect: Dialect) throws
        -> String
    {
        switch (aggregate, dialect) {
        case (.count, _): return "count(*)"
        case (.countValues(let name), _): return "count(\(try column(name)))"
        case (.sum(let name), .sqlite): return "coalesce(sum(\(try column(name))), 0)"
        case (.sum(let name), .postgres): return "coalesce(sum(\(try column(name))), 0)::bigint"
        case (.total(let name), .sqlite): return "total(\(try column(name)))"
        case (.total(let name), .postgres):
            return "coalesce(sum(\(try column(name))::double precision), 0)"
        case (.min(let name), _): return "min(\(try column(name)))"
        case (.max(let name), _): return "max(\(try column(name)))"
        case (.average(let name), .sqlite): return "avg(\(try column(name)))"
        case (.average(let name), .postgres):
            // `avg` of a bigint is numeric, rounded in decimal: the exact sum over the count, in
            // binary floating point, is SQLite's `avg`.
            let value = try column(name)
            return "(sum(\(value))::double precision / nullif(count(\(value)), 0))"
        }
    }

    /// The error of an integer sum beyond 64 bits, in every engine's words.
    package func overflow(index: String, collection: String, cause: (any Error)?) -> TroveError {
        var column = ""
        if case .aggregate(.sum(let name), _) = kind { column = name }
        return TroveError(
            code: .overflow,
            message:
                "The sum of the column '\(column)' of the index '\(index)' does not fit in an Int (64 bits); sum(of: \"\(column)\", as: Double.self) sums it as a Double.",
            collection: collection, field: column, extensionName: index, underlyingError: cause)
    }
}

extension IndexColumnType {
    /// The values of a column of this type, in words.
    fileprivate var words: String {
        switch self {
        case .integer: "integers"
        case .real: "real numbers"
        case .text: "text"
        case .blob: "bytes"
        }
    }
}

extension ReadTransaction {
    /// The rows of `selection` over the index query `plan` (what an ``IndexValueQuery`` reads).
    @_spi(TroveEngine)
    public func indexValueRows<Item: Persistable>(
        matching plan: QueryPlan<Item>, selecting selection: IndexValueSelection
    ) throws -> [[IndexValue]] {
        guard case .index(let index, let clauses) = plan.source else {
            throw TroveError(
                code: .misuse, message: "Only a query of a secondary index has column values, not \(plan.kind).",
                collection: Item.collection)
        }
        return try index.planner.valueRows(clauses, selecting: selection, in: self)
    }
}
