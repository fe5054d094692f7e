/// Reads a ``MultiCollectionView`` in one transaction, from its snapshot: groups, counts, rows
/// (collection and key) by index and range, and the position of a row.
///
/// ```swift
/// try connection.read { tx in
///     let timeline = timelineView.read(tx)
///     for row in try timeline.rows(in: "open", range: 0..<50) {
///         if row.collection == Todo.collection, let todo = try tx.read(Todo.self, key: row.key) { show(todo) }
///     }
/// }
/// ```
///
/// Index lookups read the page list of the group and then one page, as for ``ViewReader``.
///
/// - Important: A reader must not escape the closure of its transaction.
public struct MultiCollectionViewReader {
    let view: MultiCollectionView
    let transaction: ReadTransaction

    init(view: MultiCollectionView, transaction: ReadTransaction) {
        self.view = view
        self.transaction = transaction
    }

    /// The groups that have rows, sorted.
    ///
    /// - Returns: The groups.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    public func groups() throws -> [String] {
        try view.pageSource(in: transaction).groupCounts().map(\.group).sorted()
    }

    /// The number of rows of `group` (0 for a group that has none).
    ///
    /// - Parameter group: The group.
    /// - Returns: The number of rows.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    public func count(in group: String) throws -> Int {
        try view.pageSource(in: transaction).count(group: group)
    }

    /// The number of rows of every group.
    ///
    /// - Returns: The number of rows of the view.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    public func count() throws -> Int {
        try view.pageSource(in: transaction).count(group: nil)
    }

    /// The collection and key of the row at `index` in `group`, or `nil` when the group has no
    /// such row.
    ///
    /// - Parameters:
    ///   - index: The index in the group, from 0.
    ///   - group: The group.
    /// - Returns: The row's collection and key.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails;
    ///   ``TroveError/Code/corruptDatabase`` when the view is damaged: it lists an item that its
    ///   collection does not have.
    public func row(at index: Int, in group: String) throws -> ViewRowKey? {
        guard index >= 0, index < Int.max else { return nil }
        return try rows(in: group, range: index..<(index + 1)).first
    }

    /// The collections and keys of the rows of `group` in `range`, clamped to the group's rows:
    /// the page list is summed to skip the pages before the range, then only the pages that hold
    /// it are read.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - range: The indexes (default: every row).
    /// - Returns: The rows, in order.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails;
    ///   ``TroveError/Code/corruptDatabase`` when the view is damaged: it lists an item that its
    ///   collection does not have.
    public func rows(in group: String, range: Range<Int>? = nil) throws -> [ViewRowKey] {
        let sqlite = transaction.checkedCore.sqlite
        // The rows start at the range's lower bound, clamped to the group.
        let first = Swift.max(range?.lowerBound ?? 0, 0)
        return try view.pageSource(in: transaction).rowIDs(in: group, range: range).enumerated().map { offset, rowID in
            try name(ofRow: rowID, group: group, index: first + offset, sqlite: sqlite)
        }
    }

    /// The group and index of the row of `collection` at `key`, or `nil` when it is not in the
    /// view.
    ///
    /// - Parameters:
    ///   - key: The key of the row.
    ///   - collection: The collection of the row.
    /// - Returns: Its position.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    /// - Complexity: O(p + 50), p pages in the row's group.
    public func indexPath(ofKey key: String, in collection: String) throws -> ViewIndexPath? {
        let source = try view.pageSource(in: transaction)
        guard view.follows(collection) else { return nil }
        return try source.indexPath(ofKey: key, in: collection, sqlite: transaction.checkedCore.sqlite)
    }

    /// The collection and key of the row `rowID`, at `index` in `group`.
    ///
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptDatabase`` when the items
    ///   have no such row (see ``ViewReader``).
    private func name(ofRow rowID: Int64, group: String, index: Int, sqlite: SQLiteConnection) throws -> ViewRowKey {
        let statement = try sqlite.cachedStatement(MultiCollectionView.selectRowByID)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        guard try statement.step() else {
            throw TroveError.viewRowWithoutItem(
                view: view.name, collections: view.collections, group: group, index: index)
        }
        return ViewRowKey(collection: statement.string(at: 3), key: statement.string(at: 0))
    }
}

// Explicit non-conformance to Sendable: a reader belongs to its transaction.
@available(*, unavailable)
extension MultiCollectionViewReader: Sendable {}
