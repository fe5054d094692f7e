/// How a ``FullTextSearch`` keeps its FTS5 table: the SQL, computed once per definition, and
/// the handling of each write.
struct FullTextSearchImplementation<Item: Persistable>: RowPerItemTable {
    let tokenizer: FullTextTokenizer
    let columns: [SearchColumn<Item>]
    let rowTable: RowTableStatements
    let fingerprint: String
    private let insertSQL: String

    init(name: String, tokenizer: FullTextTokenizer, columns: [SearchColumn<Item>]) {
        self.tokenizer = tokenizer
        self.columns = columns
        let table = "trove_ext_\(name)"
        // The weights are not part of it: they are arguments of bm25() in each query, and the
        // table does not depend on them.
        fingerprint =
            "fullTextSearch v1 \(Item.collection): tokenize '\(tokenizer.sql)'; "
            + columns.map(\.name).joined(separator: ", ")
        let quotedTable = "\"\(table)\""
        let names = columns.map { "\"\($0.name)\"" }
        rowTable = RowTableStatements(
            table: table,
            create:
                "CREATE VIRTUAL TABLE \(quotedTable) USING fts5(\(names.joined(separator: ", ")), tokenize = '\(tokenizer.sql)')")
        let parameters = (0...columns.count).map { "?\($0 + 1)" }
        insertSQL =
            "INSERT INTO \(quotedTable) (rowid\(names.map { ", " + $0 }.joined())) VALUES (\(parameters.joined(separator: ", ")))"
    }

    var kind: String { "fullTextSearch" }
    /// FTS5 removes a row's tokens only when the row is deleted: a changed item's row is deleted,
    /// then inserted.
    static var replacesInPlace: Bool { false }

    /// The name of the search's FTS5 table. Dropping it drops its shadow tables (`_data`,
    /// `_idx`, `_content`, ...).
    var table: String { rowTable.table }

    // MARK: Rows

    /// Inserts the FTS5 row of `item`: the text of each column, or `NULL` where it has none.
    func writeRow(_ item: Item, rowID: Int64, key: String, name: String, in context: ExtensionContext) throws {
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
        try validateColumnNames(
            columns.map(\.name), reserved: ["rowid", "rank", table.lowercased()],
            bad: { column in
                TroveError(
                    code: .extensionFailed,
                    message:
                        "'\(column)' cannot name a column of the full-text search '\(name)': use ASCII letters, digits and underscores, not starting with a digit, and not 'rowid', 'rank' or the table's name.",
                    field: column, extensionName: name)
            },
            repeated: { column in
                TroveError(
                    code: .extensionFailed,
                    message: "The full-text search '\(name)' has two columns named '\(column)'.",
                    field: column, extensionName: name)
            })
        for column in columns {
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
