/// The pages of a ``View/Storage-swift.enum/inMemory`` view at one commit: the same layout as
/// the file's (``ViewStorage``), kept in values that share their storage from one commit to the
/// next.
///
/// A write transaction starts from the latest committed state and changes its own copy; only the
/// parts it changes are copied: the list of groups, the page lists of the groups it changes, and
/// the shards (see ``ViewShardedMap``) of the pages and rows it changes. Committed states are
/// never changed, so readers at older snapshots keep reading theirs (see ``ViewMemoryVersions``).
struct ViewMemoryState: Sendable, ViewPageSource {
    /// The page list of every group that has rows.
    private var groups: [String: [ViewPageRef]] = [:]
    /// The group and rows of every page.
    private var pages = ViewShardedMap<ViewMemoryPage>()
    /// The page of every row in the view.
    private var rowPages = ViewShardedMap<Int64>()
    /// The id of the next page: ids are never used again.
    private var nextPageID: Int64 = 1
    /// The key of every row of a manual view (see ``ViewStorage``); empty for other views.
    private var rowKeys = ViewShardedMap<String>()
    /// The fingerprint of the definition the pages were built for: a manual view rebuilt under
    /// the same one starts from them (see ``ViewImplementation/create(name:in:)``).
    let fingerprint: String
    /// What a search results view keeps beside its rows (its query and the snippet of each
    /// row), versioned with them; `nil` for the other views.
    var search: SearchResultsMemory?

    /// An empty view, built for the definition of `fingerprint`.
    init(fingerprint: String) {
        self.fingerprint = fingerprint
    }

    // MARK: Reading

    func groupPages(_ group: String) -> [ViewPageRef] {
        groups[group] ?? []
    }

    func page(_ id: Int64) throws -> (group: String, rows: [Int64]) {
        guard let page = pages[id] else {
            throw TroveError(code: .extensionFailed, message: "The page \(id) of an in-memory view is missing.")
        }
        return (page.group, page.rows)
    }

    func pageOfRow(_ rowID: Int64) -> Int64 {
        rowPages[rowID] ?? 0
    }

    func groupCounts() -> [(group: String, count: Int)] {
        groups.map { group, list in (group, list.reduce(0) { $0 + $1.count }) }
    }

    func count(group: String?) -> Int {
        guard let group else { return rowPages.count }
        return groupPages(group).reduce(0) { $0 + $1.count }
    }

    func allRows() -> [(rowID: Int64, page: Int64)] {
        var rows: [(Int64, Int64)] = []
        rows.reserveCapacity(rowPages.count)
        rowPages.forEach { rows.append(($0, $1)) }
        return rows
    }

    func allKeys() -> [Int64: String] {
        var keys: [Int64: String] = [:]
        rowKeys.forEach { keys[$0] = $1 }
        return keys
    }

    // MARK: Writing

    mutating func insertPage(group: String, ord: Int64, rows: [Int64]) -> Int64 {
        let id = nextPageID
        nextPageID += 1
        pages[id] = ViewMemoryPage(group: group, rows: rows)
        var list = groups[group] ?? []
        let position = list.firstIndex { $0.ord > ord } ?? list.count
        list.insert(ViewPageRef(id: id, ord: ord, count: rows.count), at: position)
        groups[group] = list
        return id
    }

    mutating func updatePage(_ id: Int64, ord: Int64?, rows: [Int64]) throws {
        guard let group = pages[id]?.group, var list = groups[group],
            let position = list.firstIndex(where: { $0.id == id })
        else {
            throw TroveError(code: .extensionFailed, message: "The page \(id) of an in-memory view is missing.")
        }
        pages[id] = ViewMemoryPage(group: group, rows: rows)
        guard let ord, ord != list[position].ord else {
            list[position].count = rows.count
            groups[group] = list
            return
        }
        list.remove(at: position)
        let newPosition = list.firstIndex { $0.ord > ord } ?? list.count
        list.insert(ViewPageRef(id: id, ord: ord, count: rows.count), at: newPosition)
        groups[group] = list
    }

    mutating func deletePage(_ id: Int64) {
        guard let group = pages[id]?.group else { return }
        pages[id] = nil
        var list = groups[group] ?? []
        list.removeAll { $0.id == id }
        groups[group] = list.isEmpty ? nil : list
    }

    mutating func setPage(_ page: Int64, ofRow rowID: Int64) {
        rowPages[rowID] = page == 0 ? nil : page
        if page == 0, rowKeys.count != 0 { rowKeys[rowID] = nil }
    }

    mutating func setKey(_ key: String, ofRow rowID: Int64) {
        rowKeys[rowID] = key
    }

    mutating func deleteAll() {
        groups.removeAll()
        pages.removeAll()
        rowPages.removeAll()
        rowKeys.removeAll()
    }
}

/// A page of an in-memory view.
struct ViewMemoryPage: Sendable {
    var group: String
    var rows: [Int64]
}

/// A map from row or page ids to values, split in shards so that a copy that changes a few
/// entries copies the few shards that hold them (and the array of shards), not the whole map:
/// the cost of one commit of an in-memory view is independent of the number of its rows.
struct ViewShardedMap<Value: Sendable>: Sendable {
    /// The number of shards: 1,024, about 100 entries each at 100,000 rows.
    private static var shardCount: Int { 1024 }
    private var shards: [[Int64: Value]] = Array(repeating: [:], count: ViewShardedMap.shardCount)
    /// The number of entries.
    private(set) var count = 0

    private static func shard(of key: Int64) -> Int {
        Int(truncatingIfNeeded: key) & (shardCount - 1)
    }

    subscript(key: Int64) -> Value? {
        get { shards[Self.shard(of: key)][key] }
        set {
            let shard = Self.shard(of: key)
            if let newValue {
                if shards[shard].updateValue(newValue, forKey: key) == nil { count += 1 }
            } else if shards[shard].removeValue(forKey: key) != nil {
                count -= 1
            }
        }
    }

    /// Calls `body` with every key and value, in no particular order.
    func forEach(_ body: (Int64, Value) -> Void) {
        for shard in shards {
            for (key, value) in shard { body(key, value) }
        }
    }

    mutating func removeAll() {
        shards = Array(repeating: [:], count: Self.shardCount)
        count = 0
    }
}

/// The pages of an in-memory view as one write transaction changes them: a copy of the latest
/// committed ``ViewMemoryState`` (or an empty one, for a build), published as the view's new
/// version when the transaction commits (see ``ViewMemoryVersions``), dropped when it rolls back.
final class ViewMemoryPages: ViewPageStore {
    private(set) var state: ViewMemoryState

    init(state: ViewMemoryState) {
        self.state = state
    }

    func groupPages(_ group: String) -> [ViewPageRef] { state.groupPages(group) }
    func page(_ id: Int64) throws -> (group: String, rows: [Int64]) { try state.page(id) }
    func pageOfRow(_ rowID: Int64) -> Int64 { state.pageOfRow(rowID) }
    func groupCounts() -> [(group: String, count: Int)] { state.groupCounts() }
    func count(group: String?) -> Int { state.count(group: group) }
    func allRows() -> [(rowID: Int64, page: Int64)] { state.allRows() }
    func allKeys() -> [Int64: String] { state.allKeys() }
    func insertPage(group: String, ord: Int64, rows: [Int64]) -> Int64 {
        state.insertPage(group: group, ord: ord, rows: rows)
    }
    func updatePage(_ id: Int64, ord: Int64?, rows: [Int64]) throws { try state.updatePage(id, ord: ord, rows: rows) }
    func deletePage(_ id: Int64) { state.deletePage(id) }
    func setPage(_ page: Int64, ofRow rowID: Int64) { state.setPage(page, ofRow: rowID) }
    func deleteAll() { state.deleteAll() }
    func setKey(_ key: String, ofRow rowID: Int64) { state.setKey(key, ofRow: rowID) }

    /// Changes what a search results view keeps beside its rows.
    func updateSearch(_ body: (inout SearchResultsMemory) -> Void) {
        var search = state.search ?? SearchResultsMemory()
        body(&search)
        state.search = search
    }
}

// Explicit non-conformance to Sendable: the pages belong to one write transaction.
@available(*, unavailable)
extension ViewMemoryPages: Sendable {}
