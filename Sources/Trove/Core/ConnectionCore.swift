/// The state of a ``Connection`` that only its transactions touch: the SQLite handle, the
/// caches, the snapshot the caches reflect, and the changes of the current write.
///
/// Used only while the connection's lock is held.
final class ConnectionCore {
    let sqlite: SQLiteConnection
    let database: Database
    var items: LRUCache
    var metadata: LRUCache
    /// The snapshot number that the caches reflect; `nil` before the first transaction.
    var snapshot: UInt64?
    /// The changes of the current read-write transaction.
    var changes = ChangesetBuilder()
    /// A writer reused by every write of this connection, so that encoding allocates nothing
    /// once it has grown.
    var writer = BinaryWriter(reservingCapacity: 1024)
    /// The writer of metadata, apart so that an item and its metadata are encoded side by side.
    var metadataWriter = BinaryWriter(reservingCapacity: 256)

    init(sqlite: SQLiteConnection, database: Database) {
        self.sqlite = sqlite
        self.database = database
        self.items = LRUCache(limit: database.configuration.itemCacheLimit)
        self.metadata = LRUCache(limit: database.configuration.metadataCacheLimit)
    }

    // MARK: Transactions

    func beginRead() throws {
        try sqlite.executeCached("BEGIN DEFERRED")
        sqlite.transactionBegan()
        do {
            // The first read of a transaction fixes its snapshot in WAL mode.
            try catchUp(to: readSnapshot())
        } catch {
            rollbackQuietly()
            throw error
        }
    }

    func endRead() throws {
        do {
            try sqlite.executeCached("COMMIT")
            sqlite.transactionEnded()
        } catch {
            rollbackQuietly()
            throw error
        }
    }

    func beginWrite() throws {
        try sqlite.executeCached("BEGIN IMMEDIATE")
        sqlite.transactionBegan()
        do {
            try catchUp(to: readSnapshot())
        } catch {
            rollbackQuietly()
            throw error
        }
        changes = ChangesetBuilder()
    }

    /// Commits the current write. Returns its changeset, or `nil` when it changed nothing.
    func commitWrite() throws -> Changeset? {
        guard !changes.isEmpty else {
            do {
                try sqlite.executeCached("COMMIT")
                sqlite.transactionEnded()
            } catch {
                rollbackWrite()
                throw error
            }
            return nil
        }
        let current = snapshot ?? 0
        let next = current + 1
        let changeset = changes.build(snapshot: next)
        do {
            let statement = try sqlite.cachedStatement(Schema.writeSnapshot)
            defer { statement.reset() }
            try statement.bind(Int64(bitPattern: next), at: 1)
            try statement.stepToEnd()
        } catch {
            rollbackWrite()
            throw error
        }
        database.registerPendingChangeset(changeset)
        do {
            try sqlite.executeCached("COMMIT")
            sqlite.transactionEnded()
        } catch {
            database.discardPendingChangeset(snapshot: next)
            rollbackWrite()
            throw error
        }
        changes = ChangesetBuilder()
        snapshot = next
        database.connection(ObjectIdentifier(self), advancedTo: next)
        return changeset
    }

    /// Rolls the current write back and evicts what it cached.
    func rollbackWrite() {
        rollbackQuietly()
        if changes.removedAllCollections || !changes.removedCollections.isEmpty {
            items.removeAll()
            metadata.removeAll()
        } else {
            changes.forEachTouchedKey { collection, key in evict(key: key, collection: collection) }
        }
        changes = ChangesetBuilder()
    }

    func rollbackQuietly() {
        if sqlite.isInsideTransaction {
            try? sqlite.execute("ROLLBACK")
        }
        sqlite.transactionEnded()
    }

    private func readSnapshot() throws -> UInt64 {
        let statement = try sqlite.cachedStatement(Schema.readSnapshot)
        defer { statement.reset() }
        guard try statement.step() else {
            throw TroveError(
                code: .corruptData, message: "The database has no snapshot number: its registry table is damaged.",
                path: sqlite.path)
        }
        return UInt64(bitPattern: statement.int64(at: 0))
    }

    /// Brings the caches up to `target`: evicts exactly what the commits since the caches'
    /// snapshot changed, or everything when those changesets are no longer known.
    private func catchUp(to target: UInt64) {
        guard let current = snapshot else {
            snapshot = target
            database.connection(ObjectIdentifier(self), advancedTo: target)
            return
        }
        guard current != target else { return }
        if items.count == 0 && metadata.count == 0 {
            database.connection(ObjectIdentifier(self), advancedTo: target)
        } else if let changesets = database.changesets(after: current, through: target, connection: ObjectIdentifier(self)) {
            for changeset in changesets {
                apply(changeset)
            }
        } else {
            items.removeAll()
            metadata.removeAll()
            database.connection(ObjectIdentifier(self), advancedTo: target)
        }
        snapshot = target
    }

    private func apply(_ changeset: Changeset) {
        if changeset.removedAllCollections {
            items.removeAll()
            metadata.removeAll()
            return
        }
        for collection in changeset.removedCollections {
            items.removeAll(in: collection)
            metadata.removeAll(in: collection)
        }
        for (collection, keys) in changeset.changedKeys {
            for key in keys { evict(key: key, collection: collection) }
        }
        for (collection, keys) in changeset.removedKeys {
            for key in keys { evict(key: key, collection: collection) }
        }
    }

    func evict(key: String, collection: String) {
        let cacheKey = CacheKey(collection: collection, key: key)
        items.removeValue(for: cacheKey)
        metadata.removeValue(for: cacheKey)
    }

    deinit {
        database.connectionClosed(ObjectIdentifier(self))
    }
}

// Explicit non-conformance to Sendable: used only under the lock of its Connection.
@available(*, unavailable)
extension ConnectionCore: Sendable {}
