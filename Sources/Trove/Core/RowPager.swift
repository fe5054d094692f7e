// The engine of every enumeration: keyset paging.
//
// A page of rows (key, and the columns asked for, copied into one buffer) is read with
// `… WHERE collection = ? AND key > ? ORDER BY key LIMIT ?`, and the statement is reset before
// any row of the page is handed out. No statement is in the middle of a scan while the caller's
// code runs, so that code may read (the same statements included) and, in a read-write
// transaction, write: SQLite leaves a scan undefined when its table changes under it, a page
// that was read already is not.
//
// When a write happened since the page was read (the handle's count of changed rows moved), the
// rest of the page is dropped and read again after the last key handed out, so that every row is
// handed out as it is when it is reached: a key written after the current position is visited,
// a key removed before it is reached is not, a key changed before it is reached is visited with
// its new value. Memory stays bounded by one page, whatever the number of rows.

/// The columns an enumeration reads besides the key.
@usableFromInline
enum PagedColumns: Int, Sendable {
    case keys = 0
    case data = 1
    case metadata = 2
    case dataAndMetadata = 3

    var readsData: Bool { self == .data || self == .dataAndMetadata }
    var readsMetadata: Bool { self == .metadata || self == .dataAndMetadata }
}

/// One page of rows: keys, collections when the enumeration spans all collections, and the
/// bytes of the columns read, side by side in one buffer.
struct RowPage {
    var collections: [String] = []
    var keys: [String] = []
    var bytes: [UInt8] = []
    /// For each row, the start and end of its data in ``bytes`` (0, 0 when data is not read).
    var data: [(Int, Int)] = []
    /// For each row, the start and end of its metadata in ``bytes``; start -1 for `NULL`.
    var metadata: [(Int, Int)] = []

    var count: Int { keys.count }

    mutating func removeAll() {
        collections.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        data.removeAll(keepingCapacity: true)
        metadata.removeAll(keepingCapacity: true)
    }
}

/// Reads the rows of one collection, or of all, in order, one page at a time (see the top of
/// this file). A cursor keeps one across calls; the closure-based enumerations use one inside a
/// call.
@usableFromInline
final class RowPager {
    /// Rows per page: large enough that paging costs little next to a single scan, small enough
    /// that a page of typical items stays in the CPU's caches.
    static let defaultPageSize = 256

    let transaction: ReadTransaction
    /// The collection enumerated, or `nil` for all collections, in (collection, key) order.
    let collection: String?
    let columns: PagedColumns
    let pageSize: Int
    /// Called with (collection, key) of each row before it is handed out; rows it rejects are
    /// skipped without being decoded.
    let filter: ((String, String) throws -> Bool)?
    private(set) var page = RowPage()
    /// The next row of ``page`` to hand out.
    private var index = 0
    /// The row handed out last, where the next page starts (exclusive).
    private var after: (collection: String, key: String)?
    /// Whether the last page read was the last one (shorter than a page).
    private var exhausted = false
    /// The handle's count of changed rows when ``page`` was read.
    private var changesAtFetch: Int64 = -1

    init(
        transaction: ReadTransaction, collection: String?, columns: PagedColumns,
        pageSize: Int = RowPager.defaultPageSize, filter: ((String, String) throws -> Bool)?
    ) {
        self.transaction = transaction
        self.collection = collection
        self.columns = columns
        self.pageSize = max(1, pageSize)
        self.filter = filter
        if let collection {
            transaction.recorder?.recordCollection(collection)
        } else {
            transaction.recorder?.recordEverything()
        }
    }

    /// The index in ``page`` of the next row to hand out, or `nil` when there is none left.
    ///
    /// - Throws: ``TroveError`` with code ``TroveError/Code/misuse`` when the transaction has
    ///   ended, the error of the filter, or ``TroveError`` when SQLite fails.
    @usableFromInline
    func nextRow() throws -> Int? {
        guard transaction.isValid else {
            throw TroveError(
                code: .misuse,
                message:
                    "An enumeration cursor was used after its transaction ended. A cursor is valid only inside the closure of the transaction that made it.",
                collection: collection)
        }
        let sqlite = transaction.core.sqlite
        while true {
            let changes = sqlite.totalChanges
            if index >= page.count || changes != changesAtFetch {
                if index >= page.count && exhausted && changes == changesAtFetch {
                    return nil
                }
                try fetch()
                if page.count == 0 {
                    return nil
                }
            }
            let row = index
            index += 1
            let rowCollection = collection ?? page.collections[row]
            after = (rowCollection, page.keys[row])
            if let filter, try !filter(rowCollection, page.keys[row]) {
                continue
            }
            return row
        }
    }

    /// The collection of row `row` of the current page.
    @usableFromInline
    func collection(ofRow row: Int) -> String {
        collection ?? page.collections[row]
    }

    /// Calls `body` with the data and metadata bytes of row `row` of the current page (`nil`
    /// metadata for `NULL`, or when metadata is not read).
    @usableFromInline
    func withBytes<T>(
        ofRow row: Int, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> T
    ) rethrows -> T {
        try page.bytes.withUnsafeBytes { all in
            let (dataStart, dataEnd) = page.data[row]
            let data = UnsafeRawBufferPointer(rebasing: all[dataStart..<dataEnd])
            let (metadataStart, metadataEnd) = page.metadata[row]
            let metadata =
                metadataStart < 0 ? nil : UnsafeRawBufferPointer(rebasing: all[metadataStart..<metadataEnd])
            return try body(data, metadata)
        }
    }

    /// The key of row `row` of the current page.
    @usableFromInline
    func key(ofRow row: Int) -> String {
        page.keys[row]
    }

    /// Reads the page after ``after``, and resets the statement before returning.
    private func fetch() throws {
        let sqlite = transaction.checkedCore.sqlite
        let sql = Self.sql(columns: columns, allCollections: collection == nil, continuing: after != nil)
        let statement = try sqlite.cachedStatement(sql)
        defer { statement.reset() }
        if let collection {
            try statement.bind(collection, at: 1)
        } else if let after {
            try statement.bind(after.collection, at: 1)
        }
        try statement.bind(Int64(pageSize), at: 2)
        if let after {
            try statement.bind(after.key, at: 3)
        }
        page.removeAll()
        let all = collection == nil
        let keyColumn: Int32 = all ? 1 : 0
        var column = keyColumn + 1
        let dataColumn: Int32? = columns.readsData ? column : nil
        if columns.readsData { column += 1 }
        let metadataColumn: Int32? = columns.readsMetadata ? column : nil
        while try (collection.map { try statement.step(collection: $0, key: nil) } ?? statement.step()) {
            if all {
                page.collections.append(statement.string(at: 0))
            }
            page.keys.append(statement.string(at: keyColumn))
            if let dataColumn {
                let start = page.bytes.count
                page.bytes.append(contentsOf: statement.bytes(at: dataColumn))
                page.data.append((start, page.bytes.count))
            } else {
                page.data.append((0, 0))
            }
            if let metadataColumn, !statement.isNull(at: metadataColumn) {
                let start = page.bytes.count
                page.bytes.append(contentsOf: statement.bytes(at: metadataColumn))
                page.metadata.append((start, page.bytes.count))
            } else {
                page.metadata.append((-1, -1))
            }
        }
        index = 0
        exhausted = page.count < pageSize
        // Read after the statement finished: its own reads change nothing.
        changesAtFetch = sqlite.totalChanges
    }

    /// The statements of a page, one constant per form, so that the statement cache compares
    /// them by identity.
    private static let statements: [String] = {
        var result: [String] = []
        for columns in ["", ", data", ", metadata", ", data, metadata"] {
            for allCollections in [false, true] {
                for continuing in [false, true] {
                    let select = allCollections ? "SELECT collection, key\(columns)" : "SELECT key\(columns)"
                    let condition: String
                    switch (allCollections, continuing) {
                    case (false, false): condition = "WHERE collection = ?1"
                    case (false, true): condition = "WHERE collection = ?1 AND key > ?3"
                    case (true, false): condition = ""
                    case (true, true): condition = "WHERE (collection, key) > (?1, ?3)"
                    }
                    let order = allCollections ? "ORDER BY collection, key" : "ORDER BY key"
                    result.append("\(select) FROM trove_items \(condition)\(condition.isEmpty ? "" : " ")\(order) LIMIT ?2")
                }
            }
        }
        return result
    }()

    static func sql(columns: PagedColumns, allCollections: Bool, continuing: Bool) -> String {
        statements[columns.rawValue * 4 + (allCollections ? 2 : 0) + (continuing ? 1 : 0)]
    }
}

// Explicit non-conformance to Sendable: it belongs to a transaction, valid only in its closure.
@available(*, unavailable)
extension RowPager: Sendable {}
