import Foundation

/// How a ``SecondaryIndex`` keeps its table: the SQL, computed once per definition, and the
/// handling of each write.
///
/// The table holds, per item, its row id, its stored key (column ``IndexQueryPlanner/keyColumn``) and the values
/// of the columns. Each column that is not unique has an SQLite index on the column and then the
/// key, in the order queries give ties (``ItemKeyOrder``): an equality query returns its rows in
/// key order from that index alone, with no sort, and a `LIMIT` reads only the rows it returns.
/// A unique column has a unique index on the column alone.
struct SecondaryIndexImplementation<Item: Persistable>: RowPerItemTable {
    let columns: [IndexColumn<Item>]
    let rowTable: RowTableStatements
    let fingerprint: String
    private let upsertSQL: String

    init(name: String, columns: [IndexColumn<Item>]) {
        self.columns = columns
        let table = "trove_ext_\(name)"
        let keyOrder = ItemKeyOrder(of: Item.ID.self)
        // v2: the key in the table, and an index on each column that is not unique then the key.
        fingerprint =
            "secondaryIndex v2 \(Item.collection)\(keyOrder == .integer ? " integer keys" : ""): "
            + columns.map { "\($0.name) \($0.type.rawValue)\($0.isUnique ? " UNIQUE" : "")" }.joined(separator: ", ")
        let quotedTable = "\"\(table)\""
        let key = "\"\(IndexQueryPlanner.keyColumn)\""
        var create = "CREATE TABLE \(quotedTable) (rowid INTEGER PRIMARY KEY, \(key) TEXT NOT NULL"
        for column in columns {
            create += ", \"\(column.name)\" \(column.type.rawValue)"
        }
        create += ");"
        for column in columns {
            let terms = column.isUnique ? "" : ", " + keyOrder.orderingTerms(of: key)
            create +=
                " CREATE \(column.isUnique ? "UNIQUE " : "")INDEX \"\(table)_\(column.name)\" ON \(quotedTable) (\"\(column.name)\"\(terms));"
        }
        rowTable = RowTableStatements(table: table, create: create)
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

    /// Throws when a column cannot be made: a bad or repeated name.
    func validate(name: String) throws {
        try validateColumnNames(
            columns.map(\.name), reserved: ["rowid", IndexQueryPlanner.keyColumn],
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
        TroveError(
            code: .uniqueViolation,
            message:
                "The unique index '\(index)' already has \(value.description) in '\(column)', for the item '\(other)'; the item '\(key)' cannot have it too. The transaction is rolled back.",
            collection: collection, key: key, field: column, extensionName: index,
            sqliteResultCode: (cause as? TroveError)?.sqliteResultCode, underlyingError: cause)
    }
}
