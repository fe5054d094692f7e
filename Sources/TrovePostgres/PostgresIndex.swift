import NIOCore
import PostgresNIO
import Trove

/// A secondary index that a ``PostgresStore`` keeps: the same `SecondaryIndex` definition a Trove
/// file uses (such as the generated `User.index`, brought by `models: [User.self]`), in a table of
/// its own with a B-tree index on each column; a unique column is a `UNIQUE` constraint, enforced
/// by the server.
///
/// A multi-valued column (`IndexColumn.values`) is an array column of that table with a GIN
/// index, rather than a table of (value, key) pairs as on a Trove file: an item's row keeps being
/// written by one upsert (a table of pairs would cost a delete and an insert more per write, each
/// a round trip to the server), GIN answers `&&` (has one of) and `@>` (has all of) from the
/// index, and an item is one row, so it comes once however many of its values match.
///
/// Its table is rebuilt from the items when the definition's version or columns change.
struct PostgresIndex: Sendable {
    struct Column: Sendable {
        var name: String
        var type: IndexColumnType
        var isUnique: Bool
        /// Whether the column holds several values per item: an array of ``castType``.
        var isMultiValued: Bool

        var sqlType: String {
            if isMultiValued { return castType + "[] NOT NULL" }
            switch type {
            case .integer: return "bigint"
            case .real: return "double precision"
            case .text: return "text COLLATE \"C\""
            case .blob: return "bytea"
            }
        }

        var quoted: String { PostgresNames.quote("c_" + name) }

        /// The type a parameter is cast to for this column (for each value, when it is
        /// multi-valued).
        var castType: String {
            switch type {
            case .integer: "bigint"
            case .real: "double precision"
            case .text: "text"
            case .blob: "bytea"
            }
        }
    }

    /// The name of the index.
    let name: String
    /// The version of the index.
    let version: Int
    /// The collection it indexes.
    let collection: String
    let columns: [Column]
    /// The columns as the conditions of queries see them.
    let columnSet: IndexColumnSet
    /// The column values of an item of the index's type.
    let values: @Sendable (any Sendable) -> [ColumnValue]?
    /// The column values of a stored item, decoded.
    let decodeValues: @Sendable (PostgresReadTransaction, ByteBuffer, ByteBuffer?, String) throws -> [ColumnValue]

    /// The value of one column of an item's row.
    enum ColumnValue: Sendable {
        /// The value of a single-valued column.
        case one(IndexValue)
        /// The values of a multi-valued column (no `nil` among them).
        case many([IndexValue])

        /// The value of a single-valued column (`NULL` for a multi-valued one).
        var single: IndexValue {
            if case .one(let value) = self { value } else { .null }
        }
    }

    /// The PostgreSQL form of `index`.
    init<Item: Persistable>(_ index: SecondaryIndex<Item>) {
        name = index.name
        version = index.version
        collection = Item.collection
        columns = index.columns.map {
            Column(name: $0.name, type: $0.type, isUnique: $0.isUnique, isMultiValued: $0.isMultiValued)
        }
        columnSet = IndexColumnSet(
            indexName: index.name, collection: Item.collection, names: index.columns.map(\.name),
            multiValued: Set(index.columns.filter(\.isMultiValued).map(\.name)))
        let indexColumns = index.columns
        let row: @Sendable (Item) -> [ColumnValue] = { item in
            indexColumns.map { $0.isMultiValued ? .many($0.values(item)) : .one($0.value(item)) }
        }
        values = { item in
            guard let item = item as? Item else { return nil }
            return row(item)
        }
        decodeValues = { transaction, data, metadata, key in
            row(try transaction.decodeItem(Item.self, data: data, metadata: metadata, key: key))
        }
    }

    /// What the table is built from: a change rebuilds it.
    var fingerprint: String {
        columns.map {
            "\($0.name):\($0.type.rawValue)\($0.isUnique ? ":unique" : "")\($0.isMultiValued ? ":values" : "")"
        }.joined(separator: ",")
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

    /// Binds the value of a column: a value, or the array of a multi-valued column of `type`.
    static func bind(_ value: ColumnValue, type: IndexColumnType, to bindings: inout PostgresBindings) {
        switch value {
        case .one(let value):
            bind(value, to: &bindings)
        case .many(let values):
            switch type {
            case .integer: bindings.append(values.compactMap { if case .integer(let v) = $0 { v } else { nil } })
            case .real: bindings.append(values.compactMap { if case .real(let v) = $0 { v } else { nil } })
            case .text: bindings.append(values.compactMap { if case .text(let v) = $0 { v } else { nil } })
            case .blob:
                bindings.append(values.compactMap { if case .blob(let v) = $0 { ByteBuffer(bytes: v) } else { nil } })
            }
        }
    }


    /// Stores the row of the item at `key`. With unique columns, the statement first looks for
    /// another item that has one of the row's unique values, and writes nothing if so: the error
    /// then names the value and that item, as on a Trove file (PostgreSQL's own unique violation,
    /// left for a race with another transaction, names neither).
    func storeRow(_ values: [ColumnValue], key: String, in transaction: PostgresReadTransaction) async throws {
        let table = table(transaction.names)
        let columnList = columns.map(\.quoted).joined(separator: ", ")
        let placeholders = columns.indices.map {
            "$\($0 + 2)::\(columns[$0].castType)\(columns[$0].isMultiValued ? "[]" : "")"
        }.joined(separator: ", ")
        let updates = columns.map { "\($0.quoted) = excluded.\($0.quoted)" }.joined(separator: ", ")
        let unique = columns.indices.filter { columns[$0].isUnique && values[$0].single != .null }
        let sql: String
        if unique.isEmpty {
            sql = """
                INSERT INTO \(table) (key, \(columnList)) VALUES ($1, \(placeholders))
                ON CONFLICT (key) DO UPDATE SET \(updates)
                """
        } else {
            let conflicts = unique.map {
                "SELECT key, \($0) AS c FROM \(table) WHERE \(columns[$0].quoted) = $\($0 + 2)::\(columns[$0].castType) AND key <> $1"
            }
            sql = """
                WITH conflict AS (\(conflicts.joined(separator: " UNION ALL ")) LIMIT 1),
                written AS (
                    INSERT INTO \(table) (key, \(columnList)) SELECT $1, \(placeholders)
                    WHERE NOT EXISTS (SELECT 1 FROM conflict)
                    ON CONFLICT (key) DO UPDATE SET \(updates))
                SELECT key, c FROM conflict
                """
        }
        var bindings = PostgresBindings(capacity: values.count + 1)
        bindings.append(key)
        for (value, column) in zip(values, columns) { Self.bind(value, type: column.type, to: &bindings) }
        var conflict: (other: String, column: Int)?
        do {
            let rows = try await transaction.run(
                PostgresQuery(unsafeSQL: sql, binds: bindings), collection: collection, key: key)
            for try await (other, column) in rows.decode((String, Int32).self) {
                conflict = (other, Int(column))
            }
        } catch where PostgresErrors.sqlState(of: error) == "23505" {
            let column = columns.first { PostgresErrors.describe(error).contains("c_" + $0.name) }?.name
            throw TroveError(
                code: .uniqueViolation,
                message:
                    "The unique index '\(name)' already has this value in '\(column ?? "a unique column")', for an item another transaction wrote at the same time; the item '\(key)' cannot have it too. The transaction is rolled back.",
                collection: collection, key: key, field: column, extensionName: name, underlyingError: error)
        }
        if let (other, offset) = conflict {
            throw TroveError.uniqueViolation(
                index: name, value: values[offset].single, column: columns[offset].name, heldBy: other, key: key,
                collection: collection, cause: nil)
        }
    }
}

extension PostgresIndex: PostgresRowPerItem {
    func makeTables(in transaction: PostgresReadWriteTransaction) async throws {
        let table = table(transaction.names)
        _ = try await transaction.query("DROP TABLE IF EXISTS \(table)")
        let columns = columns.map { "\($0.quoted) \($0.sqlType)\($0.isUnique ? " UNIQUE" : "")" }
        _ = try await transaction.query(
            "CREATE TABLE \(table) (key text COLLATE \"C\" PRIMARY KEY, \(columns.joined(separator: ", ")))")
        for column in self.columns where !column.isUnique {
            _ = try await transaction.query(
                column.isMultiValued
                    ? "CREATE INDEX ON \(table) USING gin (\(column.quoted))"
                    : "CREATE INDEX ON \(table) (\(column.quoted), key)")
        }
    }

    func store(key: String, data: ByteBuffer, metadata: ByteBuffer?, in transaction: PostgresReadWriteTransaction)
        async throws
    {
        try await storeRow(decodeValues(transaction, data, metadata, key), key: key, in: transaction)
    }

    /// Stores the row of `item` at `key`.
    func written(_ item: any Sendable, key: String, in transaction: PostgresReadWriteTransaction) async throws {
        guard let values = values(item) else { return }
        try await storeRow(values, key: key, in: transaction)
    }

}
