import Foundation
internal import TroveCSQLite
import Synchronization

/// The state of a ``Connection`` that only its transactions touch: the SQLite handle, the
/// caches, the snapshot the caches reflect, and the changes of the current write.
///
/// Used only while the connection's lock is held.
///
/// ## Keeping the caches right
///
/// The caches hold values of the snapshot of the connection's last transaction. When a
/// transaction starts, they must lose exactly the entries that commits since then changed:
///
/// - **Whether anything changed at all** is SQLite's data version of the file
///   (`SQLITE_FCNTL_DATA_VERSION`), which changes with every commit of any handle or process.
///   When it has not changed, the caches are right as they are: a read transaction costs one
///   guard statement (``SQLiteConnection/beginGuardedRead()``) and nothing else.
/// - **Which commits of this process** the snapshot includes: commits of one `Database` are
///   numbered, and ``Database/commitState`` is twice the latest number, plus one while a commit
///   is under way. A reader loads it before and after its read transaction starts: every commit
///   up to the first load's number is in its snapshot (`lower`), none after the second load's
///   number, counting the one under way (`upper`). It evicts what the changesets up to `upper`
///   changed and labels its caches with `lower`, so that its next transaction evicts the
///   commits after `lower` again: evicting too much is safe, too little is not. A writer holds
///   the writer lock, so it knows the exact number.
/// - **Whether another process committed** (or another `Database` on the same file): every
///   commit leaves in the file's registry the token of the `Database` that made it, a random
///   number drawn anew each time an instance finds another's token there, so that a token never
///   comes back. When the file changed, the transaction reads the token: if it is still the one
///   the caches were labeled with and it is this instance's own, only this process committed;
///   otherwise everything is evicted. The registry is written only by the first commit after
///   another process's, so a process that works alone never writes it.
/// - **Writers that are not Trove** (the `sqlite3` shell, a migration script) leave no token.
///   When the file changed and no commit of this process explains it, everything is evicted;
///   an outside write followed by a commit of this process before the connection's next
///   transaction goes unnoticed, which ``Database/invalidateCaches()`` is for.
final class ConnectionCore {
    let sqlite: SQLiteConnection
    /// The database: kept alive by ``owningDatabase`` for a ``Connection``; a connection of the
    /// database's own pool is owned by the database, which outlives it (a strong reference would
    /// be a cycle).
    unowned(unsafe) let database: Database
    /// The strong reference that keeps ``database`` alive, `nil` for a connection of the pool.
    private let owningDatabase: Database?
    var items: LRUCache
    var metadata: LRUCache
    /// The pages of the persistent views this connection read, kept coherent with the items by
    /// the same rules (see ``ViewPageCache``).
    var viewPages = ViewPageCache()
    /// The number of the latest commit of this process that the caches' snapshot is known to
    /// include; `nil` before the first transaction.
    var snapshot: UInt64?
    /// SQLite's data version of the file when the caches' snapshot was taken.
    private var dataVersion: UInt32 = 0
    /// The writer token in the file when the caches' snapshot was taken.
    private(set) var fileWriterToken: UInt64 = 0
    /// The exact number of the latest commit of this process in the current transaction's
    /// snapshot, when it is known: always in a write transaction, and in a read transaction once
    /// state is kept by commit number (see ``SnapshotPins``); `nil` otherwise.
    private(set) var exactSnapshot: UInt64?
    /// Whether the current read transaction pinned ``exactSnapshot`` in ``Database/snapshotPins``.
    private var pinnedSnapshot = false
    /// The database's ``Database/cacheGeneration`` when the caches were last emptied for it.
    private var cacheGeneration: UInt64 = 0
    /// The changes of the current read-write transaction.
    var changes = ChangesetBuilder()
    /// The first error of an extension in the current read-write transaction: its commit throws
    /// it, since a row and an extension no longer agree (see ``run(_:_:)``).
    var transactionFailure: TroveError?
    /// The orphans the current read-write transaction marked stale in the file (once each).
    var orphansMarkedStale: Set<String> = []
    /// The registered extensions the current read-write transaction rebuilt after another
    /// process left them stale.
    var extensionsRebuilt: [String] = []
    /// What a kind of extension keeps during the current read-write transaction, shared by all
    /// the extensions of that kind, by type (see ``transactionLocal(_:)``); dropped when the
    /// transaction ends.
    private var transactionLocals: [ObjectIdentifier: AnyObject] = [:]
    /// The per-transaction parts of extensions that keep state during the current read-write
    /// transaction (a view's original pages), by extension name; see ``ExtensionTransactionState``.
    var extensionStates: [String: any ExtensionTransactionState] = [:]
    /// The definitions of the extensions whose state ``ExtensionContext/transactionState(_:)``
    /// made, for the context of their commit steps.
    var extensionStateImplementations: [String: any ExtensionImplementation] = [:]
    /// The prepared statements of extensions (see ``ExtensionContext``).
    var extensionStatements = ExtensionStatements()
    /// What extensions keep in this connection, by extension name (see
    /// ``ExtensionConnectionCache``): told of every commit its next transaction sees, emptied
    /// with the other caches.
    var extensionCaches: [String: any ExtensionConnectionCache] = [:]
    /// The extensions the current read-write transaction defined anew (a view whose grouping or
    /// sort it changed), by name: its writes and queries use them in place of the database's
    /// registered ones, and its commit installs them (see `ConnectionCore+Redefinition.swift`).
    var redefinedExtensions: [String: DatabaseExtension] = [:]
    /// The database's registry before the commit installed ``redefinedExtensions``, to put back
    /// if the commit fails.
    var registryBeforeRedefinitions: ExtensionRegistry?
    /// Who follows each collection, as of ``watchersGeneration`` (see ``watchers(of:)``).
    var watcherCache: [String: CollectionWatchers] = [:]
    var watchersGeneration: UInt64 = 0
    /// A writer reused by every write of this connection, so that encoding allocates nothing
    /// once it has grown.
    var writer = BinaryWriter(reservingCapacity: 1024)
    /// The writer of metadata, apart so that an item and its metadata are encoded side by side.
    var metadataWriter = BinaryWriter(reservingCapacity: 256)
    /// The types whose first typed write on this connection is behind it: the file holds their
    /// schemas, or they have none (see ``recordSchemaOnFirstWrite(of:)``).
    var typesWithRecordedSchema: Set<ObjectIdentifier> = []
    /// The types whose schemas the current read-write transaction recorded.
    var schemasRecordedInTransaction: [ObjectIdentifier] = []

    init(sqlite: SQLiteConnection, database: Database, ownedByDatabase: Bool = false) {
        self.sqlite = sqlite
        self.database = database
        self.owningDatabase = ownedByDatabase ? nil : database
        self.items = LRUCache(limit: database.configuration.itemCacheLimit)
        self.metadata = LRUCache(limit: database.configuration.metadataCacheLimit)
    }

    // MARK: Transactions

    func beginRead() throws {
        exactSnapshot = nil
        if database.snapshotPins.isInUse {
            try beginExactRead()
            return
        }
        let before = database.commitState.load(ordering: .sequentiallyConsistent)
        try sqlite.beginGuardedRead()
        do {
            let after = database.commitState.load(ordering: .sequentiallyConsistent)
            try catchUp(lower: before >> 1, upper: (after + 1) >> 1)
        } catch {
            sqlite.endGuardedRead()
            throw error
        }
    }

    /// Begins a read transaction whose snapshot includes exactly the commits of this process up
    /// to a known number, pinned in ``Database/snapshotPins`` until ``endRead()``: it begins when
    /// no commit is under way, and begins again when one completed meanwhile (a commit is under
    /// way only while SQLite commits, so the wait is short).
    ///
    /// The number is pinned before SQLite takes the snapshot: a version (of an in-memory view) that
    /// a commit publishes after the pin is taken keeps the pinned one alive.
    private func beginExactRead() throws {
        while true {
            let before = database.commitState.load(ordering: .sequentiallyConsistent)
            guard before & 1 == 0 else {
                sched_yield()
                continue
            }
            let number = before >> 1
            database.snapshotPins.pin(number)
            do {
                try sqlite.beginGuardedRead()
            } catch {
                database.snapshotPins.unpin(number)
                throw error
            }
            guard database.commitState.load(ordering: .sequentiallyConsistent) == before else {
                sqlite.endGuardedRead()
                database.snapshotPins.unpin(number)
                sched_yield()
                continue
            }
            do {
                try catchUp(lower: number, upper: number)
            } catch {
                sqlite.endGuardedRead()
                database.snapshotPins.unpin(number)
                throw error
            }
            exactSnapshot = number
            pinnedSnapshot = true
            return
        }
    }

    func endRead() {
        sqlite.endGuardedRead()
        if pinnedSnapshot, let exactSnapshot {
            database.snapshotPins.unpin(exactSnapshot)
        }
        pinnedSnapshot = false
        exactSnapshot = nil
    }

    /// Runs `body` in a read transaction of this connection: what every read transaction,
    /// explicit or of the pool, runs once its connection is held.
    func runRead<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        try beginRead()
        let transaction = ReadTransaction(core: self)
        defer {
            transaction.invalidate()
            endRead()
        }
        return try body(transaction)
    }

    /// Runs `body` in a read-write transaction of this connection, commits it and publishes its
    /// changeset, or rolls it back if `body` throws. The caller holds the database's writer
    /// lock: the changeset is published before it is released, so that subscribers receive the
    /// changesets in commit order (publishing only enqueues them).
    func runReadWrite<T>(_ body: (ReadWriteTransaction) throws -> T) throws -> T {
        try beginWrite()
        let transaction = ReadWriteTransaction(core: self)
        defer { transaction.invalidate() }
        let result: T
        do {
            result = try body(transaction)
        } catch {
            rollbackWrite()
            throw error
        }
        if let changeset = try commitWrite() {
            database.changeHub.publish(changeset)
        }
        return result
    }

    /// Runs `body`, which may suspend, in a read transaction of this connection: the asynchronous
    /// twin of ``runRead(_:)``. The caller holds the connection for the whole body.
    func runRead<T>(_ body: (ReadTransaction) async throws -> T) async throws -> T {
        try beginRead()
        let transaction = ReadTransaction(core: self)
        defer {
            transaction.invalidate()
            endRead()
        }
        return try await body(transaction)
    }

    /// Runs `body`, which may suspend, in a read-write transaction of this connection: the
    /// asynchronous twin of ``runReadWrite(_:)``. The caller holds the database's writer lock.
    func runReadWrite<T>(_ body: (ReadWriteTransaction) async throws -> T) async throws -> T {
        try beginWrite()
        let transaction = ReadWriteTransaction(core: self)
        defer { transaction.invalidate() }
        let result: T
        do {
            result = try await body(transaction)
        } catch {
            rollbackWrite()
            throw error
        }
        if let changeset = try commitWrite() {
            database.changeHub.publish(changeset)
        }
        return result
    }

    func beginWrite() throws {
        try beginImmediate()
        sqlite.transactionBegan()
        do {
            // No commit of this process is under way: this transaction holds the writer lock.
            let latest = database.commitState.load(ordering: .sequentiallyConsistent) >> 1
            try catchUp(lower: latest, upper: latest)
            exactSnapshot = latest
            changes.removeAll()
            resetExtensionState()
            if database.extensionsMayHaveChanged.exchange(false, ordering: .sequentiallyConsistent) {
                // Under the write lock the snapshot is the latest: what it shows is exact.
                try database.reloadOrphans(sqlite)
            }
            try rebuildStaleExtensions()
        } catch {
            rollbackQuietly()
            forgetViewPagesOfWrite()
            changes.removeAll()
            resetExtensionState()
            schemasRolledBack()
            throw error
        }
    }

    /// How long the writer waits for the log's write lock at least, whatever the busy timeout.
    ///
    /// This process has one writer at a time, but SQLite's readers take the write lock too, for an
    /// instant: a reader that finds the log's index being updated takes it to read the index
    /// safely. With a busy timeout of 0, a writer that starts in that instant would fail with
    /// `SQLITE_BUSY`, and under load the instant lasts as long as the reader's thread waits for a
    /// core.
    static let writeLockGraceMilliseconds = 500

    /// Starts the write transaction, retrying for ``writeLockGraceMilliseconds`` when the busy
    /// timeout is shorter and the write lock is taken (see there).
    private func beginImmediate() throws {
        let timeout = database.configuration.busyTimeoutMilliseconds
        guard timeout < Self.writeLockGraceMilliseconds else {
            // SQLite's busy handler already waits longer than the grace.
            return try sqlite.executeCached("BEGIN IMMEDIATE")
        }
        let start = ContinuousClock.now
        var pauseMicroseconds = 50
        while true {
            do {
                return try sqlite.executeCached("BEGIN IMMEDIATE")
            } catch let error as TroveError where error.sqliteResultCode == SQLITE_BUSY {
                let waited = ContinuousClock.now - start
                let deadline = Duration.milliseconds(Self.writeLockGraceMilliseconds)
                guard waited + .microseconds(pauseMicroseconds) < deadline else { throw error }
                Thread.sleep(forTimeInterval: Double(pauseMicroseconds) / 1_000_000)
                pauseMicroseconds = min(pauseMicroseconds * 2, 20_000)
            }
        }
    }

    /// The object of type `T` that the current read-write transaction keeps for a kind of
    /// extension, made by `make` on first use; the next transaction starts without it.
    func transactionLocal<T: AnyObject>(_ make: () -> T) -> T {
        let key = ObjectIdentifier(T.self)
        if let local = transactionLocals[key] {
            return unsafeDowncast(local, to: T.self)
        }
        let local = make()
        transactionLocals[key] = local
        return local
    }

    /// The object of type `T` that the current read-write transaction keeps, if it made one.
    func existingTransactionLocal<T: AnyObject>(_ type: T.Type) -> T? {
        transactionLocals[ObjectIdentifier(type)].map { unsafeDowncast($0, to: T.self) }
    }

    /// Drops the object of type `T` that the current read-write transaction keeps.
    func removeTransactionLocal<T: AnyObject>(_ type: T.Type) {
        transactionLocals[ObjectIdentifier(type)] = nil
    }

    private func resetExtensionState() {
        transactionFailure = nil
        orphansMarkedStale.removeAll()
        extensionsRebuilt.removeAll()
        if !transactionLocals.isEmpty { transactionLocals.removeAll() }
        extensionStates.removeAll()
        if !extensionStateImplementations.isEmpty { extensionStateImplementations.removeAll() }
        if !redefinedExtensions.isEmpty {
            redefinedExtensions.removeAll()
            registryBeforeRedefinitions = nil
            watcherCache.removeAll()
        }
    }

    /// Commits the current write. Returns its changeset, or `nil` when it changed nothing.
    func commitWrite() throws -> Changeset? {
        // Whether it commits or rolls back, the pages this transaction wrote are not the cache's.
        forgetViewPagesOfWrite()
        if transactionFailure == nil, !extensionStates.isEmpty {
            do {
                try runWillCommit()
            } catch {
                rollbackWrite()
                throw error
            }
        }
        if let transactionFailure {
            rollbackWrite()
            throw transactionFailure
        }
        installRedefinitions()
        guard !changes.isEmpty else {
            do {
                try sqlite.executeCached("COMMIT")
                sqlite.transactionEnded()
            } catch {
                rollbackWrite()
                throw error
            }
            schemasCommitted()
            // No new number: what the extensions publish belongs to the latest one.
            runDidCommit(snapshot: database.commitState.load(ordering: .sequentiallyConsistent) >> 1)
            resetExtensionState()
            return nil
        }
        let ownToken = database.writerToken.load(ordering: .sequentiallyConsistent)
        var newToken: UInt64?
        if ownToken == 0 || fileWriterToken != ownToken {
            let token = UInt64.random(in: 1...UInt64.max)
            do {
                let statement = try sqlite.cachedStatement(FileLayout.writeWriterToken)
                defer { statement.reset() }
                try statement.bind(Int64(bitPattern: token), at: 1)
                try statement.stepToEnd()
            } catch {
                rollbackWrite()
                throw error
            }
            newToken = token
        }
        let next = (database.commitState.load(ordering: .sequentiallyConsistent) >> 1) + 1
        let changeset = changes.build(snapshot: next)
        database.registerPendingChangeset(changeset)
        database.commitState.add(1, ordering: .sequentiallyConsistent)
        do {
            try sqlite.executeCached("COMMIT")
            sqlite.transactionEnded()
        } catch {
            // The number stays used: readers that may have seen the commit find no changeset
            // for it and evict everything.
            database.commitState.add(1, ordering: .sequentiallyConsistent)
            database.discardPendingChangeset(snapshot: next)
            rollbackWrite()
            throw error
        }
        if let newToken {
            // Before the commit number moves on, so that the poller, which waits while a commit
            // is under way, finds the new token (see ``ExternalChangePoller``).
            database.replacedWriterToken.store(fileWriterToken, ordering: .sequentiallyConsistent)
            database.writerToken.store(newToken, ordering: .sequentiallyConsistent)
            fileWriterToken = newToken
        }
        // Before the commit number moves on: a reader whose snapshot includes this commit finds
        // what the extensions publish for it (an in-memory view's new version).
        runDidCommit(snapshot: next)
        database.commitState.add(1, ordering: .sequentiallyConsistent)
        changes.removeAll()
        schemasCommitted()
        if !extensionsRebuilt.isEmpty {
            database.committed(rebuilt: extensionsRebuilt)
        }
        resetExtensionState()
        for cache in extensionCaches.values { cache.apply(changeset) }
        label(next)
        // The data version now counts this commit; a failure to read it only costs a full
        // eviction at the next transaction.
        dataVersion = (try? sqlite.dataVersion()) ?? dataVersion &+ 1
        return changeset
    }

    /// Rolls the current write back and evicts what it cached.
    func rollbackWrite() {
        rollbackQuietly()
        undoRedefinitions()
        forgetViewPagesOfWrite()
        runDidRollback()
        for cache in extensionCaches.values { cache.removeAll() }
        if changes.removedAllCollections || !changes.removedCollections.isEmpty {
            items.removeAll()
            metadata.removeAll()
        } else {
            changes.forEachTouchedKey { collection, key in evict(key: key, collection: collection) }
        }
        changes.removeAll()
        resetExtensionState()
        schemasRolledBack()
    }

    func rollbackQuietly() {
        if sqlite.isInsideTransaction {
            try? sqlite.execute("ROLLBACK")
        }
        sqlite.transactionEnded()
    }

    private func readFileWriterToken() throws -> UInt64 {
        let statement = try sqlite.cachedStatement(FileLayout.readWriterToken)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return UInt64(bitPattern: statement.int64(at: 0))
    }

    /// Brings the caches to the snapshot of the transaction that just started, which includes
    /// every commit of this process up to `lower` and none after `upper` (see the type's
    /// documentation): evicts what the commits since the caches' snapshot changed, or
    /// everything when those commits are not all known.
    private func catchUp(lower: UInt64, upper: UInt64) throws {
        let generation = database.cacheGeneration.load(ordering: .sequentiallyConsistent)
        if generation != cacheGeneration {
            removeAllCached()
            cacheGeneration = generation
        }
        let version = try sqlite.dataVersion()
        guard let current = snapshot else {
            let token = try readFileWriterToken()
            if token != 0 && token != database.writerToken.load(ordering: .sequentiallyConsistent) {
                // Another instance committed last: this connection cannot tell what it changed.
                try otherInstanceCommitted()
            }
            fileWriterToken = token
            dataVersion = version
            label(lower)
            return
        }
        if version == dataVersion {
            // Nothing was committed since the caches' snapshot: it is this transaction's.
            if lower > current {
                label(lower)
            }
            return
        }
        let token = try readFileWriterToken()
        let ownToken = database.writerToken.load(ordering: .sequentiallyConsistent)
        let onlyThisProcess = token != 0 && token == fileWriterToken && token == ownToken
        if items.count != 0 || metadata.count != 0 || !viewPages.isEmpty || !extensionCaches.isEmpty {
            // The file changed: when no commit of this process explains it (`upper == current`),
            // something that is not Trove wrote it (see ``Database/invalidateCaches()``).
            if onlyThisProcess, upper > current,
                let changesets = database.changesets(after: current, through: upper)
            {
                for changeset in changesets {
                    apply(changeset)
                }
            } else {
                removeAllCached()
            }
        }
        if !onlyThisProcess {
            try otherInstanceCommitted()
        }
        fileWriterToken = token
        dataVersion = version
        label(max(current, lower))
    }

    /// Notes that another process (or another `Database` on the file) committed since this
    /// connection's previous transaction: it may have written around, rebuilt or removed an
    /// extension of ours, which this transaction's snapshot shows, or registered one that this
    /// instance's writes must now mark stale, which the next write transaction reads.
    private func otherInstanceCommitted() throws {
        database.extensionsMayHaveChanged.store(true, ordering: .sequentiallyConsistent)
        try database.checkExtensionStates(sqlite)
    }

    /// Labels the caches with commit `number` (see ``snapshot``), and lets the history forget the
    /// changesets this connection no longer needs.
    private func label(_ number: UInt64) {
        snapshot = number
        database.connection(ObjectIdentifier(self), advancedTo: number)
    }

    /// Empties the caches of items, metadata, view pages and extensions.
    private func removeAllCached() {
        items.removeAll()
        metadata.removeAll()
        viewPages.removeAll()
        for cache in extensionCaches.values { cache.removeAll() }
    }

    private func apply(_ changeset: Changeset) {
        if changeset.removedAllCollections || changeset.reloadReason != nil {
            removeAllCached()
            return
        }
        for cache in extensionCaches.values { cache.apply(changeset) }
        forgetViewPages(changedBy: changeset)
        for collection in changeset.removedCollections {
            items.removeAll(in: collection)
            metadata.removeAll(in: collection)
        }
        for (collection, keys) in changeset.insertedKeys {
            for key in keys { evict(key: key, collection: collection) }
        }
        for (collection, keys) in changeset.updatedKeys {
            for key in keys { evict(key: key, collection: collection) }
        }
        for (collection, keys) in changeset.removedKeys {
            for key in keys { evict(key: key, collection: collection) }
        }
    }

    func evict(key: String, collection: String) {
        evict(CacheKey(collection: collection, key: key))
    }

    /// Evicts the item entry and the metadata entry at `cacheKey`.
    func evict(_ cacheKey: CacheKey) {
        items.removeValue(for: cacheKey)
        metadata.removeValue(for: cacheKey)
    }

    deinit {
        // A connection of the pool closes while its database is being deinitialized: the history
        // goes with it.
        if owningDatabase != nil {
            database.connectionClosed(ObjectIdentifier(self))
        }
    }
}

// Explicit non-conformance to Sendable: used only under the lock of its Connection.
@available(*, unavailable)
extension ConnectionCore: Sendable {}
