/// How a ``View`` keeps its pages: creation, population, and the handling of each write (see
/// ``ViewStorage`` for the layout and ``ViewWriteState`` for the changes).
struct ViewImplementation<Item: Persistable>: ExtensionImplementation {
    let view: View<Item>

    var kind: String { "view" }
    var collection: String { Item.collection }
    var fingerprint: String { view.fingerprint }
    /// A removal of the collection must name the rows that leave the view.
    var needsRemovedRows: Bool { true }

    func tableNames(name: String) -> [String] {
        view.storage == .inMemory ? [] : view.pages.tableNames
    }

    /// Creates the tables, or for an in-memory view the empty pages of the transaction, which
    /// its commit publishes.
    func create(name: String, in context: ExtensionContext) throws {
        let versions = context.core.database.viewVersions
        if view.storage == .inMemory {
            versions.activate()
            context.core.extensionStates[name] = ViewWriteState(memory: ViewMemoryState())
        } else {
            // A view of this name that was in memory is no longer.
            versions.remove(name)
            try context.sqlite.execute(view.pages.createSQL)
        }
    }

    /// An in-memory view is built when this database has a version of it.
    func isBuilt(name: String, in context: ExtensionContext) -> Bool {
        view.storage != .inMemory || context.core.database.viewVersions.latest(of: name) != nil
    }

    /// Sorts the items of each group in memory and writes them in pages.
    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        let store = try state(name: name, in: context).store
        var groups: [String: [(rowID: Int64, key: String, item: Item)]] = [:]
        try ExtensionItems<Item>.forEachStored(in: context, progress: progress) { rowID, key, item in
            if let group = view.group(of: item) {
                groups[group, default: []].append((rowID, key, item))
            }
        }
        for (group, rows) in groups {
            let sorted = rows.sorted { view.sortsBefore($0.item, key: $0.key, $1.item, key: $1.key) }
            var start = 0
            var ord: Int64 = 0
            while start < sorted.count {
                let end = Swift.min(start + ViewStorage.buildPageSize, sorted.count)
                let rowIDs = sorted[start..<end].map(\.rowID)
                let page = try store.insertPage(group: group, ord: ord, rows: rowIDs)
                for rowID in rowIDs {
                    try store.setPage(page, ofRow: rowID)
                }
                start = end
                ord += ViewStorage.ordinalGap
            }
        }
    }

    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        let state = try self.state(name: name, in: context)
        switch event.kind {
        case .removed:
            try state.noteRemoval(event.rowID, key: event.key, in: context)
        case .touched:
            if try state.currentPage(of: event.rowID, in: context) != 0 {
                state.noteChange(event.rowID, key: event.key, parts: [], repositioned: false)
            }
        case .inserted, .dataUpdated, .metadataUpdated:
            let item = try ExtensionItems<Item>.resolve(event, in: context)
            let parts: ViewRowChange.Parts = event.kind == .metadataUpdated ? .metadata : .item
            let newGroup = view.group(of: item)
            let page = try state.currentPage(of: event.rowID, in: context)
            if page != 0 {
                if try state.group(ofPage: page, in: context) == newGroup,
                    try isInOrder(item, key: event.key, rowID: event.rowID, page: page, state: state, in: context)
                {
                    state.noteChange(event.rowID, key: event.key, parts: parts, repositioned: false)
                    return
                }
                try state.remove(event.rowID, in: context)
            } else if newGroup == nil {
                // Neither in the view before nor after: nothing to record.
                return
            }
            if let newGroup {
                try state.insert(event.rowID, into: newGroup, in: context) { other in
                    let (otherKey, otherItem) = try row(other, in: context)
                    return view.sortsBefore(item, key: event.key, otherItem, key: otherKey)
                }
            }
            state.noteChange(event.rowID, key: event.key, parts: parts, repositioned: true)
        }
    }

    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try self.state(name: name, in: context).removeEverything(rows: rows ?? [], in: context)
    }

    // MARK: Helpers

    /// The view's state in the current write transaction, made on first use: on the file's
    /// tables, or on a copy of the latest version of an in-memory view.
    private func state(name: String, in context: ExtensionContext) throws -> ViewWriteState {
        if let state = context.core.extensionStates[name] as? ViewWriteState {
            return state
        }
        let state: ViewWriteState
        if view.storage == .inMemory {
            guard let latest = context.core.database.viewVersions.latest(of: name) else {
                throw TroveError(
                    code: .extensionFailed, message: "The in-memory view '\(name)' has no pages on this database.",
                    collection: Item.collection, extensionName: name)
            }
            state = ViewWriteState(memory: latest.state)
        } else {
            state = ViewWriteState(storage: view.pages, sqlite: context.sqlite)
        }
        context.core.extensionStates[name] = state
        return state
    }

    /// Whether `item`, at its place in `page`, still sorts after the row before it and before
    /// the row after it.
    private func isInOrder(
        _ item: Item, key: String, rowID: Int64, page: Int64, state: ViewWriteState, in context: ExtensionContext
    ) throws -> Bool {
        let (previous, next) = try state.neighbours(of: rowID, page: page, in: context)
        if let previous {
            let (previousKey, previousItem) = try row(previous, in: context)
            guard view.sortsBefore(previousItem, key: previousKey, item, key: key) else { return false }
        }
        if let next {
            let (nextKey, nextItem) = try row(next, in: context)
            guard view.sortsBefore(item, key: key, nextItem, key: nextKey) else { return false }
        }
        return true
    }

    /// The key and item of the row `rowID`, as the transaction has it now.
    private func row(_ rowID: Int64, in context: ExtensionContext) throws -> (String, Item) {
        let statement = try context.sqlite.cachedStatement(Schema.selectRowByID)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        guard try statement.step() else {
            throw TroveError(
                code: .extensionFailed, message: "A row of the view '\(view.name)' is gone from the items (row \(rowID)).",
                collection: Item.collection, extensionName: view.name)
        }
        let key = statement.string(at: 0)
        let item = try ExtensionItems<Item>.decode(
            key: key, data: statement.bytes(at: 1), metadata: statement.isNull(at: 2) ? nil : statement.bytes(at: 2))
        return (key, item)
    }
}
