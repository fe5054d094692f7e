import Synchronization

/// The write funnel: every change of `trove_items`, typed or untyped, goes through these methods,
/// which run its SQL, record it in the commit's changeset and hand it to every extension that
/// follows its collection, inside the same transaction.
///
/// A collection that no extension follows costs one atomic load more than the change itself:
/// who follows a collection is resolved once per collection and connection, and again only after
/// an extension is registered or removed (``Database/extensionGeneration``). For followed
/// collections the writes learn the row id that extension tables refer to, without `RETURNING`
/// (SQLite builds a temporary table for each such statement, about as costly as the write). None
/// of these methods touches the caches: the callers do.
extension ConnectionCore {
    // MARK: Who follows a collection

    /// The extensions that follow `collection`, and the orphans to mark stale on a write to it,
    /// or `nil` when there are none.
    func watchers(of collection: String) -> CollectionWatchers? {
        let generation = database.extensionGeneration.load(ordering: .acquiring)
        guard generation != 0 else { return nil }
        if generation != watchersGeneration {
            watcherCache.removeAll(keepingCapacity: true)
            watchersGeneration = generation
        }
        if let cached = watcherCache[collection] {
            return cached.isEmpty ? nil : cached
        }
        var watchers = database.watchers(of: collection)
        if !redefinedExtensions.isEmpty {
            watchers.extensions = watchers.extensions.map { redefinedExtensions[$0.name] ?? $0 }
        }
        watcherCache[collection] = watchers
        return watchers.isEmpty ? nil : watchers
    }

    // MARK: Writes

    /// Inserts or replaces the row at `key` in `collection`. `item` returns the value that was
    /// encoded, for typed writes; it is called only when an extension follows the collection.
    func storeRow(
        key: String, collection: String, data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer?,
        item: () -> Any?
    ) throws {
        let watchers = watchers(of: collection)
        if let hooks = watchers?.hooks, !hooks.isEmpty {
            try call(hooks, HookEvent(.before, .write, collection: collection, key: key, item: item()))
        }
        // An upsert that updates leaves the last insert row id alone: it tells an insert (for
        // the changeset's inserted and updated keys) and its row id; an update's row id is looked
        // up.
        sqlite.lastInsertRowID = 0
        let statement = try sqlite.cachedStatement(FileLayout.upsertItem)
        do {
            defer { statement.reset() }
            try bindRow(statement, key: key, collection: collection, data: data, metadata: metadata)
            try statement.stepToEnd()
        } catch let error as TroveError {
            // SQLite's errors (a value past its size limit, a read-only file) name the file only.
            throw error.involving(collection: collection, key: key)
        }
        let insertedRowID = sqlite.lastInsertRowID
        changes.recordChange(key: key, collection: collection, inserted: insertedRowID != 0)
        guard let watchers else { return }
        let rowID = try insertedRowID != 0 ? insertedRowID : selectRowID(key: key, collection: collection) ?? 0
        let written = item()
        try notify(
            watchers,
            WriteEvent(
                kind: insertedRowID != 0 ? .inserted : .dataUpdated, collection: collection, key: key, rowID: rowID,
                item: written, data: data, metadata: metadata, carriesMetadata: true))
        if !watchers.hooks.isEmpty {
            try call(
                watchers.hooks,
                HookEvent(.after, .write, collection: collection, key: key, inserted: insertedRowID != 0, item: written))
        }
    }

    /// Replaces the data of the row at `key` in `collection`, keeping its metadata.
    ///
    /// - Returns: `true` when there was such a row.
    func replaceData(key: String, collection: String, data: UnsafeRawBufferPointer) throws -> Bool {
        try changeRow(.dataUpdated, key: key, collection: collection, data: data, metadata: nil, sql: FileLayout.replaceData) {
            try $0.bind(data, at: 3)
        }
    }

    /// Replaces the metadata of the row at `key` in `collection` (`nil`: `NULL`), keeping its
    /// data.
    ///
    /// - Returns: `true` when there was such a row.
    func replaceMetadata(key: String, collection: String, metadata: UnsafeRawBufferPointer?) throws -> Bool {
        try changeRow(
            .metadataUpdated, key: key, collection: collection, data: nil, metadata: metadata,
            sql: FileLayout.replaceMetadata
        ) { statement in
            if let metadata {
                try statement.bind(metadata, at: 3)
            } else {
                try statement.bindNull(at: 3)
            }
        }
    }

    /// Marks the row at `key` in `collection` changed without changing it.
    ///
    /// - Returns: `true` when there was such a row.
    func touchRow(key: String, collection: String) throws -> Bool {
        try changeRow(.touched, key: key, collection: collection, data: nil, metadata: nil, sql: nil)
    }

    /// Removes the row at `key` in `collection`.
    ///
    /// - Returns: `true` when there was such a row.
    func removeRow(key: String, collection: String) throws -> Bool {
        try removeRows(CollectionOfOne(RowRemoval(key: key, rowID: nil)), in: collection) == 1
    }

    /// Removes the rows `removals` of `collection`, in order, skipping those already gone; records
    /// each removal, then hands the rows removed to every extension that follows the collection
    /// at once (``ExtensionImplementation/applyRemovals(_:name:in:)``). Every removal of a row goes
    /// through here, one row or a batch (the removals a relationship's delete rules queue).
    ///
    /// The rows whose row ids are known go by ranges of consecutive ids (``RowIDRanges``): a
    /// range whose rows are all there in one statement, the others row by row. The rows whose
    /// row ids are not known go by key, after looking the row id up when extensions follow the
    /// collection.
    ///
    /// - Parameters:
    ///   - removals: The rows to remove, by key and, when known, row id.
    ///   - collection: Their collection.
    ///   - removed: Called with the key of each row removed, before the extensions hear of them.
    /// - Returns: The number of rows removed.
    /// - Throws: ``TroveError`` when SQLite or an extension fails (which fails the transaction).
    @discardableResult
    func removeRows(
        _ removals: some Collection<RowRemoval>, in collection: String, removed: (String) -> Void = { _ in }
    ) throws -> Int {
        let watchers = watchers(of: collection)
        if let hooks = watchers?.hooks, !hooks.isEmpty {
            // Before anything goes: each stored item asked for, once.
            var seen: Set<String> = []
            for removal in removals where seen.insert(removal.key).inserted {
                guard try removal.rowID != nil || selectRowID(key: removal.key, collection: collection) != nil else {
                    continue
                }
                try call(hooks, HookEvent(.before, .removal, collection: collection, key: removal.key))
            }
        }
        var deletedRowIDs = DeletedRowIDs()
        if removals.contains(where: { $0.rowID != nil }) {
            deletedRowIDs = try deleteRows(inRangesOf: removals.lazy.compactMap(\.rowID), collection: collection)
        }
        // The rows removed, for the extensions (none: not listed).
        var removedRows: [RemovedRow] = []
        if watchers != nil { removedRows.reserveCapacity(removals.count) }
        var count = 0
        for removal in removals {
            let rowID: Int64
            if let known = removal.rowID {
                // A row removed once, however often it was asked for.
                guard deletedRowIDs.take(known) else { continue }
                rowID = known
            } else {
                guard let deleted = try deleteRow(key: removal.key, in: collection, needsRowID: watchers != nil) else {
                    continue
                }
                rowID = deleted
            }
            changes.recordRemoval(key: removal.key, collection: collection)
            count += 1
            removed(removal.key)
            if watchers != nil {
                removedRows.append(RemovedRow(rowID: rowID, key: removal.key, collection: collection))
            }
        }
        if let watchers, !removedRows.isEmpty {
            try markStale(watchers.orphans)
            for watcher in watchers.extensions {
                try run(watcher) { try $0.implementation.applyRemovals(removedRows, name: $0.name, in: $1) }
            }
            for row in removedRows where !watchers.hooks.isEmpty {
                try call(watchers.hooks, HookEvent(.after, .removal, collection: collection, key: row.key))
            }
        }
        return count
    }

    /// Deletes the row at `key` in `collection`, after looking its row id up when `needsRowID`.
    ///
    /// - Returns: The row id of the row deleted (0 when it was not needed), or `nil` when there
    ///   was no such row.
    private func deleteRow(key: String, in collection: String, needsRowID: Bool) throws -> Int64? {
        var rowID: Int64 = 0
        if needsRowID {
            guard let existing = try selectRowID(key: key, collection: collection) else { return nil }
            rowID = existing
        }
        let statement = try sqlite.cachedStatement(FileLayout.deleteItem)
        defer { statement.reset() }
        do {
            try statement.bind(collection, at: 1)
            try statement.bind(key, at: 2)
            try statement.stepToEnd()
        } catch let error as TroveError {
            throw error.involving(collection: collection, key: key)
        }
        return sqlite.changes > 0 ? rowID : nil
    }

    /// Deletes the rows at `rowIDs` that exist, by ranges of consecutive ids: a range of one row,
    /// or whose rows a scan finds all there, in one statement; the others row by row.
    ///
    /// The row ids come from the caller, who read them in this transaction; the rows at them are
    /// those it read (`trove_items` gets no new row between: see ``RowRemoval``).
    ///
    /// - Returns: The row ids of the rows deleted.
    private func deleteRows(inRangesOf rowIDs: some Sequence<Int64>, collection: String) throws -> DeletedRowIDs {
        var deleted = DeletedRowIDs()
        for range in RowIDRanges.of(rowIDs) {
            var present: [Int64] = []
            if range.count > 1 {
                let scan = try sqlite.cachedStatement(FileLayout.selectRowIDsInRange)
                defer { scan.reset() }
                try scan.bind(range.lowerBound, at: 1)
                try scan.bind(range.upperBound, at: 2)
                while try scan.step() { present.append(scan.int64(at: 0)) }
            }
            // The whole range in one statement, or its rows one by one.
            let whole = range.count == 1 || present.count == range.count
            for part in whole ? [range] : present.map({ $0...$0 }) {
                let statement = try sqlite.cachedStatement(FileLayout.deleteItemsInRange)
                defer { statement.reset() }
                do {
                    try statement.bind(part.lowerBound, at: 1)
                    try statement.bind(part.upperBound, at: 2)
                    try statement.stepToEnd()
                } catch let error as TroveError {
                    throw error.involving(collection: collection, key: nil)
                }
                if part.count > 1 {
                    // The scan found every row of the range, in this transaction.
                    deleted.append(contentsOf: present)
                } else if sqlite.changes > 0 {
                    deleted.append(part.lowerBound)
                }
            }
        }
        return deleted
    }

    /// Changes the row at `key` in `collection` with `sql`, whose first two parameters are the
    /// collection and the key and whose others `bind` binds (no statement: a touch); records the
    /// change and hands it to the extensions as an event of `kind` (not a removal: see
    /// ``removeRows(_:in:removed:)``). When extensions follow the collection, or for a touch, the
    /// row id is looked up first.
    ///
    /// - Returns: `true` when there was such a row.
    private func changeRow(
        _ kind: WriteEvent.Kind, key: String, collection: String, data: UnsafeRawBufferPointer?,
        metadata: UnsafeRawBufferPointer?, sql: String?, bind: (Statement) throws -> Void = { _ in }
    ) throws -> Bool {
        let watchers = watchers(of: collection)
        var rowID: Int64 = 0
        if watchers != nil || sql == nil {
            guard let existing = try selectRowID(key: key, collection: collection) else { return false }
            rowID = existing
        }
        let hookChange: HookEvent.Change =
            switch kind {
            case .dataUpdated: .dataUpdate
            case .metadataUpdated: .metadataUpdate
            default: .touch
            }
        if let hooks = watchers?.hooks, !hooks.isEmpty {
            try call(hooks, HookEvent(.before, hookChange, collection: collection, key: key))
        }
        if let sql {
            let statement = try sqlite.cachedStatement(sql)
            defer { statement.reset() }
            do {
                try statement.bind(collection, at: 1)
                try statement.bind(key, at: 2)
                try bind(statement)
                try statement.stepToEnd()
            } catch let error as TroveError {
                throw error.involving(collection: collection, key: key)
            }
            guard sqlite.changes > 0 else { return false }
        }
        changes.recordChange(key: key, collection: collection, inserted: false)
        if let watchers {
            try notify(
                watchers,
                WriteEvent(
                    kind: kind, collection: collection, key: key, rowID: rowID, item: nil, data: data,
                    metadata: metadata, carriesMetadata: false))
            if !watchers.hooks.isEmpty {
                try call(watchers.hooks, HookEvent(.after, hookChange, collection: collection, key: key))
            }
        }
        return true
    }

    /// The row id of the row at `key` in `collection`, if any.
    func selectRowID(key: String, collection: String) throws -> Int64? {
        let statement = try sqlite.cachedStatement(FileLayout.selectRowID)
        defer { statement.reset() }
        try statement.bind(collection, at: 1)
        try statement.bind(key, at: 2)
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    /// Removes every row of `collection`; the extensions that follow it are told which rows went
    /// when they ask.
    ///
    /// - Returns: The number of rows removed.
    func removeRows(in collection: String) throws -> Int {
        let watchers = watchers(of: collection)
        var rows: [RemovedRow]?
        if let watchers, watchers.extensions.contains(where: { $0.implementation.needsRemovedRows }) {
            rows = try selectRows(FileLayout.selectRowIDsInCollection, collection: collection)[collection] ?? []
        }
        if let hooks = watchers?.hooks, !hooks.isEmpty {
            try call(hooks, HookEvent(.before, .removalOfAll, collection: collection, key: nil))
        }
        let statement = try sqlite.cachedStatement(FileLayout.deleteCollection)
        do {
            defer { statement.reset() }
            try statement.bind(collection, at: 1)
            try statement.stepToEnd()
        }
        let removed = sqlite.changes
        guard removed > 0 else { return 0 }
        changes.recordRemoval(collection: collection)
        if let watchers {
            try markStale(watchers.orphans)
            for watcher in watchers.extensions {
                try run(watcher) {
                    try $0.implementation.removeAll(rows: rows, ofCollection: collection, name: $0.name, in: $1)
                }
            }
            try call(watchers.hooks, HookEvent(.after, .removalOfAll, collection: collection, key: nil))
        }
        return removed
    }

    /// Removes every row of every collection; each extension is told as for its collection alone.
    ///
    /// - Returns: The number of rows removed.
    func removeAllRows() throws -> Int {
        let (extensions, orphans, hooks) = database.allWatchers()
        var rows: [String: [RemovedRow]]?
        if extensions.contains(where: { $0.implementation.needsRemovedRows }) {
            rows = try selectRows(FileLayout.selectRowIDs, collection: nil)
        }
        try call(hooks, HookEvent(.before, .removalOfAll, collection: nil, key: nil))
        try sqlite.executeCached(FileLayout.deleteAll)
        let removed = sqlite.changes
        guard removed > 0 else { return 0 }
        changes.recordRemovalOfEverything()
        try markStale(orphans)
        for watcher in extensions {
            // The rows of every collection the extension follows (a view over several collections
            // follows more than its own).
            let removedRows = rows.map { rows in
                rows.filter { watcher.implementation.follows($0.key) }.sorted { $0.key < $1.key }.flatMap(\.value)
            }
            try run(watcher) {
                try $0.implementation.removeAll(rows: removedRows, ofCollection: nil, name: $0.name, in: $1)
            }
        }
        try call(hooks, HookEvent(.after, .removalOfAll, collection: nil, key: nil))
        return removed
    }

    // MARK: Handing changes to extensions

    private func notify(_ watchers: CollectionWatchers, _ event: WriteEvent) throws {
        try markStale(watchers.orphans)
        for watcher in watchers.extensions {
            try run(watcher) { try $0.implementation.apply(event, name: $0.name, in: $1) }
        }
    }

    /// Runs `body` for `watcher`. An error fails the whole transaction: it is thrown now, and
    /// thrown again by the commit if the caller catches it, since the row and the extension no
    /// longer agree.
    private func run(_ watcher: DatabaseExtension, _ body: (DatabaseExtension, ExtensionContext) throws -> Void) throws {
        do {
            try body(watcher, ExtensionContext(core: self, extension: watcher))
        } catch {
            var troveError =
                error as? TroveError
                ?? TroveError(
                    code: .extensionFailed, message: "The extension '\(watcher.name)' failed: \(error).",
                    underlyingError: error)
            if troveError.extensionName == nil { troveError.extensionName = watcher.name }
            if transactionFailure == nil { transactionFailure = troveError }
            throw troveError
        }
    }

    /// Marks in the file, once per transaction, the orphans of a collection this transaction
    /// writes to as stale: they miss this write. Orphans stay orphans: a process that maintains
    /// one may rebuild it, and this instance's next writes must mark it again.
    private func markStale(_ orphans: [String]) throws {
        for name in orphans where !orphansMarkedStale.contains(name) {
            let statement = try sqlite.cachedStatement(FileLayout.markExtensionStale)
            defer { statement.reset() }
            try statement.bind(name, at: 1)
            try statement.stepToEnd()
            orphansMarkedStale.insert(name)
        }
    }

    // MARK: Statements

    private func bindRow(
        _ statement: Statement, key: String, collection: String, data: UnsafeRawBufferPointer,
        metadata: UnsafeRawBufferPointer?
    ) throws {
        try statement.bind(collection, at: 1)
        try statement.bind(key, at: 2)
        try statement.bind(data, at: 3)
        if let metadata {
            try statement.bind(metadata, at: 4)
        } else {
            try statement.bindNull(at: 4)
        }
    }

    /// The row ids and keys that `sql` selects, by collection (`collection` when given, bound as
    /// its first parameter; otherwise the statement's third column).
    private func selectRows(_ sql: String, collection: String?) throws -> [String: [RemovedRow]] {
        let statement = try sqlite.cachedStatement(sql)
        defer { statement.reset() }
        if let collection { try statement.bind(collection, at: 1) }
        var rows: [String: [RemovedRow]] = [:]
        while try statement.step() {
            let rowCollection = collection ?? statement.string(at: 2)
            let row = RemovedRow(rowID: statement.int64(at: 0), key: statement.string(at: 1), collection: rowCollection)
            rows[rowCollection, default: []].append(row)
        }
        return rows
    }
}

/// A row that ``ConnectionCore/removeRows(_:in:removed:)`` removes: its key, and its row id in
/// `trove_items` when the caller knows it (a relationship's rule found the row by it), which
/// spares looking it up.
///
/// A known row id must be one read in the current write transaction with no row inserted into
/// `trove_items` since (a row id is reused only by an insert after the row at it went): the
/// removal goes by row id alone. The cascade keeps to this: the removals a rule queues run before
/// any notice is delivered, and only removals run before them.
struct RowRemoval {
    var key: String
    var rowID: Int64?
}

/// The row ids that one batch of removals deleted (``ConnectionCore/removeRows(_:in:removed:)``),
/// each taken once by the removal that names it: a row removed once, however often the batch
/// asks for it. They come in ascending order (ranges in order, the rows of a range in order), so
/// a lookup is a binary search, where a set would hash every id twice.
private struct DeletedRowIDs {
    private var ids: [Int64] = []
    private var taken: [Bool] = []

    /// Adds `id`, greater than every id added before.
    mutating func append(_ id: Int64) {
        precondition(ids.last.map { $0 < id } ?? true, "row ids of a batch out of order")
        ids.append(id)
        taken.append(false)
    }

    /// Adds `newIDs`, ascending and each greater than every id added before.
    mutating func append(contentsOf newIDs: [Int64]) {
        ids.reserveCapacity(ids.count + newIDs.count)
        taken.reserveCapacity(ids.count + newIDs.count)
        for id in newIDs { append(id) }
    }

    /// Whether `id` was deleted and not taken yet; takes it.
    mutating func take(_ id: Int64) -> Bool {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        guard low < ids.count, ids[low] == id, !taken[low] else { return false }
        taken[low] = true
        return true
    }
}

/// Who follows one collection: the extensions registered on it, and the orphans (extensions in
/// the file that this `Database` does not maintain) that a write to it makes stale.
struct CollectionWatchers {
    var extensions: [DatabaseExtension] = []
    var orphans: [String] = []
    /// The hooks called before and after each write (see ``Hooks``).
    var hooks: [Hooks] = []

    var isEmpty: Bool { extensions.isEmpty && orphans.isEmpty && hooks.isEmpty }
}
