import Foundation

/// How a ``SecondaryIndex`` keeps its table: the SQL, computed once per definition, and the
/// handling of each write.
///
/// The table holds, per item, its row id, its stored key (column ``IndexQueryPlanner/keyColumn``) and the values
/// of the columns. Each column that is not unique has an SQLite index on the column and then the
/// key, in the order queries give ties (``ItemKeyOrder``): an equality query returns its rows in
/// key order from that index alone, with no sort, and a `LIMIT` reads only the rows it returns.
/// A unique column has a unique index on the column alone.
///
/// A multi-valued column (``IndexColumn/values(_:unique:_:)``) has no column in that table but
/// a table of its own (``SecondaryIndexValuesTable``): one row per item and distinct value,
/// keyed by (value, item row id), with an SQLite index on the row id. A query looks a value up
/// in the key and keeps the index rows whose row ids it finds (`IN`, a semi-join: no item twice);
/// a write deletes the item's pairs by row id and inserts its values again; a removal deletes
/// them. A table of pairs rather than the values encoded in one column (JSON, a delimited text)
/// because that is what SQLite can index: a lookup by value is a search in a B-tree instead of a
/// scan of every item's values.
struct SecondaryIndexImplementation<Item: Persistable>: RowPerItemTable {
    /// The single-valued columns, in the order of the table's columns.
    let columns: [IndexColumn<Item>]
    /// The multi-valued columns.
    let multiValuedColumns: [IndexColumn<Item>]
    /// Every column, in the order of the definition.
    let definedColumns: [IndexColumn<Item>]
    let rowTable: RowTableStatements
    let fingerprint: String
    private let upsertSQL: String
    /// For each multi-valued column, the statement that inserts one (item, value) pair.
    private let insertValueSQL: [String]

    init(name: String, columns allColumns: [IndexColumn<Item>]) {
        let columns = allColumns.filter { !$0.isMultiValued }
        self.columns = columns
        multiValuedColumns = allColumns.filter(\.isMultiValued)
        definedColumns = allColumns
        let table = "trove_ext_\(name)"
        let keyOrder = ItemKeyOrder(of: Item.ID.self)
        // v2: the key in the table, and an index on each column that is not unique then the key.
        fingerprint =
            "secondaryIndex v2 \(Item.collection)\(keyOrder == .integer ? " integer keys" : ""): "
            + allColumns.map {
                "\($0.name) \($0.type.rawValue)\($0.isUnique ? " UNIQUE" : "")\($0.isMultiValued ? " VALUES" : "")"
            }.joined(separator: ", ")
        let quotedTable = "\"\(table)\""
        let key = "\"\(IndexQueryPlanner.keyColumn)\""
        var create = "CREATE TABLE \(quotedTable) (rowid INTEGER PRIMARY KEY, \(key) TEXT NOT NULL"
        for column in columns {
            create += ", \"\(column.name)\" \(column.type.rawValue)"
        }
        create += ");"
        var sideTables: [String] = []
        var insertValueSQL: [String] = []
        for column in multiValuedColumns {
            let side = SecondaryIndexValuesTable.name(of: table, column: column.name)
            sideTables.append(side)
            create +=
                " CREATE TABLE \"\(side)\" (value \(column.type.rawValue) NOT NULL, item INTEGER NOT NULL, PRIMARY KEY (value, item)) WITHOUT ROWID;"
            create += " CREATE INDEX \"\(side)_item\" ON \"\(side)\" (item);"
            // A value repeated in one item's collection is kept once.
            insertValueSQL.append("INSERT OR IGNORE INTO \"\(side)\" (value, item) VALUES (?1, ?2)")
        }
        self.insertValueSQL = insertValueSQL
        for column in columns {
            let terms = column.isUnique ? "" : ", " + keyOrder.orderingTerms(of: key)
            create +=
                " CREATE \(column.isUnique ? "UNIQUE " : "")INDEX \"\(table)_\(column.name)\" ON \(quotedTable) (\"\(column.name)\"\(terms));"
        }
        rowTable = RowTableStatements(table: table, create: create, sideTables: sideTables)
        let names = [key] + columns.map { "\"\($0.name)\"" }
        let parameters = (0...names.count).map { "?\($0 + 1)" }
        var upsert = "INSERT INTO \(quotedTable) (rowid\(names.map { ", " + $0 }.joined())) VALUES (\(parameters.joined(separator: ", ")))"
        upsert += " ON CONFLICT (rowid) DO UPDATE SET " + names.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        upsertSQL = upsert
    }

    var kind: String { "secondaryIndex" }
    /// A changed item's row is written over by the upsert.
    static var replacesInPlace: Bool { true }

    /// The name of the index's table.
    var table: String { rowTable.table }

    // MARK: Rows

    /// Writes the index row of `item` (an upsert), or throws ``TroveError/Code/uniqueViolation``
    /// naming both items when a unique column already holds one of its values.
    func writeRow(_ item: Item, rowID: Int64, key: String, name: String, in context: ExtensionContext) throws {
        let statement = try context.sqlite.cachedStatement(upsertSQL)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        try statement.bind(key, at: 2)
        // An index loop, not `enumerated()`: this code is not specialized for `Item`, and the
        // generic iterator of `enumerated()` cost about 4,600 instructions per row with two columns.
        var offset = 0
        while offset < columns.count {
            try statement.bind(columns[offset].value(item), at: Int32(offset + 3))
            offset += 1
        }
        do {
            try statement.stepToEnd()
        } catch let error as TroveError where error.sqliteResultCode == 2067 {  // SQLITE_CONSTRAINT_UNIQUE
            statement.reset()
            let values = columns.map { $0.value(item) }
            throw try uniqueViolation(values: values, rowID: rowID, key: key, name: name, in: context, cause: error)
        }
        if !multiValuedColumns.isEmpty {
            try writeValues(item, rowID: rowID, in: context)
        }
    }

    /// Writes the pairs of `item`'s multi-valued columns: its old pairs deleted (an update that
    /// changes the values, or keeps them), its values inserted, each distinct value once.
    private func writeValues(_ item: Item, rowID: Int64, in context: ExtensionContext) throws {
        try rowTable.deleteSideRows(rowID: rowID, in: context)
        for (offset, column) in multiValuedColumns.enumerated() {
            let values = column.values(item)
            guard !values.isEmpty else { continue }
            let statement = try context.sqlite.cachedStatement(insertValueSQL[offset])
            defer { statement.reset() }
            for value in values {
                try statement.bind(value, at: 1)
                try statement.bind(rowID, at: 2)
                try statement.stepToEnd()
                statement.reset()
            }
        }
    }

    /// The error of a write whose values are already another item's in a unique column.
    private func uniqueViolation(
        values: [IndexValue], rowID: Int64, key: String, name: String, in context: ExtensionContext, cause: TroveError
    ) throws -> TroveError {
        for (offset, column) in columns.enumerated() where column.isUnique && values[offset] != .null {
            let statement = try context.sqlite.makeStatement(
                "SELECT \"\(IndexQueryPlanner.keyColumn)\" FROM \"\(table)\" WHERE \"\(column.name)\" = ?1 AND rowid != ?2 LIMIT 1"
            )
            try statement.bind(values[offset], at: 1)
            try statement.bind(rowID, at: 2)
            guard try statement.step() else { continue }
            return .uniqueViolation(
                index: name, value: values[offset], column: column.name, heldBy: statement.string(at: 0), key: key,
                collection: Item.collection, cause: cause)
        }
        return cause
    }

    /// Throws when a column cannot be made: a bad or repeated name, or a unique multi-valued
    /// column.
    func validate(name: String) throws {
        if let column = multiValuedColumns.first(where: \.isUnique) {
            throw TroveError.uniqueMultiValuedColumn(column.name, index: name, collection: Item.collection)
        }
        try validateColumnNames(
            (columns + multiValuedColumns).map(\.name), reserved: ["rowid", IndexQueryPlanner.keyColumn],
            bad: { column in
                TroveError(
                    code: .extensionFailed,
                    message:
                        "'\(column)' cannot name a column of the index '\(name)': use ASCII letters, digits and underscores, not starting with a digit, and neither 'rowid' nor '\(IndexQueryPlanner.keyColumn)'.",
                    field: column, extensionName: name)
            },
            repeated: { column in
                TroveError(
                    code: .extensionFailed, message: "The index '\(name)' has two columns named '\(column)'.",
                    field: column, extensionName: name)
            })
    }
}

/// The table of (value, item row id) pairs of a multi-valued column of a secondary index.
enum SecondaryIndexValuesTable {
    /// The name of the table of `column` of the index whose table is `table`:
    /// `trove_ext_<index>$<column>`. `$` is in no index or column name, so no two columns of two
    /// indexes share a table, nor take the name of another extension's table.
    static func name(of table: String, column: String) -> String {
        "\(table)$\(column)"
    }
}

extension TroveError {
    /// The refusal of a unique multi-valued column, in every engine's words.
    package static func uniqueMultiValuedColumn(_ column: String, index: String, collection: String) -> TroveError {
        TroveError(
            code: .extensionFailed,
            message:
                "The multi-valued column '\(column)' of the index '\(index)' cannot be unique: Trove does not enforce uniqueness over several values per item. Define it without unique: true.",
            collection: collection, field: column, extensionName: index)
    }
}

extension IndexValue: CustomStringConvertible {
    /// The value as SQL would write it: `NULL`, `42`, `'text'`, `x'00ff'`.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value.replacingOccurrences(of: "'", with: "''"))'"
        case .blob(let bytes): "x'" + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() + "'"
        }
    }
}

extension String {
    fileprivate func leftPadded(to count: Int) -> String {
        String(repeating: "0", count: Swift.max(0, count - self.count)) + self
    }
}

extension Statement {
    /// Binds a value of an index column (blobs as a copy).
    func bind(_ value: IndexValue, at index: Int32) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bytes.withUnsafeBytes { try bindCopy($0, at: index) }
        }
    }
}

extension TroveError {
    /// The error of a write whose `value` in the unique `column` of the index `index` is already
    /// the item `other`'s, in every engine's words.
    package static func uniqueViolation(
        index: String, value: IndexValue, column: String, heldBy other: String, key: String, collection: String,
        cause: (any Error)?
    ) -> TroveError {
        var error = TroveError(
            code: .uniqueViolation,
            message:
                "The unique index '\(index)' already has \(value.description) in '\(column)', for the item '\(other)'; the item '\(key)' cannot have it too. The transaction is rolled back.",
            collection: collection, key: key, field: column, extensionName: index,
            sqliteResultCode: (cause as? TroveError)?.sqliteResultCode, underlyingError: cause)
        error.otherKey = other
        return error
    }
}
