/// Reads a ``View`` in one transaction, from its snapshot: groups, counts, rows by index, ranges,
/// enumeration, and the position of a key.
///
/// ```swift
/// try connection.read { tx in
///     let inbox = inboxView.read(tx)
///     for group in try inbox.groups() {
///         print(group, try inbox.count(in: group), try inbox.first(in: group)?.subject ?? "")
///     }
/// }
/// ```
///
/// Index lookups read the page list of the group (the row counts of its pages, not their rows)
/// and then one page: no scan of the group. Items are read through the connection's cache.
///
/// - Important: A reader must not escape the closure of its transaction.
public struct ViewReader<Item: Persistable> {
    let view: View<Item>
    let transaction: ReadTransaction

    init(view: View<Item>, transaction: ReadTransaction) {
        self.view = view
        self.transaction = transaction
    }

    /// The pages at the transaction's snapshot (see ``ViewDefinition/pageSource(in:)``).
    private func pages() throws -> any ViewPageSource {
        try view.pageSource(in: transaction)
    }

    // MARK: Groups and counts

    /// The groups that have rows, sorted.
    ///
    /// - Returns: The groups.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    /// - Complexity: O(p) in the number of pages of the view.
    public func groups() throws -> [String] {
        try pages().groupCounts().map(\.group).sorted()
    }

    /// The number of rows of `group` (0 for a group that has none).
    ///
    /// - Parameter group: The group.
    /// - Returns: The number of rows.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    public func count(in group: String) throws -> Int {
        try pages().count(group: group)
    }

    /// The number of rows of every group.
    ///
    /// - Returns: The number of rows of the view.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    public func count() throws -> Int {
        try pages().count(group: nil)
    }

    // MARK: Rows by index

    /// The key of the row at `index` in `group`, or `nil` when the group has no such row.
    ///
    /// - Parameters:
    ///   - index: The index in the group, from 0.
    ///   - group: The group.
    /// - Returns: The key.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails;
    ///   ``TroveError/Code/corruptDatabase`` when the view is damaged: it lists an item that its
    ///   collection does not have.
    public func key(at index: Int, in group: String) throws -> Item.ID? {
        guard index >= 0, index < Int.max else { return nil }
        return try keys(in: group, range: index..<(index + 1)).first
    }

    /// The item at `index` in `group`, or `nil` when the group has no such row.
    ///
    /// - Parameters:
    ///   - index: The index in the group, from 0.
    ///   - group: The group.
    /// - Returns: The item.
    /// - Throws: ``TroveError`` when the view is not registered, SQLite fails, or the item
    ///   cannot be decoded; ``TroveError/Code/corruptDatabase`` when the view is damaged: it
    ///   lists an item that its collection does not have.
    public func item(at index: Int, in group: String) throws -> Item? {
        guard index >= 0, index < Int.max else { return nil }
        return try items(in: group, range: index..<(index + 1)).first
    }

    /// The keys of the rows of `group` in `range`, clamped to the group's rows.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - range: The indexes (default: every row).
    /// - Returns: The keys, in order.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails;
    ///   ``TroveError/Code/corruptDatabase`` when the view is damaged: it lists an item that its
    ///   collection does not have.
    public func keys(in group: String, range: Range<Int>? = nil) throws -> [Item.ID] {
        try rawKeys(in: group, range: range).map { try itemKey($0) }
    }

    /// The items of the rows of `group` in `range`, clamped to the group's rows.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - range: The indexes (default: every row).
    /// - Returns: The items, in order.
    /// - Throws: ``TroveError`` when the view is not registered, SQLite fails, or an item cannot
    ///   be decoded; ``TroveError/Code/corruptDatabase`` when the view is damaged: it lists an
    ///   item that its collection does not have.
    public func items(in group: String, range: Range<Int>? = nil) throws -> [Item] {
        try transaction.viewItems(ViewRowsRead(view: view, group: group, range: range))
    }

    /// The first item of `group`.
    ///
    /// - Parameter group: The group.
    /// - Returns: The item, or `nil` when the group has no row.
    /// - Throws: What ``items(in:range:)`` throws.
    public func first(in group: String) throws -> Item? {
        try item(at: 0, in: group)
    }

    /// The last item of `group`.
    ///
    /// - Parameter group: The group.
    /// - Returns: The item, or `nil` when the group has no row.
    /// - Throws: What ``items(in:range:)`` throws.
    public func last(in group: String) throws -> Item? {
        let count = try count(in: group)
        return count == 0 ? nil : try item(at: count - 1, in: group)
    }

    // MARK: Positions

    /// The group and index of the item at `key`, or `nil` when it is not in the view.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: Its position.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    /// - Complexity: O(p + 50), p pages in the item's group.
    public func indexPath(ofKey key: Item.ID) throws -> ViewIndexPath? {
        try pages().indexPath(ofKey: key.itemKey, in: Item.collection, sqlite: transaction.checkedCore.sqlite)
    }

    // MARK: Rows

    /// The stored keys of the rows of `group` in `range`: the page list is summed to skip the
    /// pages before the range, then only the pages that hold it are read.
    func rawKeys(in group: String, range: Range<Int>?) throws -> [String] {
        // The rows start at the range's lower bound, clamped to the group.
        let first = Swift.max(range?.lowerBound ?? 0, 0)
        return try pages().rowIDs(in: group, range: range).enumerated().map { offset, rowID in
            try key(ofRow: rowID, group: group, index: first + offset)
        }
    }

    /// The stored key of the row `rowID`, at `index` in `group`.
    ///
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptDatabase`` when the items
    ///   have no such row: the pages and the items are written in the same transactions, so
    ///   between two writes they always agree.
    func key(ofRow rowID: Int64, group: String, index: Int) throws -> String {
        let statement = try transaction.checkedCore.sqlite.cachedStatement(FileLayout.selectKeyByRowID)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        guard try statement.step() else {
            throw TroveError.viewRowWithoutItem(
                view: view.name, collections: [Item.collection], group: group, index: index)
        }
        return statement.string(at: 0)
    }

    func itemKey(_ key: String) throws -> Item.ID {
        guard let id = Item.ID(itemKey: key) else {
            throw TroveError(
                code: .invalidKey, message: "The key '\(key)' of the view '\(view.name)' is not a key of \(Item.self).",
                collection: Item.collection, key: key, extensionName: view.name)
        }
        return id
    }
}

// Explicit non-conformance to Sendable: a reader belongs to its transaction.
@available(*, unavailable)
extension ViewReader: Sendable {}

extension ViewDefinition {
    /// The pages at `transaction`'s snapshot, after checking that the view can be read and
    /// noting the read for an observation: the file's tables through the connection's cache of
    /// pages (straight from the file in a write transaction that changed the view, see
    /// ``ViewPageCache``), or the version of an in-memory view that the snapshot reads (the
    /// transaction's own copy in a write transaction that changed the view).
    func pageSource(in transaction: ReadTransaction) throws -> any ViewPageSource {
        let core = transaction.checkedCore
        for collection in collections {
            transaction.recorder?.recordIndex(name, of: collection)
        }
        try core.checkQueryable(name, fingerprint: fingerprint)
        guard isInMemory else {
            let file = SQLiteViewPages(storage: pages, sqlite: core.sqlite)
            return core.mayCacheViewPages(of: name) ? CachedViewPages(file: file, core: core) : file
        }
        if let state = core.extensionStates[name] as? ViewWriteState, let memory = state.memory {
            return memory.state
        }
        guard let snapshot = core.exactSnapshot else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The in-memory view '\(name)' was registered after this transaction began: read it in a later transaction.",
                collection: primaryCollection, extensionName: name)
        }
        guard let version = core.database.viewVersions.version(of: name, atOrBefore: snapshot) else {
            throw TroveError(
                code: .extensionFailed,
                message: "The in-memory view '\(name)' did not exist yet at this transaction's snapshot.",
                collection: primaryCollection, extensionName: name)
        }
        guard version.writerToken == core.fileWriterToken else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The in-memory view '\(name)' is behind: another process (or another Database on the file) committed since it was last changed. The next write transaction of this database rebuilds it.",
                collection: primaryCollection, extensionName: name)
        }
        return version.state
    }
}
