import NIOCore
import PostgresNIO
import Trove

/// A secondary index that a ``PostgresStore`` keeps: the same `SecondaryIndex` descriptor a Trove
/// file uses (such as the generated `User.index`), in a table of its own with a B-tree index on
/// each column; a unique column is a `UNIQUE` constraint, enforced by the server.
///
/// ```swift
/// let store = try await PostgresStore.open(url: url, indexes: [PostgresIndex(User.index)])
/// let adults = try await store.read { tx in
///     try await User.index.query.filter(.age(18...)).sorted(by: .age).items(tx)
/// }
/// ```
///
/// Its table is rebuilt from the items when the descriptor's version or columns change.
public struct PostgresIndex: Sendable {
    struct Column: Sendable {
        var name: String
        var type: IndexColumnType
        var isUnique: Bool

        var sqlType: String {
            switch type {
            case .integer: "bigint"
            case .real: "double precision"
            case .text: "text COLLATE \"C\""
            case .blob: "bytea"
            }
        }

        var quoted: String { PostgresNames.quote("c_" + name) }
    }

    /// The name of the index.
    public let name: String
    /// The version of the index.
    public let version: Int
    /// The collection it indexes.
    public let collection: String
    let columns: [Column]
    /// The column values of an item of the index's type.
    let values: @Sendable (any Sendable) -> [IndexValue]?
    /// The column values of a stored item, decoded.
    let decodeValues: @Sendable (PostgresReadTransaction, ByteBuffer, ByteBuffer?, String) throws -> [IndexValue]

    /// The PostgreSQL form of `index`.
    ///
    /// - Parameter index: The index descriptor, such as a generated `User.index`.
    public init<Item: Persistable>(_ index: SecondaryIndex<Item>) {
        name = index.name
        version = index.version
        collection = Item.collection
        columns = index.columns.map { Column(name: $0.name, type: $0.type, isUnique: $0.isUnique) }
        let indexColumns = index.columns
        values = { item in
            guard let item = item as? Item else { return nil }
            return indexColumns.map { $0.value(item) }
        }
        decodeValues = { transaction, data, metadata, key in
            let item = try transaction.decodeItem(Item.self, data: data, metadata: metadata, key: key)
            return indexColumns.map { $0.value(item) }
        }
    }

    /// What the table is built from: a change rebuilds it.
    var fingerprint: String {
        columns.map { "\($0.name):\($0.type.rawValue)\($0.isUnique ? ":unique" : "")" }.joined(separator: ",")
    }

    func table(_ names: PostgresNames) -> String { names.indexTable(name) }

    static func bind(_ value: IndexValue, to bindings: inout PostgresBindings) {
        switch value {
        case .null: bindings.appendNull()
        case .integer(let number): bindings.append(number)
        case .real(let number): bindings.append(number)
        case .text(let text): bindings.append(text)
        case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
        }
    }

    /// Stores the row of `item` at `key`.
    func store(_ item: any Sendable, key: String, in transaction: PostgresReadWriteTransaction) async throws {
        guard let values = values(item) else { return }
        try await storeRow(values, key: key, in: transaction)
    }

    func storeRow(_ values: [IndexValue], key: String, in transaction: PostgresReadTransaction) async throws {
        let table = table(transaction.names)
        let columnList = columns.map(\.quoted).joined(separator: ", ")
        let placeholders = (0..<columns.count).map { "$\($0 + 2)" }.joined(separator: ", ")
        let updates = columns.map { "\($0.quoted) = excluded.\($0.quoted)" }.joined(separator: ", ")
        let sql = """
            INSERT INTO \(table) (key, \(columnList)) VALUES ($1, \(placeholders))
            ON CONFLICT (key) DO UPDATE SET \(updates)
            """
        var bindings = PostgresBindings(capacity: values.count + 1)
        bindings.append(key)
        for value in values { Self.bind(value, to: &bindings) }
        do {
            _ = try await transaction.run(PostgresQuery(unsafeSQL: sql, binds: bindings), collection: collection, key: key)
        } catch where PostgresErrors.sqlState(of: error) == "23505" {
            let column = columns.first { PostgresErrors.describe(error).contains("c_" + $0.name) }?.name
            throw TroveError(
                code: .uniqueViolation,
                message:
                    "Another item of \(collection) already has this value in the unique column \(column.map { "\"\($0)\"" } ?? "") of the index \(name); the transaction is rolled back.",
                collection: collection, key: key, field: column, extensionName: name, sql: sql, underlyingError: error)
        }
    }

    /// Removes the row at `key`.
    func remove(key: String, in transaction: PostgresReadWriteTransaction) async throws {
        _ = try await transaction.query(
            "DELETE FROM \(table(transaction.names)) WHERE key = $1", key, collection: collection, key: key)
    }

    /// Removes every row.
    func removeAll(in transaction: PostgresReadWriteTransaction) async throws {
        _ = try await transaction.query("DELETE FROM \(table(transaction.names))", collection: collection)
    }
}

/// Creates the tables of the indexes a store keeps, and rebuilds those whose descriptor changed.
enum PostgresIndexBuilder {
    static func prepare(_ indexes: [PostgresIndex], in store: PostgresStore) async throws {
        let names = store.names
        for index in indexes {
            try await store.write { tx in
                _ = try await tx.query("SELECT pg_advisory_xact_lock($1)", names.lockKey &+ 2)
                var current = false
                for try await (version, fingerprint) in try await tx.query(
                    "SELECT version, fingerprint FROM \(names.extensions) WHERE name = $1", index.name
                ).decode((Int32, String).self) {
                    current = Int(version) == index.version && fingerprint == index.fingerprint
                }
                guard !current else { return }
                let table = index.table(names)
                _ = try await tx.query("DROP TABLE IF EXISTS \(table)")
                let columns = index.columns.map { "\($0.quoted) \($0.sqlType)\($0.isUnique ? " UNIQUE" : "")" }
                _ = try await tx.query(
                    "CREATE TABLE \(table) (key text COLLATE \"C\" PRIMARY KEY, \(columns.joined(separator: ", ")))")
                for column in index.columns where !column.isUnique {
                    _ = try await tx.query("CREATE INDEX ON \(table) (\(column.quoted), key)")
                }
                var rows: [(String, ByteBuffer, ByteBuffer?)] = []
                for try await row in try await tx.query(
                    "SELECT key, data, metadata FROM \(names.items) WHERE collection = $1", index.collection,
                    collection: index.collection
                ).decode((String, ByteBuffer, ByteBuffer?).self) {
                    rows.append(row)
                }
                for (key, data, metadata) in rows {
                    let values = try index.decodeValues(tx, data, metadata, key)
                    try await index.storeRow(values, key: key, in: tx)
                }
                _ = try await tx.query(
                    """
                    INSERT INTO \(names.extensions) (name, version, fingerprint) VALUES ($1, $2, $3)
                    ON CONFLICT (name) DO UPDATE SET version = excluded.version, fingerprint = excluded.fingerprint
                    """, index.name, Int32(index.version), index.fingerprint)
            }
        }
    }
}

/// A query of a secondary index in a ``PostgresReadTransaction``: the PostgreSQL form of
/// `IndexQuery`, with the same conditions (`IndexCondition`) and orderings (`IndexOrder`).
///
/// Without an ordering, items come in key order; after the orderings, by key. `nil` sorts
/// first in ascending order, as in a Trove file.
public struct PostgresIndexQuery<Item: Persistable> {
    let index: SecondaryIndex<Item>
    let transaction: PostgresReadTransaction
    var conditions: [IndexCondition<Item>] = []
    var orderings: [IndexOrder<Item>] = []
    var limitCount: Int?
    var offset = 0

    init(index: SecondaryIndex<Item>, transaction: PostgresReadTransaction) {
        self.index = index
        self.transaction = transaction
    }

    /// This query, narrowed to the items that meet every one of `conditions` too.
    ///
    /// - Parameter conditions: Conditions on the index's columns.
    /// - Returns: The narrowed query.
    public func filter(_ conditions: IndexCondition<Item>...) -> Self {
        var copy = self
        copy.conditions += conditions
        return copy
    }

    /// This query, ordered by `orderings` (then by key).
    ///
    /// - Parameter orderings: Orderings by the index's columns.
    /// - Returns: The ordered query.
    public func sorted(by orderings: IndexOrder<Item>...) -> Self {
        var copy = self
        copy.orderings += orderings
        return copy
    }

    /// This query, ordered by `ordering`'s column in `direction`.
    ///
    /// - Parameters:
    ///   - ordering: An ordering by a column of the index.
    ///   - direction: The direction.
    /// - Returns: The ordered query.
    public func sorted(by ordering: IndexOrder<Item>, _ direction: SortDirection) -> Self {
        var copy = self
        copy.orderings.append(.column(ordering.column, direction))
        return copy
    }

    /// This query, returning at most `limit` items after skipping `offset`.
    ///
    /// - Parameters:
    ///   - limit: The most items to return.
    ///   - offset: How many matching items to skip first.
    /// - Returns: The limited query.
    public func limit(_ limit: Int, offset: Int = 0) -> Self {
        var copy = self
        copy.limitCount = limit
        copy.offset = offset
        return copy
    }

    /// The matching items, decoded.
    ///
    /// - Returns: The items.
    /// - Throws: ``Trove/TroveError`` with code `misuse` for a column the index does not have or
    ///   an index the store does not keep; `corruptData` or `server`.
    public func items() async throws -> [Item] {
        let (sql, bindings) = try statement(selecting: "i.key, i.data, i.metadata", joinItems: true)
        var items: [Item] = []
        for try await (key, data, metadata) in try await transaction.run(
            PostgresQuery(unsafeSQL: sql, binds: bindings), collection: Item.collection
        ).decode((String, ByteBuffer, ByteBuffer?).self) {
            items.append(try transaction.decodeItem(Item.self, data: data, metadata: metadata, key: key))
        }
        return items
    }

    /// The first matching item.
    ///
    /// - Returns: The item, or `nil` when none matches.
    /// - Throws: As ``items()``.
    public func first() async throws -> Item? {
        try await limit(1, offset: offset).items().first
    }

    /// The keys of the matching items.
    ///
    /// - Returns: The keys.
    /// - Throws: As ``items()``, and `invalidKey` for a key that is not a valid `Item.ID`.
    public func keys() async throws -> [Item.ID] {
        let (sql, bindings) = try statement(selecting: "x.key", joinItems: false)
        var keys: [Item.ID] = []
        for try await (key) in try await transaction.run(
            PostgresQuery(unsafeSQL: sql, binds: bindings), collection: Item.collection
        ).decode(String.self) {
            guard let id = Item.ID(itemKey: key) else {
                throw TroveError(
                    code: .invalidKey, message: "The stored key is not a valid \(Item.ID.self).",
                    collection: Item.collection, key: key)
            }
            keys.append(id)
        }
        return keys
    }

    /// The number of matching items (within the limit, if any).
    ///
    /// - Returns: The count.
    /// - Throws: As ``items()``.
    public func count() async throws -> Int {
        let (inner, bindings) = try statement(selecting: "x.key", joinItems: false)
        let sql = "SELECT count(*) FROM (\(inner)) AS matched"
        var count: Int64 = 0
        for try await (value) in try await transaction.run(
            PostgresQuery(unsafeSQL: sql, binds: bindings), collection: Item.collection
        ).decode(Int64.self) {
            count = value
        }
        return Int(count)
    }

    private func statement(selecting columns: String, joinItems: Bool) throws -> (String, PostgresBindings) {
        let names = transaction.names
        guard transaction.store.indexes[Item.collection]?.contains(where: { $0.name == index.name }) == true else {
            throw TroveError(
                code: .misuse,
                message:
                    "The index \(index.name) is not kept by this PostgresStore: open it with indexes: [PostgresIndex(\(Item.self).index)].",
                collection: Item.collection, extensionName: index.name)
        }
        func column(_ name: String) throws -> String {
            guard index.columns.contains(where: { $0.name == name }) else {
                throw TroveError(
                    code: .misuse, message: "The index \(index.name) has no column \"\(name)\".",
                    collection: Item.collection, field: name, extensionName: index.name)
            }
            return "x." + PostgresNames.quote("c_" + name)
        }
        var bindings = PostgresBindings()
        var count = 0
        func placeholder(_ value: IndexValue) -> String {
            PostgresIndex.bind(value, to: &bindings)
            count += 1
            return "$\(count)"
        }
        var sql = "SELECT \(columns) FROM \(index.name.isEmpty ? "" : names.indexTable(index.name)) AS x"
        if joinItems {
            sql += " JOIN \(names.items) AS i ON i.collection = \(placeholder(.text(Item.collection))) AND i.key = x.key"
        }
        var clauses: [String] = []
        for condition in conditions {
            let name = try column(condition.column)
            switch condition.predicate {
            case .equals(let value): clauses.append("\(name) = \(placeholder(value))")
            case .oneOf(let values):
                clauses.append(
                    values.isEmpty ? "FALSE" : "\(name) IN (\(values.map { placeholder($0) }.joined(separator: ", ")))")
            case .range(let lower, let lowerIncluded, let upper, let upperIncluded):
                var parts = ["\(name) IS NOT NULL"]
                if let lower { parts.append("\(name) \(lowerIncluded ? ">=" : ">") \(placeholder(lower))") }
                if let upper { parts.append("\(name) \(upperIncluded ? "<=" : "<") \(placeholder(upper))") }
                clauses.append(parts.joined(separator: " AND "))
            case .isNull: clauses.append("\(name) IS NULL")
            case .isNotNull: clauses.append("\(name) IS NOT NULL")
            }
        }
        if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
        var order: [String] = []
        for ordering in orderings {
            let name = try column(ordering.column)
            order.append(ordering.direction == .ascending ? "\(name) ASC NULLS FIRST" : "\(name) DESC NULLS LAST")
        }
        order.append("x.key")
        sql += " ORDER BY " + order.joined(separator: ", ")
        if let limitCount { sql += " LIMIT \(max(0, limitCount))" }
        if offset > 0 { sql += " OFFSET \(offset)" }
        return (sql, bindings)
    }
}

// Explicit non-conformance to Sendable: it holds a transaction, valid only inside its body.
@available(*, unavailable)
extension PostgresIndexQuery: Sendable {}
