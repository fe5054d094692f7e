/// How a ``FullTextSearch`` keeps its FTS5 table: the SQL, computed once per definition, and
/// the handling of each write.
struct FullTextSearchImplementation<Item: Persistable>: ExtensionImplementation {
    let tokenizer: FullTextTokenizer
    let columns: [SearchColumn<Item>]
    let table: String
    let fingerprint: String
    private let createSQL: String
    private let insertSQL: String
    private let deleteSQL: String
    private let deleteAllSQL: String

    init(name: String, tokenizer: FullTextTokenizer, columns: [SearchColumn<Item>]) {
        self.tokenizer = tokenizer
        self.columns = columns
        table = "trove_ext_\(name)"
        // The weights are not part of it: they are arguments of bm25() in each query, and the
        // table does not depend on them.
        fingerprint =
            "fullTextSearch v1 \(Item.collection): tokenize '\(tokenizer.sql)'; "
            + columns.map(\.name).joined(separator: ", ")
        let quotedTable = "\"\(table)\""
        let names = columns.map { "\"\($0.name)\"" }
        createSQL =
            "CREATE VIRTUAL TABLE \(quotedTable) USING fts5(\(names.joined(separator: ", ")), tokenize = '\(tokenizer.sql)')"
        let parameters = (0...columns.count).map { "?\($0 + 1)" }
        insertSQL =
            "INSERT INTO \(quotedTable) (rowid\(names.map { ", " + $0 }.joined())) VALUES (\(parameters.joined(separator: ", ")))"
        deleteSQL = "DELETE FROM \(quotedTable) WHERE rowid = ?1"
        deleteAllSQL = "DELETE FROM \(quotedTable)"
    }

    var kind: String { "fullTextSearch" }
    var collection: String { Item.collection }
    var needsRemovedRows: Bool { false }

    func tableNames(name: String) -> [String] {
        // Dropping the FTS5 table drops its shadow tables (`_data`, `_idx`, `_content`, ...).
        [table]
    }

    func create(name: String, in context: ExtensionContext) throws {
        try validate(name: name)
        try context.sqlite.execute(createSQL)
    }

    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        try ExtensionItems<Item>.forEachStored(name: name, in: context, progress: progress) { rowID, _, item in
            try insert(item, rowID: rowID, in: context)
        }
    }

    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        switch event.kind {
        case .touched:
            return
        case .removed:
            try delete(rowID: event.rowID, in: context)
        case .inserted:
            // An item that does not decode is left out: it has no row.
            if let item = try ExtensionItems<Item>.resolveReadable(event, name: name, in: context) {
                try insert(item, rowID: event.rowID, in: context)
            }
        case .dataUpdated, .metadataUpdated:
            // An FTS5 row is replaced by deleting it (which removes its tokens) and inserting it.
            let item = try ExtensionItems<Item>.resolveReadable(event, name: name, in: context)
            try delete(rowID: event.rowID, in: context)
            if let item {
                try insert(item, rowID: event.rowID, in: context)
            }
        }
    }

    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try context.sqlite.executeCached(deleteAllSQL)
    }

    // MARK: Rows

    private func insert(_ item: Item, rowID: Int64, in context: ExtensionContext) throws {
        let statement = try context.sqlite.cachedStatement(insertSQL)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        var offset = 0
        while offset < columns.count {
            if let text = columns[offset].text(item) {
                try statement.bind(text, at: Int32(offset + 2))
            } else {
                try statement.bindNull(at: Int32(offset + 2))
            }
            offset += 1
        }
        try statement.stepToEnd()
    }

    private func delete(rowID: Int64, in context: ExtensionContext) throws {
        let statement = try context.sqlite.cachedStatement(deleteSQL)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        try statement.stepToEnd()
    }

    /// Throws when the definition cannot make a table: no column, a bad or repeated column
    /// name, a weight that is not finite, or diacritics removal other than 0, 1 or 2.
    func validate(name: String) throws {
        if case .unicode61(let removeDiacritics) = tokenizer, !(0...2).contains(removeDiacritics) {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The full-text search '\(name)' asks unicode61 to remove diacritics with \(removeDiacritics): use 0, 1 or 2.",
                extensionName: name)
        }
        guard !columns.isEmpty else {
            throw TroveError(
                code: .extensionFailed, message: "The full-text search '\(name)' has no column.", extensionName: name)
        }
        var seen: Set<String> = []
        for column in columns {
            let bytes = Array(column.name.utf8)
            let isIdentifier =
                !bytes.isEmpty && bytes.count <= 64 && !(bytes[0] >= UInt8(ascii: "0") && bytes[0] <= UInt8(ascii: "9"))
                && bytes.allSatisfy { byte in
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
                }
            let lowered = column.name.lowercased()
            guard isIdentifier, lowered != "rowid", lowered != "rank", lowered != table.lowercased() else {
                throw TroveError(
                    code: .extensionFailed,
                    message:
                        "'\(column.name)' cannot name a column of the full-text search '\(name)': use ASCII letters, digits and underscores, not starting with a digit, and not 'rowid', 'rank' or the table's name.",
                    field: column.name, extensionName: name)
            }
            guard seen.insert(lowered).inserted else {
                throw TroveError(
                    code: .extensionFailed,
                    message: "The full-text search '\(name)' has two columns named '\(column.name)'.",
                    field: column.name, extensionName: name)
            }
            guard column.weight.isFinite else {
                throw TroveError(
                    code: .extensionFailed,
                    message:
                        "The column '\(column.name)' of the full-text search '\(name)' has the weight \(column.weight): use a finite number.",
                    field: column.name, extensionName: name)
            }
        }
    }
}
