/// How a view keeps its ordered membership in the file: pages of row ids.
///
/// ## Layout
///
/// Two tables per view:
///
/// - `trove_ext_<name>_pages` (`id`, `grp`, `ord`, `count`, `rows`): each group is a list of
///   pages ordered by `ord`; a page holds up to ``maximumPageSize`` row ids of `trove_items`, in
///   the view's order, as little-endian 64-bit integers in the `rows` blob, and their number in
///   `count`, so that an index is found by summing counts without reading the blobs.
/// - `trove_ext_<name>_map` (`rowid`, `page`): the page of each row in the view.
/// - For a manual view only, `trove_ext_<name>_keys` (`rowid`, `key`): the key of each row, as
///   the app placed it, so that a rebuild after another process wrote the collection keeps the
///   rows whose items are still stored (see ``ViewImplementation/populate(name:in:progress:)``):
///   nothing else says where they go.
///
/// The tables are made with `IF NOT EXISTS`, so that the tables a rebuild keeps
/// (``ViewImplementation/tablesKeptByRebuild(name:storedFingerprint:)``) are found as they were.
///
/// Page ids come from `AUTOINCREMENT`: a page id is never used again, also after every page was
/// deleted, so that a transaction's record of its pages before it began stays unambiguous.
///
/// ## Page size and the split and merge rule
///
/// A page holds at most 50 rows. An insert that makes a page hold 51 splits it in two: the first
/// 25 rows stay, the other 26 move to a new page placed right after it. A removal that empties a
/// page deletes it; one that leaves fewer than 13 rows merges the page into a neighbour (the
/// previous one, else the next) when both fit in one page. An insert or removal therefore
/// rewrites one page, or two and at most 50 map rows when it splits or merges; finding the place
/// of an insert costs O(log p) page reads and O(log n) comparisons, p pages and n rows in the
/// group. `ord` leaves gaps (2³² between pages of a fresh group); a split takes the middle of the
/// gap, and a group whose gap is used up is renumbered, once in about 32 splits at one place.
///
/// A build writes pages of 33 rows (``buildPageSize``): full pages would split at the first
/// insert into each, which rewrites 26 map rows.
struct ViewStorage: Sendable {
    /// The largest number of rows in a page.
    static let maximumPageSize = 50
    /// A page with fewer rows after a removal merges into a neighbour when they fit together.
    static let minimumPageSize = 13
    /// The rows of a page that a build writes: two thirds of ``maximumPageSize``, so that the
    /// first inserts into a page of a fresh build do not split it (a split rewrites the map rows
    /// of the 26 rows it moves, on as many b-tree pages).
    static let buildPageSize = maximumPageSize * 2 / 3
    /// The gap of `ord` between consecutive pages of a group when it is numbered.
    static let ordinalGap: Int64 = 1 << 32

    /// The name of the view, for error messages.
    let viewName: String
    let pagesTable: String
    let mapTable: String
    /// The table of the rows' keys, for a manual view; `nil` for a view whose closures place
    /// the rows.
    let keysTable: String?
    let createSQL: String
    let selectGroupPagesSQL: String
    let selectPageSQL: String
    let insertPageSQL: String
    let updatePageSQL: String
    let updatePageRowsSQL: String
    let deletePageSQL: String
    let selectMapSQL: String
    let upsertMapSQL: String
    let deleteMapSQL: String
    let selectGroupsSQL: String
    let countAllSQL: String
    let countGroupSQL: String
    let selectAllMapSQL: String
    let deleteAllSQL: String
    let upsertKeySQL: String
    let deleteKeySQL: String
    let selectAllKeysSQL: String

    /// The statements of the view `name`; `keepsKeys` adds the table of the rows' keys (a
    /// manual view).
    init(name: String, keepsKeys: Bool = false) {
        viewName = name
        pagesTable = "trove_ext_\(name)_pages"
        mapTable = "trove_ext_\(name)_map"
        keysTable = keepsKeys ? "trove_ext_\(name)_keys" : nil
        let pages = "\"\(pagesTable)\""
        let map = "\"\(mapTable)\""
        let keys = "\"trove_ext_\(name)_keys\""
        createSQL = """
            CREATE TABLE IF NOT EXISTS \(pages) (id INTEGER PRIMARY KEY AUTOINCREMENT, grp TEXT NOT NULL, \
            ord INTEGER NOT NULL, count INTEGER NOT NULL, rows BLOB NOT NULL); \
            CREATE INDEX IF NOT EXISTS "\(pagesTable)_grp" ON \(pages) (grp, ord); \
            CREATE TABLE IF NOT EXISTS \(map) (rowid INTEGER PRIMARY KEY, page INTEGER NOT NULL);
            """ + (keepsKeys ? " CREATE TABLE IF NOT EXISTS \(keys) (rowid INTEGER PRIMARY KEY, key TEXT NOT NULL);" : "")
        selectGroupPagesSQL = "SELECT id, ord, count FROM \(pages) WHERE grp = ?1 ORDER BY ord"
        selectPageSQL = "SELECT grp, rows FROM \(pages) WHERE id = ?1"
        insertPageSQL = "INSERT INTO \(pages) (grp, ord, count, rows) VALUES (?1, ?2, ?3, ?4)"
        updatePageSQL = "UPDATE \(pages) SET ord = ?2, count = ?3, rows = ?4 WHERE id = ?1"
        updatePageRowsSQL = "UPDATE \(pages) SET count = ?3, rows = ?4 WHERE id = ?1"
        deletePageSQL = "DELETE FROM \(pages) WHERE id = ?1"
        selectMapSQL = "SELECT page FROM \(map) WHERE rowid = ?1"
        upsertMapSQL = "INSERT INTO \(map) (rowid, page) VALUES (?1, ?2) ON CONFLICT (rowid) DO UPDATE SET page = excluded.page"
        deleteMapSQL = "DELETE FROM \(map) WHERE rowid = ?1"
        selectGroupsSQL = "SELECT grp, sum(count) FROM \(pages) GROUP BY grp"
        countAllSQL = "SELECT coalesce(sum(count), 0) FROM \(pages)"
        countGroupSQL = "SELECT coalesce(sum(count), 0) FROM \(pages) WHERE grp = ?1"
        selectAllMapSQL = "SELECT rowid, page FROM \(map)"
        deleteAllSQL = "DELETE FROM \(pages); DELETE FROM \(map);" + (keepsKeys ? " DELETE FROM \(keys);" : "")
        upsertKeySQL = "INSERT INTO \(keys) (rowid, key) VALUES (?1, ?2) ON CONFLICT (rowid) DO UPDATE SET key = excluded.key"
        deleteKeySQL = "DELETE FROM \(keys) WHERE rowid = ?1"
        selectAllKeysSQL = "SELECT rowid, key FROM \(keys)"
    }

    var tableNames: [String] { [pagesTable, mapTable] + (keysTable.map { [$0] } ?? []) }

    // MARK: Reading

    /// The pages of `group`, in order.
    func groupPages(_ group: String, in sqlite: SQLiteConnection) throws -> [ViewPageRef] {
        let statement = try sqlite.cachedStatement(selectGroupPagesSQL)
        defer { statement.reset() }
        try statement.bind(group, at: 1)
        var pages: [ViewPageRef] = []
        while try statement.step() {
            pages.append(
                ViewPageRef(id: statement.int64(at: 0), ord: statement.int64(at: 1), count: Int(statement.int64(at: 2))))
        }
        return pages
    }

    /// The group and rows of page `id`.
    func page(_ id: Int64, in sqlite: SQLiteConnection) throws -> (group: String, rows: [Int64]) {
        let statement = try sqlite.cachedStatement(selectPageSQL)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step() else {
            throw TroveError.viewDamaged(viewName, "a page of its rows is missing")
        }
        return (statement.string(at: 0), Self.decodeRows(statement.bytes(at: 1)))
    }

    /// The page that holds `rowID`, or 0 when the row is not in the view.
    func pageOfRow(_ rowID: Int64, in sqlite: SQLiteConnection) throws -> Int64 {
        let statement = try sqlite.cachedStatement(selectMapSQL)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        return try statement.step() ? statement.int64(at: 0) : 0
    }

    /// Every group with its number of rows, unsorted.
    func groupCounts(in sqlite: SQLiteConnection) throws -> [(group: String, count: Int)] {
        let statement = try sqlite.cachedStatement(selectGroupsSQL)
        defer { statement.reset() }
        var groups: [(String, Int)] = []
        while try statement.step() {
            groups.append((statement.string(at: 0), Int(statement.int64(at: 1))))
        }
        return groups
    }

    /// The number of rows of `group`, or of every group.
    func count(group: String?, in sqlite: SQLiteConnection) throws -> Int {
        let statement = try sqlite.cachedStatement(group == nil ? countAllSQL : countGroupSQL)
        defer { statement.reset() }
        if let group { try statement.bind(group, at: 1) }
        guard try statement.step() else { return 0 }
        return Int(statement.int64(at: 0))
    }

    /// The key of every row of a manual view, by row id, as the app placed them.
    func allKeys(in sqlite: SQLiteConnection) throws -> [Int64: String] {
        guard keysTable != nil else { return [:] }
        let statement = try sqlite.cachedStatement(selectAllKeysSQL)
        defer { statement.reset() }
        var keys: [Int64: String] = [:]
        while try statement.step() {
            keys[statement.int64(at: 0)] = statement.string(at: 1)
        }
        return keys
    }

    /// Every row of the view with its page.
    func allRows(in sqlite: SQLiteConnection) throws -> [(rowID: Int64, page: Int64)] {
        let statement = try sqlite.cachedStatement(selectAllMapSQL)
        defer { statement.reset() }
        var rows: [(Int64, Int64)] = []
        while try statement.step() {
            rows.append((statement.int64(at: 0), statement.int64(at: 1)))
        }
        return rows
    }

    // MARK: Writing

    /// Stores a new page and returns its id.
    func insertPage(group: String, ord: Int64, rows: [Int64], in sqlite: SQLiteConnection) throws -> Int64 {
        let statement = try sqlite.cachedStatement(insertPageSQL)
        defer { statement.reset() }
        try statement.bind(group, at: 1)
        try statement.bind(ord, at: 2)
        try statement.bind(Int64(rows.count), at: 3)
        try Self.withEncodedRows(rows) { try statement.bindCopy($0, at: 4) }
        try statement.stepToEnd()
        return sqlite.lastInsertRowID
    }

    /// Replaces the rows of page `id`, and its place when `ord` is not `nil`: an update that
    /// does not set `ord` leaves the index on (`grp`, `ord`) unwritten.
    func updatePage(_ id: Int64, ord: Int64?, rows: [Int64], in sqlite: SQLiteConnection) throws {
        let statement = try sqlite.cachedStatement(ord == nil ? updatePageRowsSQL : updatePageSQL)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        if let ord { try statement.bind(ord, at: 2) }
        try statement.bind(Int64(rows.count), at: 3)
        try Self.withEncodedRows(rows) { try statement.bindCopy($0, at: 4) }
        try statement.stepToEnd()
    }

    func deletePage(_ id: Int64, in sqlite: SQLiteConnection) throws {
        let statement = try sqlite.cachedStatement(deletePageSQL)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        try statement.stepToEnd()
    }

    /// Sets the page of `rowID` (0: the row leaves the view, and its key with it).
    func setPage(_ page: Int64, ofRow rowID: Int64, in sqlite: SQLiteConnection) throws {
        let statement = try sqlite.cachedStatement(page == 0 ? deleteMapSQL : upsertMapSQL)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        if page != 0 { try statement.bind(page, at: 2) }
        try statement.stepToEnd()
        if page == 0, keysTable != nil {
            let deleteKey = try sqlite.cachedStatement(deleteKeySQL)
            defer { deleteKey.reset() }
            try deleteKey.bind(rowID, at: 1)
            try deleteKey.stepToEnd()
        }
    }

    /// Records `key` as the key of the row `rowID` of a manual view; nothing for another view.
    func setKey(_ key: String, ofRow rowID: Int64, in sqlite: SQLiteConnection) throws {
        guard keysTable != nil else { return }
        let statement = try sqlite.cachedStatement(upsertKeySQL)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        try statement.bind(key, at: 2)
        try statement.stepToEnd()
    }

    func deleteAll(in sqlite: SQLiteConnection) throws {
        try sqlite.execute(deleteAllSQL)
    }

    // MARK: Row blobs

    static func decodeRows(_ bytes: UnsafeRawBufferPointer) -> [Int64] {
        let count = bytes.count / 8
        return [Int64](unsafeUninitializedCapacity: count) { buffer, initialized in
            for offset in 0..<count {
                buffer[offset] = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset * 8, as: Int64.self))
            }
            initialized = count
        }
    }

    static func withEncodedRows<T>(_ rows: [Int64], _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let littleEndian = rows.map(\.littleEndian)
        return try littleEndian.withUnsafeBytes(body)
    }
}

/// A page of a group, as the group's page list gives it: its id, its place and its number of rows.
struct ViewPageRef: Sendable, Hashable {
    var id: Int64
    var ord: Int64
    var count: Int
}
