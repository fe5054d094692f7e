/// An extension that keeps, in a table of its own keyed by `rowid`, one row for each readable
/// item of one collection: a secondary index, a full-text search. It says how its table is made
/// and how an item's row is written; its life (creation, population, every write, removal of
/// everything) is written once here.
protocol RowPerItemTable: ExtensionImplementation {
    /// The type of the items of the collection.
    associatedtype Item: Persistable

    /// The table and the statements that make and empty it.
    var rowTable: RowTableStatements { get }
    /// Whether writing an item's row replaces the row it had (an upsert), so that a changed item
    /// is written over in place; otherwise its row is deleted first (FTS5 removes a row's tokens
    /// only when the row is deleted).
    static var replacesInPlace: Bool { get }

    /// Throws when the definition cannot make the table.
    func validate(name: String) throws
    /// Writes the row of `item`, stored at `rowID` under `key`.
    func writeRow(_ item: Item, rowID: Int64, key: String, name: String, in context: ExtensionContext) throws
}

extension RowPerItemTable {
    var collection: String { Item.collection }
    var needsRemovedRows: Bool { false }

    func tableNames(name: String) -> [String] {
        [rowTable.table] + rowTable.sideTables
    }

    func create(name: String, in context: ExtensionContext) throws {
        try validate(name: name)
        try context.sqlite.execute(rowTable.create)
    }

    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        try ExtensionItems<Item>.forEachStored(name: name, in: context, progress: progress) { rowID, key, item in
            try writeRow(item, rowID: rowID, key: key, name: name, in: context)
        }
    }

    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        switch event.kind {
        case .touched:
            return
        case .removed:
            try deleteRow(rowID: event.rowID, in: context)
        case .inserted, .dataUpdated, .metadataUpdated:
            // An item that does not decode is left out: it has no row.
            let item = try ExtensionItems<Item>.resolveReadable(event, name: name, in: context)
            if event.kind != .inserted, item == nil || !Self.replacesInPlace {
                try deleteRow(rowID: event.rowID, in: context)
            }
            if let item {
                try writeRow(item, rowID: event.rowID, key: event.key, name: name, in: context)
            }
        }
    }

    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try context.sqlite.executeCached(rowTable.deleteAll)
        for delete in rowTable.sideDeleteAlls {
            try context.sqlite.executeCached(delete)
        }
    }

    /// Checks the names of the table's columns: each an identifier (ASCII letters, digits and
    /// underscores, not starting with a digit, at most 64 bytes), none in `reserved` (compared
    /// lowercased), and no two alike.
    ///
    /// - Parameters:
    ///   - names: The columns' names.
    ///   - reserved: Names the table cannot use, lowercased.
    ///   - bad: The error for a name that is not allowed.
    ///   - repeated: The error for a name used twice.
    func validateColumnNames(
        _ names: [String], reserved: Set<String>, bad: (String) -> TroveError, repeated: (String) -> TroveError
    ) throws {
        var seen: Set<String> = []
        for name in names {
            let bytes = Array(name.utf8)
            let isIdentifier =
                !bytes.isEmpty && bytes.count <= 64 && !(bytes[0] >= UInt8(ascii: "0") && bytes[0] <= UInt8(ascii: "9"))
                && bytes.allSatisfy { byte in
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
                }
            let lowered = name.lowercased()
            guard isIdentifier, !reserved.contains(lowered) else { throw bad(name) }
            guard seen.insert(lowered).inserted else { throw repeated(name) }
        }
    }

    /// Deletes the row of the item stored at `rowID`, if it has one, and its rows in the side
    /// tables.
    func deleteRow(rowID: Int64, in context: ExtensionContext) throws {
        try rowTable.deleteRows(rowID: rowID, in: context)
    }
}

/// The table of a ``RowPerItemTable`` and its statements, made once per definition: the runtime
/// finds a cached statement by its text, fastest when it is the same string each time.
struct RowTableStatements: Sendable {
    /// The name of the table.
    let table: String
    /// The statements that create the table (and its SQL indexes).
    let create: String
    /// Deletes the row of one `rowid` (`?1`).
    let delete: String
    /// Deletes every row.
    let deleteAll: String
    /// The tables of (item row id `item`, value) pairs kept with the table (a multi-valued column
    /// of a secondary index), created by ``create`` too, and emptied with it.
    let sideTables: [String]
    /// Delete the rows of one item (`?1`) from each side table.
    let sideDeletes: [String]
    /// Delete every row of each side table.
    let sideDeleteAlls: [String]

    init(table: String, create: String, sideTables: [String] = []) {
        self.table = table
        self.create = create
        delete = "DELETE FROM \"\(table)\" WHERE rowid = ?1"
        deleteAll = "DELETE FROM \"\(table)\""
        self.sideTables = sideTables
        sideDeletes = sideTables.map { "DELETE FROM \"\($0)\" WHERE item = ?1" }
        sideDeleteAlls = sideTables.map { "DELETE FROM \"\($0)\"" }
    }

    /// Deletes the row of the item stored at `rowID` and its rows in the side tables.
    func deleteRows(rowID: Int64, in context: ExtensionContext) throws {
        let statement = try context.sqlite.cachedStatement(delete)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        try statement.stepToEnd()
        try deleteSideRows(rowID: rowID, in: context)
    }

    /// Deletes the rows of the item stored at `rowID` from the side tables.
    func deleteSideRows(rowID: Int64, in context: ExtensionContext) throws {
        for sql in sideDeletes {
            let statement = try context.sqlite.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind(rowID, at: 1)
            try statement.stepToEnd()
        }
    }
}
