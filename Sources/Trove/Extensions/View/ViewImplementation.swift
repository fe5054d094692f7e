/// What a view's implementation needs of its definition: a ``View`` of one type, or a
/// ``MultiCollectionView`` whose closures see rows of several collections.
protocol ViewDefinition: Sendable {
    /// What the closures of the definition see of one stored row.
    associatedtype Row
    var name: String { get }
    var fingerprint: String { get }
    var pages: ViewStorage { get }
    /// Whether the pages live in memory only.
    var isInMemory: Bool { get }
    /// Whether a build fills the view with the stored items (else it starts empty).
    var populatesStoredItems: Bool { get }
    /// The name of the view this one filters, if it is a filtered view.
    var parentName: String? { get }
    /// This view made again over `parent`, the view named ``parentName`` as registered now.
    func following(_ parent: Self) -> Self?
    /// The collection recorded in the registry of extensions: the first one the view follows.
    var primaryCollection: String { get }
    /// Every collection the view follows.
    var collections: [String] { get }
    /// Whether the view's ``ViewRowChange``s name the collection of each row.
    var reportsCollections: Bool { get }
    func follows(_ collection: String) -> Bool
    /// Calls `body` with the row id, key and row of every stored item the view follows.
    func forEachStored(
        in context: ExtensionContext, progress: (Int) -> Void, _ body: (Int64, String, Row) throws -> Void) throws
    /// The row that `event` wrote.
    func resolve(_ event: WriteEvent, in context: ExtensionContext) throws -> Row
    /// The key and row of the stored row `rowID`, as the transaction has it now.
    func row(_ rowID: Int64, in context: ExtensionContext) throws -> (key: String, row: Row)
    /// The group of `row`, or `nil` when it is not in the view.
    func group(of row: Row) throws -> String?
    /// The group of `row`, stored at `rowID`, or `nil` when it is not in the view: ``group(of:)``
    /// by default; a search results view also asks whether the row matches its query.
    func group(of row: Row, rowID: Int64, in context: ExtensionContext) throws -> String?
    /// Whether `lhs` (at `lhsKey`) comes before `rhs` (at `rhsKey`), ties broken by key (see
    /// ``ItemKeyOrder``).
    func sortsBefore(_ lhs: Row, key lhsKey: String, _ rhs: Row, key rhsKey: String) throws -> Bool
    /// Whether the app places the rows (a ``ManualView``): a write of an item never puts it in
    /// the view or moves it, and only its removal takes it out.
    var isManual: Bool { get }
}

extension ViewDefinition {
    /// Views whose closures place the rows.
    var isManual: Bool { false }

    /// The closures alone decide.
    func group(of row: Row, rowID: Int64, in context: ExtensionContext) throws -> String? {
        try group(of: row)
    }
}

/// How a view keeps its pages: creation, population, and the handling of each write (see
/// ``ViewStorage`` for the layout and ``ViewWriteState`` for the changes).
struct ViewImplementation<Definition: ViewDefinition>: ExtensionImplementation {
    let view: Definition

    var kind: String { view.isManual ? "manualView" : "view" }
    var collection: String { view.primaryCollection }
    var fingerprint: String { view.fingerprint }
    /// A removal of the collection must name the rows that leave the view.
    var needsRemovedRows: Bool { true }

    func follows(_ collection: String) -> Bool {
        view.follows(collection)
    }

    var parentName: String? { view.parentName }

    func following(_ parent: any ExtensionImplementation) -> (any ExtensionImplementation)? {
        guard let parent = parent as? ViewImplementation<Definition>, let view = view.following(parent.view) else {
            return nil
        }
        return ViewImplementation(view: view)
    }

    func tableNames(name: String) -> [String] {
        view.isInMemory ? [] : view.pages.tableNames
    }

    /// Creates the tables, or for an in-memory view the empty pages of the transaction, which
    /// its commit publishes.
    func create(name: String, in context: ExtensionContext) throws {
        guard !view.collections.isEmpty else {
            throw TroveError(
                code: .extensionFailed, message: "The view '\(name)' follows no collection: name at least one.",
                extensionName: name)
        }
        let versions = context.core.database.viewVersions
        if view.isInMemory {
            versions.activate()
            // A manual view rebuilt under the same definition (another process's commit left it
            // behind) starts from its rows, which `populate` brings in step with the items.
            let kept = view.isManual ? versions.latest(of: name).map(\.state) : nil
            context.core.extensionStates[name] = ViewWriteState(
                name: name, memory: kept.flatMap { $0.fingerprint == view.fingerprint ? $0 : nil }
                    ?? ViewMemoryState(fingerprint: view.fingerprint))
        } else {
            // A view of this name that was in memory is no longer.
            versions.remove(name)
            try context.sqlite.execute(view.pages.createSQL)
        }
    }

    /// An in-memory view is built when this database has a version of it.
    func isBuilt(name: String, in context: ExtensionContext) -> Bool {
        !view.isInMemory || context.core.database.viewVersions.latest(of: name) != nil
    }

    /// A manual view in the file that another process left stale (same definition) keeps its
    /// tables: ``populate(name:in:progress:)`` keeps the rows whose items are still stored (an
    /// in-memory one keeps its latest pages, see ``create(name:in:)``). Every other rebuild starts
    /// from empty tables.
    func tablesKeptByRebuild(name: String, storedFingerprint: String) -> [String] {
        guard view.isManual, !view.isInMemory, storedFingerprint == view.fingerprint else { return [] }
        return view.pages.tableNames
    }

    /// Sorts the items of each group in memory and writes them in pages; a view that starts
    /// empty writes none (a manual view is one: the app fills it, and a rebuild keeps the rows
    /// it finds, see ``keepStoredRows(name:in:)``).
    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        let store = try state(name: name, in: context).store
        if view.isManual {
            return try keepStoredRows(store: store, in: context)
        }
        guard view.populatesStoredItems else { return }
        var groups: [String: [(rowID: Int64, key: String, item: Definition.Row)]] = [:]
        try view.forEachStored(in: context, progress: progress) { rowID, key, item in
            let group = try readable(rowID: rowID, name: name, in: context) {
                try view.group(of: item, rowID: rowID, in: context)
            }
            if let group = group ?? nil {
                groups[group, default: []].append((rowID, key, item))
            }
        }
        for (group, rows) in groups {
            let sorted = try rows.sorted { try view.sortsBefore($0.item, key: $0.key, $1.item, key: $1.key) }
            try write(sorted.map { ($0.rowID, $0.key) }, group: group, to: store)
        }
    }

    /// Brings the rows that a manual view's rebuild kept (see
    /// ``tablesKeptByRebuild(name:storedFingerprint:)``) in step with the items: by the key the
    /// app placed each row with, a row whose item is still stored stays at its place, under the
    /// item's row id now (another process may have removed it and stored it again); the rows of
    /// items gone leave, also when another item took their row id. Nothing is reported: the
    /// commit says that the view was rebuilt.
    private func keepStoredRows(store: any ViewPageStore, in context: ExtensionContext) throws {
        let keys = try store.allKeys()
        guard !keys.isEmpty else { return try store.deleteAll() }
        var groups: [(group: String, rows: [(rowID: Int64, key: String)])] = []
        var placed: Set<Int64> = []
        for (group, _) in try store.groupCounts().sorted(by: { $0.group < $1.group }) {
            var rows: [(rowID: Int64, key: String)] = []
            for page in try store.groupPages(group) {
                for rowID in try store.page(page.id).rows {
                    guard let key = keys[rowID],
                        let current = try context.core.selectRowID(key: key, collection: view.primaryCollection),
                        placed.insert(current).inserted
                    else { continue }
                    rows.append((current, key))
                }
            }
            groups.append((group, rows))
        }
        try store.deleteAll()
        for (group, rows) in groups where !rows.isEmpty {
            try write(rows, group: group, to: store)
        }
    }

    /// Writes the rows of a new group, in order, in pages of ``ViewStorage/buildPageSize`` rows,
    /// with their keys for a manual view.
    private func write(_ rows: [(rowID: Int64, key: String)], group: String, to store: any ViewPageStore) throws {
        var start = 0
        var ord: Int64 = 0
        while start < rows.count {
            let end = Swift.min(start + ViewStorage.buildPageSize, rows.count)
            let page = try store.insertPage(group: group, ord: ord, rows: rows[start..<end].map(\.rowID))
            for (rowID, key) in rows[start..<end] {
                try store.setPage(page, ofRow: rowID)
                if view.isManual { try store.setKey(key, ofRow: rowID) }
            }
            start = end
            ord += ViewStorage.ordinalGap
        }
    }

    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        let state = try self.state(name: name, in: context)
        if view.isManual, event.kind != .removed {
            // The app places the rows of a manual view: a write keeps the row where it is.
            if try state.currentPage(of: event.rowID, in: context) != 0 {
                let parts: ViewRowChange.Parts =
                    switch event.kind {
                    case .touched: []
                    case .metadataUpdated: .metadata
                    default: .item
                    }
                state.noteChange(event.rowID, key: event.key, collection: nil, parts: parts, repositioned: false)
            }
            return
        }
        switch event.kind {
        case .removed:
            try state.noteRemoval(event.rowID, key: event.key, collection: reported(event.collection), in: context)
        case .touched:
            if try state.currentPage(of: event.rowID, in: context) != 0 {
                state.noteChange(
                    event.rowID, key: event.key, collection: reported(event.collection), parts: [], repositioned: false)
            }
        case .inserted, .dataUpdated, .metadataUpdated:
            // An item that does not decode is left out, as if the filter had excluded it.
            let resolved = try readable(rowID: event.rowID, name: name, in: context) {
                let item = try view.resolve(event, in: context)
                return (item: item, group: try view.group(of: item, rowID: event.rowID, in: context))
            }
            let parts: ViewRowChange.Parts = event.kind == .metadataUpdated ? .metadata : .item
            let newGroup = resolved?.group
            let page = try state.currentPage(of: event.rowID, in: context)
            if page != 0 {
                if let item = resolved?.item, try state.group(ofPage: page, in: context) == newGroup,
                    try isInOrder(item, key: event.key, rowID: event.rowID, page: page, state: state, in: context)
                {
                    state.noteChange(
                        event.rowID, key: event.key, collection: reported(event.collection), parts: parts,
                        repositioned: false)
                    return
                }
                try state.remove(event.rowID, in: context)
            } else if newGroup == nil {
                // Neither in the view before nor after: nothing to record.
                return
            }
            if let newGroup, let item = resolved?.item {
                try state.insert(event.rowID, into: newGroup, in: context) { other in
                    let (otherKey, otherItem) = try view.row(other, in: context)
                    return try view.sortsBefore(item, key: event.key, otherItem, key: otherKey)
                }
            }
            state.noteChange(
                event.rowID, key: event.key, collection: reported(event.collection), parts: parts, repositioned: true)
        }
    }

    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try self.state(name: name, in: context).removeEverything(
            rows: rows ?? [], reportsCollections: view.reportsCollections, in: context)
    }

    /// The removal of one collection of a view over several takes out that collection's rows
    /// only; the removal of everything, or of a view's only collection, empties the view.
    func removeAll(rows: [RemovedRow]?, ofCollection collection: String?, name: String, in context: ExtensionContext)
        throws
    {
        guard view.reportsCollections, let collection else {
            return try removeAll(rows: rows, name: name, in: context)
        }
        let state = try self.state(name: name, in: context)
        for row in rows ?? [] {
            try state.noteRemoval(row.rowID, key: row.key, collection: collection, in: context)
        }
    }

    /// What `body` computes from a row, or `nil` when the row's bytes do not decode (a
    /// ``TroveError/Code/corruptData`` error from reading the item, or from the view's closures
    /// reading it): the row is left out of the view and recorded (see ``UnreadableItem``).
    func readable<T>(rowID: Int64, name: String, in context: ExtensionContext, _ body: () throws -> T)
        throws -> T?
    {
        do {
            return try body()
        } catch let error as TroveError where error.code == .corruptData {
            try UnreadableItems.record(rowID: rowID, extensionName: name, error: error, in: context)
            return nil
        }
    }

    /// The collection to name in the row changes: only a view over several collections names it.
    private func reported(_ collection: String) -> String? {
        view.reportsCollections ? collection : nil
    }

    // MARK: Helpers

    /// The view's state in the current write transaction, made on first use: on the file's
    /// tables, or on a copy of the latest version of an in-memory view.
    func state(name: String, in context: ExtensionContext) throws -> ViewWriteState {
        if let state = context.core.extensionStates[name] as? ViewWriteState {
            return state
        }
        let state: ViewWriteState
        if view.isInMemory {
            guard let latest = context.core.database.viewVersions.latest(of: name) else {
                throw TroveError(
                    code: .extensionFailed, message: "The in-memory view '\(name)' has no pages on this database.",
                    collection: view.primaryCollection, extensionName: name)
            }
            state = ViewWriteState(name: name, memory: latest.state)
        } else {
            state = ViewWriteState(storage: view.pages, sqlite: context.sqlite)
        }
        context.core.extensionStates[name] = state
        return state
    }

    /// Whether `item`, at its place in `page`, still sorts after the row before it and before
    /// the row after it.
    private func isInOrder(
        _ item: Definition.Row, key: String, rowID: Int64, page: Int64, state: ViewWriteState,
        in context: ExtensionContext
    ) throws -> Bool {
        let (previous, next) = try state.neighbours(of: rowID, page: page, in: context)
        if let previous {
            let (previousKey, previousItem) = try view.row(previous, in: context)
            guard try view.sortsBefore(previousItem, key: previousKey, item, key: key) else { return false }
        }
        if let next {
            let (nextKey, nextItem) = try view.row(next, in: context)
            guard try view.sortsBefore(item, key: key, nextItem, key: nextKey) else { return false }
        }
        return true
    }
}
