/// Changes the rows of a ``ManualView`` in one ``ReadWriteTransaction``: adds, inserts, moves
/// and removes them.
///
/// ```swift
/// try connection.write { tx in
///     let writer = favourites.write(tx)
///     try writer.append(first, to: "pinned")     // ["first"]
///     try writer.insert(second, at: 0, in: "pinned") // ["second", "first"]
///     try writer.move(from: 1, in: "pinned", to: 0, in: "pinned") // ["first", "second"]
///     try writer.remove(at: 0, in: "pinned")     // ["second"]
/// }
/// ```
///
/// An item is in at most one row of the view: adding or inserting a key that is already in the
/// view moves its row. The changes belong to the transaction: they are rolled back with it, and
/// its commit reports them in ``Changeset/viewChanges`` as a ``View``'s (rows inserted, removed
/// and moved, groups inserted and removed). Each change also counts as an update of the item it
/// places in the changeset (as a manual edge of ``Relationships`` does), so that observations of
/// the view and of the item see it.
///
/// Each change reads the page list of its group (the row counts of its pages) and writes one
/// page, or two when a page splits or merges.
///
/// - Important: A writer must not escape the closure of its transaction.
public struct ManualViewWriter<Item: Persistable> {
    let view: View<Item>
    let transaction: ReadWriteTransaction

    init(view: View<Item>, transaction: ReadWriteTransaction) {
        self.view = view
        self.transaction = transaction
    }

    // MARK: Adding

    /// Adds the item at `key` at the end of `group`; when it is already in the view, moves its
    /// row there.
    ///
    /// - Parameters:
    ///   - key: The key of a stored item.
    ///   - group: The group.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/invalidKey`` when there is no item
    ///   at `key`; ``TroveError/Code/extensionFailed`` when the view is not registered; or when
    ///   SQLite fails.
    public func append(_ key: Item.ID, to group: String) throws {
        let (context, state, rowID) = try prepare(key)
        let count = try state.count(in: group, in: context)
        let isInGroup = try isRow(rowID, in: group, state: state, context: context)
        try place(
            rowID, key: key.itemKey, in: group, at: isInGroup ? count - 1 : count, state: state, context: context)
    }

    /// Inserts the item at `key` at `index` of `group`; when it is already in the view, moves its
    /// row there.
    ///
    /// - Parameters:
    ///   - key: The key of a stored item.
    ///   - index: The index the row has afterwards: from 0 to the number of rows of the group
    ///     (the end), not counting the item's own row when it is already in the group.
    ///   - group: The group.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/invalidKey`` when there is no item
    ///   at `key`; ``TroveError/Code/misuse`` when `index` is out of range (nothing changes);
    ///   ``TroveError/Code/extensionFailed`` when the view is not registered; or when SQLite
    ///   fails.
    public func insert(_ key: Item.ID, at index: Int, in group: String) throws {
        let (context, state, rowID) = try prepare(key)
        var count = try state.count(in: group, in: context)
        if try isRow(rowID, in: group, state: state, context: context) { count -= 1 }
        guard index >= 0, index <= count else {
            throw TroveError.manualViewIndexOutOfRange(
                view: view.name, collection: Item.collection, group: group, index: index, valid: "0 to \(count)",
                key: key.itemKey)
        }
        try place(rowID, key: key.itemKey, in: group, at: index, state: state, context: context)
    }

    // MARK: Moving

    /// Moves the row at `index` of `group` to `newIndex` of `newGroup` (the same group or
    /// another).
    ///
    /// - Parameters:
    ///   - index: The index of the row in `group`.
    ///   - group: The group of the row.
    ///   - newIndex: The index the row has afterwards in `newGroup`: from 0 to the number of
    ///     rows of `newGroup` once the row left its place (the last index of `group` for a move
    ///     within it).
    ///   - newGroup: The group to move the row to.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/misuse`` when an index is out of
    ///   range (nothing changes); ``TroveError/Code/extensionFailed`` when the view is not
    ///   registered; or when SQLite fails.
    public func move(from index: Int, in group: String, to newIndex: Int, in newGroup: String) throws {
        let (context, state) = try prepare()
        let rowID = try self.rowID(at: index, in: group, state: state, context: context)
        var count = try state.count(in: newGroup, in: context)
        if newGroup == group { count -= 1 }
        guard newIndex >= 0, newIndex <= count else {
            throw TroveError.manualViewIndexOutOfRange(
                view: view.name, collection: Item.collection, group: newGroup, index: newIndex,
                valid: "0 to \(count)", key: nil)
        }
        let key = try storedKey(of: rowID, group: group, index: index)
        try place(rowID, key: key, in: newGroup, at: newIndex, state: state, context: context)
    }

    // MARK: Removing

    /// Removes the row at `index` of `group` from the view (the item stays in its collection).
    ///
    /// - Parameters:
    ///   - index: The index of the row.
    ///   - group: The group of the row.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/misuse`` when the group has no row at
    ///   `index`; ``TroveError/Code/extensionFailed`` when the view is not registered; or when
    ///   SQLite fails.
    public func remove(at index: Int, in group: String) throws {
        let (context, state) = try prepare()
        let rowID = try self.rowID(at: index, in: group, state: state, context: context)
        let key = try storedKey(of: rowID, group: group, index: index)
        try state.remove(rowID, in: context)
        try noteChange(rowID, key: key, state: state, context: context)
    }

    /// Removes the row of the item at `key` from the view, if it has one (the item stays in its
    /// collection).
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: `true` when the item had a row.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/extensionFailed`` when the view is not
    ///   registered, or when SQLite fails.
    @discardableResult
    public func remove(_ key: Item.ID) throws -> Bool {
        let (context, state) = try prepare()
        guard let rowID = try self.rowID(of: key, context: context),
            try state.currentPage(of: rowID, in: context) != 0
        else { return false }
        try state.remove(rowID, in: context)
        try noteChange(rowID, key: key.itemKey, state: state, context: context)
        return true
    }

    /// Removes every row of `group` from the view (the items stay in their collection).
    ///
    /// - Parameter group: The group.
    /// - Returns: The number of rows removed.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/extensionFailed`` when the view is not
    ///   registered, or when SQLite fails.
    /// - Complexity: O(n) in the rows of the group.
    @discardableResult
    public func removeGroup(_ group: String) throws -> Int {
        let (context, state) = try prepare()
        let rowIDs = try state.rowIDs(ofGroup: group, in: context)
        for (index, rowID) in rowIDs.enumerated().reversed() {
            let key = try storedKey(of: rowID, group: group, index: index)
            try state.remove(rowID, in: context)
            try noteChange(rowID, key: key, state: state, context: context)
        }
        return rowIDs.count
    }

    // MARK: Helpers

    /// The context and the view's state in the transaction, after checking that the view is
    /// registered with this definition.
    private func prepare() throws -> (ExtensionContext, ViewWriteState) {
        let core = transaction.checkedCore
        try core.checkQueryable(view.name, fingerprint: view.fingerprint)
        let context = ExtensionContext(core: core, name: view.name)
        return (context, try ViewImplementation(view: view).state(name: view.name, in: context))
    }

    /// As ``prepare()``, with the row id of the item at `key`, which must exist.
    private func prepare(_ key: Item.ID) throws -> (ExtensionContext, ViewWriteState, Int64) {
        let (context, state) = try prepare()
        guard let rowID = try rowID(of: key, context: context) else {
            throw TroveError.manualViewUnknownKey(view: view.name, collection: Item.collection, key: key.itemKey)
        }
        return (context, state, rowID)
    }

    /// Puts the row `rowID` at `index` of `group`, taking it from where it was first.
    private func place(
        _ rowID: Int64, key: String, in group: String, at index: Int, state: ViewWriteState, context: ExtensionContext
    ) throws {
        try state.remove(rowID, in: context)
        try state.insert(rowID, into: group, at: index, in: context)
        try state.store.setKey(key, ofRow: rowID)
        try noteChange(rowID, key: key, state: state, context: context)
    }

    /// Records that the row `rowID` was placed or taken out, and marks its item changed.
    private func noteChange(_ rowID: Int64, key: String, state: ViewWriteState, context: ExtensionContext) throws {
        state.noteChange(rowID, key: key, collection: nil, parts: [], repositioned: true)
        _ = try context.core.touchRow(key: key, collection: Item.collection)
    }

    /// Whether the row `rowID` is in `group` now.
    private func isRow(_ rowID: Int64, in group: String, state: ViewWriteState, context: ExtensionContext) throws
        -> Bool
    {
        let page = try state.currentPage(of: rowID, in: context)
        return try page != 0 && state.group(ofPage: page, in: context) == group
    }

    /// The row id at `index` of `group`.
    private func rowID(at index: Int, in group: String, state: ViewWriteState, context: ExtensionContext) throws
        -> Int64
    {
        guard let rowID = try state.rowID(at: index, in: group, in: context) else {
            let count = try state.count(in: group, in: context)
            throw TroveError.manualViewIndexOutOfRange(
                view: view.name, collection: Item.collection, group: group, index: index,
                valid: count == 0 ? nil : "0 to \(count - 1)", key: nil)
        }
        return rowID
    }

    /// The row id of the item at `key`, or `nil` when there is none.
    private func rowID(of key: Item.ID, context: ExtensionContext) throws -> Int64? {
        try context.core.selectRowID(key: key.itemKey, collection: Item.collection)
    }

    /// The stored key of the row `rowID`, at `index` of `group` (see ``ViewReader/key(ofRow:group:index:)``).
    private func storedKey(of rowID: Int64, group: String, index: Int) throws -> String {
        try ViewReader(view: view, transaction: transaction).key(ofRow: rowID, group: group, index: index)
    }
}

// Explicit non-conformance to Sendable: a writer belongs to its transaction.
@available(*, unavailable)
extension ManualViewWriter: Sendable {}

extension TroveError {
    /// A change of the manual view `view` names an index that its group `group` does not have.
    ///
    /// - Parameters:
    ///   - view: The name of the view.
    ///   - collection: The collection of its items.
    ///   - group: The group.
    ///   - index: The index asked for.
    ///   - valid: The indexes that the change accepts, in words ("0 to 4"); `nil` when the group
    ///     has no row.
    ///   - key: The key of the item placed, when there is one.
    /// - Returns: An error of code ``Code/misuse``.
    static func manualViewIndexOutOfRange(
        view: String, collection: String, group: String, index: Int, valid: String?, key: String?
    ) -> TroveError {
        let accepted = valid.map { "it accepts \($0)" } ?? "the group has no row"
        return TroveError(
            code: .misuse,
            message:
                "The index \(index) is out of range in the group '\(group)' of the manual view '\(view)': \(accepted).",
            collection: collection, key: key, extensionName: view)
    }

    /// A change of the manual view `view` names the key `key` where its collection has no item.
    ///
    /// - Parameters:
    ///   - view: The name of the view.
    ///   - collection: The collection of its items.
    ///   - key: The key.
    /// - Returns: An error of code ``Code/invalidKey``.
    static func manualViewUnknownKey(view: String, collection: String, key: String) -> TroveError {
        TroveError(
            code: .invalidKey,
            message:
                "The manual view '\(view)' cannot hold the item '\(key)': the collection '\(collection)' has no item at that key. Store the item first.",
            collection: collection, key: key, extensionName: view)
    }
}
