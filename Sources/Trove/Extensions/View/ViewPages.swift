/// Where a view's pages are read from: the file's tables at the transaction's snapshot
/// (``SQLiteViewPages``) or a version kept in memory (``ViewMemoryState``). The layout is the same
/// (see ``ViewStorage``): groups are lists of pages of row ids, and a map gives each row its page.
protocol ViewPageSource {
    /// The pages of `group`, in order.
    func groupPages(_ group: String) throws -> [ViewPageRef]
    /// The group and rows of page `id`.
    func page(_ id: Int64) throws -> (group: String, rows: [Int64])
    /// The page that holds `rowID`, or 0 when the row is not in the view.
    func pageOfRow(_ rowID: Int64) throws -> Int64
    /// Every group with its number of rows, unsorted.
    func groupCounts() throws -> [(group: String, count: Int)]
    /// The number of rows of `group`, or of every group.
    func count(group: String?) throws -> Int
    /// Every row of the view with its page.
    func allRows() throws -> [(rowID: Int64, page: Int64)]
}

extension ViewPageSource {
    /// The position of the stored row `collection`/`key` in the view, or `nil` when it is not in
    /// the view: its row id is looked up, then its page and the pages before it in its group.
    func indexPath(ofKey key: String, in collection: String, sqlite: SQLiteConnection) throws -> ViewIndexPath? {
        let statement = try sqlite.cachedStatement(FileLayout.selectRowID)
        let rowID: Int64
        do {
            defer { statement.reset() }
            try statement.bind(collection, at: 1)
            try statement.bind(key, at: 2)
            guard try statement.step() else { return nil }
            rowID = statement.int64(at: 0)
        }
        let pageID = try pageOfRow(rowID)
        guard pageID != 0 else { return nil }
        let page = try page(pageID)
        var offset = 0
        for ref in try groupPages(page.group) {
            if ref.id == pageID { break }
            offset += ref.count
        }
        guard let index = page.rows.firstIndex(of: rowID) else { return nil }
        return ViewIndexPath(group: page.group, index: offset + index)
    }

    /// The row ids of `group` in `range`, clamped to the group's rows: the page list is summed to
    /// skip the pages before the range, then only the pages that hold it are read.
    func rowIDs(in group: String, range: Range<Int>?) throws -> [Int64] {
        let pages = try groupPages(group)
        let total = pages.reduce(0) { $0 + $1.count }
        let wanted = (range ?? 0..<total).clamped(to: 0..<total)
        guard !wanted.isEmpty else { return [] }
        var result: [Int64] = []
        result.reserveCapacity(wanted.count)
        var offset = 0
        for page in pages {
            defer { offset += page.count }
            if offset + page.count <= wanted.lowerBound { continue }
            if offset >= wanted.upperBound { break }
            let rows = try self.page(page.id).rows
            let lower = Swift.max(wanted.lowerBound - offset, 0)
            let upper = Swift.min(wanted.upperBound - offset, rows.count)
            result.append(contentsOf: rows[lower..<upper])
        }
        return result
    }
}

/// Pages that a write transaction changes: what ``ViewWriteState`` and a build write through.
protocol ViewPageStore: ViewPageSource {
    /// Stores a new page and returns its id, never used before.
    func insertPage(group: String, ord: Int64, rows: [Int64]) throws -> Int64
    /// Replaces the rows of page `id`, and its place when `ord` is not `nil`.
    func updatePage(_ id: Int64, ord: Int64?, rows: [Int64]) throws
    /// Deletes page `id`.
    func deletePage(_ id: Int64) throws
    /// Sets the page of `rowID` (0: the row leaves the view).
    func setPage(_ page: Int64, ofRow rowID: Int64) throws
    /// Deletes every page and every row.
    func deleteAll() throws
    /// Records `key` as the key of the row `rowID` of a manual view (see ``ViewStorage``).
    func setKey(_ key: String, ofRow rowID: Int64) throws
    /// The key of every row of a manual view, by row id; empty for other views.
    func allKeys() throws -> [Int64: String]
}

/// The pages of a view in the file (``View/Storage-swift.enum/persistent`` and
/// ``View/Storage-swift.enum/rebuiltAtLaunch``), read and written with the statements of
/// ``ViewStorage`` on one connection.
struct SQLiteViewPages: ViewPageStore {
    let storage: ViewStorage
    let sqlite: SQLiteConnection

    func groupPages(_ group: String) throws -> [ViewPageRef] {
        try storage.groupPages(group, in: sqlite)
    }

    func page(_ id: Int64) throws -> (group: String, rows: [Int64]) {
        try storage.page(id, in: sqlite)
    }

    func pageOfRow(_ rowID: Int64) throws -> Int64 {
        try storage.pageOfRow(rowID, in: sqlite)
    }

    func groupCounts() throws -> [(group: String, count: Int)] {
        try storage.groupCounts(in: sqlite)
    }

    func count(group: String?) throws -> Int {
        try storage.count(group: group, in: sqlite)
    }

    func allRows() throws -> [(rowID: Int64, page: Int64)] {
        try storage.allRows(in: sqlite)
    }

    func insertPage(group: String, ord: Int64, rows: [Int64]) throws -> Int64 {
        try storage.insertPage(group: group, ord: ord, rows: rows, in: sqlite)
    }

    func updatePage(_ id: Int64, ord: Int64?, rows: [Int64]) throws {
        try storage.updatePage(id, ord: ord, rows: rows, in: sqlite)
    }

    func deletePage(_ id: Int64) throws {
        try storage.deletePage(id, in: sqlite)
    }

    func setPage(_ page: Int64, ofRow rowID: Int64) throws {
        try storage.setPage(page, ofRow: rowID, in: sqlite)
    }

    func deleteAll() throws {
        try storage.deleteAll(in: sqlite)
    }

    func setKey(_ key: String, ofRow rowID: Int64) throws {
        try storage.setKey(key, ofRow: rowID, in: sqlite)
    }

    func allKeys() throws -> [Int64: String] {
        try storage.allKeys(in: sqlite)
    }
}

// Explicit non-conformance to Sendable: it holds a connection's SQLite handle.
@available(*, unavailable)
extension SQLiteViewPages: Sendable {}
