import Foundation
import Trove

/// What a replica keeps, in its own database file, to sync chosen collections: the versions of
/// each synced item field by field (``ItemVersions``), the replica's clock, and an outbox of its
/// local changes in the order they were committed. A database extension: every write to a synced
/// collection, from any place that writes, updates them in the same transaction, so a change is
/// in the outbox if and only if it is committed, whatever kills the process.
///
/// ```swift
/// let ledger = SyncLedger(models: [Todo.self, Project.self])
/// let database = try Database(path: path, extensions: [ledger.databaseExtension])
/// try database.write { tx in try tx.write(todo) }            // stamped, and queued to send
/// let outgoing = try database.read { tx in try ledger.pending(in: tx, limit: 100) }
/// // … sent and acknowledged by the server:
/// try database.write { tx in try ledger.acknowledge(through: outgoing.last!.sequence, in: tx) }
/// // Changes from the server merge field by field and go through the write funnel:
/// try database.write { tx in try ledger.merge(remoteVersions, collection: "todos", key: "1", in: tx) }
/// ```
///
/// A write is stamped with the replica's hybrid logical clock (``HybridClock``); only the fields
/// whose bytes changed get the new time, and only they go into the outbox, so a one-field change
/// sends about one field. Metadata is not synced: it stays with the replica. Items stored before
/// the ledger is registered are recorded at its registration as written then, encoded by their
/// model's coder.
public struct SyncLedger: Sendable {
    /// The name of the extension, unique among the extensions of a file.
    public let name: String
    /// The synced collections, sorted.
    public let collections: [String]
    /// For each synced collection, the items stored in it, encoded by their model's coder.
    let storedItems: [String: @Sendable (ExtensionContext, (_ key: String, _ encoded: [UInt8]) throws -> Void) throws -> Void]

    /// A ledger of the collections of `models`.
    ///
    /// - Parameters:
    ///   - name: The name of the extension (default `sync`): 1 to 64 ASCII letters, digits and
    ///     underscores.
    ///   - models: The models whose collections are synced.
    public init(_ name: String = "sync", models: [any Persistable.Type]) {
        self.name = name
        var storedItems: [String: @Sendable (ExtensionContext, (String, [UInt8]) throws -> Void) throws -> Void] = [:]
        for model in models {
            storedItems[model.collection] = Self.storedItems(of: model)
        }
        self.storedItems = storedItems
        collections = storedItems.keys.sorted()
    }

    private static func storedItems<Item: Persistable>(of type: Item.Type)
        -> @Sendable (ExtensionContext, (String, [UInt8]) throws -> Void) throws -> Void
    {
        { context, body in
            try context.forEachItem(of: Item.self) { _, key, item in
                var writer = BinaryWriter()
                try Item.Coder.encode(item, to: &writer)
                try body(key, writer.bytes)
            }
        }
    }

    /// The ledger as an extension to register (``/Trove/Database/register(_:)-(DatabaseExtension)``).
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: 2, implementation: SyncLedgerImplementation(ledger: self))
    }

    /// The tables.
    var replicaTable: String { "trove_ext_\(name)_replica" }
    var versionsTable: String { "trove_ext_\(name)_versions" }
    var outboxTable: String { "trove_ext_\(name)_outbox" }

    // MARK: Reading

    /// The replica's identity, made at random when the ledger was first registered in this file.
    ///
    /// - Parameter transaction: The transaction to read in.
    /// - Returns: The identity.
    /// - Throws: ``/Trove/TroveError`` when the ledger is not registered or SQLite fails.
    public func replica(in transaction: ReadTransaction) throws -> ReplicaID {
        try clock(in: transaction).replica
    }

    /// The replica's clock as the file holds it: its identity and the latest time it gave or
    /// received.
    func clock(in transaction: ReadTransaction) throws -> HybridClock {
        try readClock(with: transaction.extensionTables(named: name).select)
    }

    /// The versions of the item at `key` in `collection`, or `nil` when the ledger never saw it.
    ///
    /// - Throws: ``/Trove/TroveError`` when the ledger is not registered, SQLite fails, or the stored
    ///   versions do not read.
    public func versions(ofKey key: String, in collection: String, transaction: ReadTransaction) throws -> ItemVersions? {
        try readVersions(collection: collection, key: key, with: transaction.extensionTables(named: name).select)
    }

    /// The local changes not yet acknowledged, oldest first, at most `limit`.
    ///
    /// - Throws: ``/Trove/TroveError`` when the ledger is not registered, SQLite fails, or a stored
    ///   change does not read.
    public func pending(in transaction: ReadTransaction, limit: Int = 1_000) throws -> [PendingChange] {
        var changes: [PendingChange] = []
        try transaction.extensionTables(named: name).select(
            "SELECT seq, collection, key, changes FROM \"\(outboxTable)\" ORDER BY seq LIMIT ?1", [.integer(Int64(max(0, limit)))]
        ) { row in
            guard case .blob(let bytes) = row[3] else { return }
            changes.append(
                PendingChange(
                    sequence: row.int64(at: 0), collection: row.string(at: 1), key: row.string(at: 2),
                    changes: try ItemVersions(serialized: bytes)))
        }
        return changes
    }

    /// How many local changes are not yet acknowledged.
    ///
    /// - Throws: ``/Trove/TroveError`` when the ledger is not registered or SQLite fails.
    public func pendingCount(in transaction: ReadTransaction) throws -> Int {
        var count = 0
        try transaction.extensionTables(named: name).select("SELECT count(*) FROM \"\(outboxTable)\"", []) {
            count = Int($0.int64(at: 0))
        }
        return count
    }

    /// The local changes not yet acknowledged to items of `collections`, merged per item: which
    /// fields this replica changed and has not had acknowledged (the fields a policy guards).
    func pendingChanges(of collections: Set<String>, in transaction: ReadTransaction) throws -> [ItemAddress: ItemVersions] {
        var found: [ItemAddress: ItemVersions] = [:]
        try transaction.extensionTables(named: name).select(
            "SELECT collection, key, changes FROM \"\(outboxTable)\" ORDER BY seq", []
        ) { row in
            let collection = row.string(at: 0)
            guard collections.contains(collection), case .blob(let bytes) = row[2] else { return }
            found[ItemAddress(collection: collection, key: row.string(at: 1)), default: ItemVersions()]
                .merge(try ItemVersions(serialized: bytes))
        }
        return found
    }

    /// Whether `changeset` is the commit of changes pulled from the server (a transaction that
    /// merged other replicas' versions), rather than of a local write.
    ///
    /// ```swift
    /// for try await changeset in database.changes where !ledger.isPulled(changeset) { … }
    /// ```
    public func isPulled(_ changeset: Changeset) -> Bool {
        changeset.extensionNotes[name]?.contains(Self.pulledNote) ?? false
    }

    /// The note a merging transaction's changeset carries (``isPulled(_:)``).
    static let pulledNote = "pulled"

    /// The last change of the server's log merged here (0 before the first pull): where the next
    /// pull starts.
    ///
    /// - Throws: ``/Trove/TroveError`` when the ledger is not registered or SQLite fails.
    public func pullCursor(in transaction: ReadTransaction) throws -> Int64 {
        var cursor: Int64 = 0
        try transaction.extensionTables(named: name).select("SELECT pull_cursor FROM \"\(replicaTable)\"") {
            cursor = $0.int64(at: 0)
        }
        return cursor
    }

    // MARK: Writing

    /// Records that the server's changes up to `cursor` are merged: call it in the transaction
    /// that merged them, so that a pull that stops halfway resumes after what it committed.
    ///
    /// - Throws: ``/Trove/TroveError`` when the ledger is not registered or SQLite fails.
    public func recordPull(through cursor: Int64, in transaction: ReadWriteTransaction) throws {
        try transaction.withExtensionContext(named: name) { context in
            _ = try context.execute("UPDATE \"\(replicaTable)\" SET pull_cursor = max(pull_cursor, ?1)", [.integer(cursor)])
        }
    }

    /// Binds the file to `partition` the first time, and refuses another partition afterwards:
    /// the outbox and the pull cursor belong to one partition, so the file synced with a second
    /// one would send it the first one's changes and pull it from the first one's cursor.
    ///
    /// - Throws: ``/Trove/TroveError`` with code ``/Trove/TroveError/Code/misuse`` naming both
    ///   partitions when the file syncs another; when the ledger is not registered or SQLite
    ///   fails.
    public func bind(to partition: String, in transaction: ReadWriteTransaction) throws {
        try transaction.withExtensionContext(named: name) { context in
            var bound: String?
            try context.select("SELECT partition FROM \"\(replicaTable)\" WHERE partition IS NOT NULL") {
                bound = $0.string(at: 0)
            }
            if let bound {
                guard bound == partition else {
                    throw TroveError(
                        code: .misuse,
                        message: "This file syncs the partition '\(bound)' (sync ledger '\(name)'): it cannot sync '\(partition)' too. Use a file for each partition.",
                        extensionName: name)
                }
                return
            }
            _ = try context.execute("UPDATE \"\(replicaTable)\" SET partition = ?1", [.text(partition)])
        }
    }

    /// The largest outbox number this file ever gave a change (0 before the first).
    func lastIssuedSequence(in transaction: ReadTransaction) throws -> Int64 {
        var last: Int64 = 0
        try transaction.extensionTables(named: name).select("SELECT last_sequence FROM \"\(replicaTable)\"", []) {
            last = $0.int64(at: 0)
        }
        return last
    }

    /// Gives the replica a new identity, at random: for a file that turns out to be a copy of an
    /// earlier state of a replica (a restored backup), whose outbox numbers the server has
    /// already applied from the original. Its pending changes are then sent under the new
    /// identity; its clock's latest time is kept.
    func renewReplica(in transaction: ReadWriteTransaction) throws {
        try transaction.withExtensionContext(named: name) { context in
            _ = try context.execute(
                "UPDATE \"\(replicaTable)\" SET replica = ?1", [.integer(Int64(bitPattern: ReplicaID.random().rawValue))])
            // The transaction's clock, if it read one, has the old identity.
            context.transactionState { SyncLedgerTransaction() }.clock = nil
        }
    }

    /// Forgets the local changes up to `sequence`, included: the server has them.
    ///
    /// - Throws: ``/Trove/TroveError`` when the ledger is not registered or SQLite fails.
    public func acknowledge(through sequence: Int64, in transaction: ReadWriteTransaction) throws {
        try transaction.withExtensionContext(named: name) { context in
            _ = try context.execute("DELETE FROM \"\(outboxTable)\" WHERE seq <= ?1", [.integer(sequence)])
        }
    }

    /// Merges versions of the item at `key` in `collection` received from another replica, and
    /// writes the merged item through the write funnel (every extension and observer sees it) when
    /// its bytes changed: stored, replaced (its metadata kept) or removed. The merge is not a local
    /// change: nothing goes into the outbox, and the clock only takes in the received times.
    ///
    /// - Parameters:
    ///   - remote: The received versions (all of them, or the changes after a time).
    ///   - collection: A synced collection.
    ///   - key: The key of the item.
    ///   - transaction: The write transaction to merge in.
    /// - Returns: `true` when the item's bytes changed.
    /// - Throws: ``/Trove/TroveError``: ``/Trove/TroveError/Code/misuse`` for a collection the ledger does not
    ///   sync; ``/Trove/TroveError/Code/corruptData`` when a received time is too far ahead of this
    ///   replica's clock (see ``HybridClock/receive(_:wallMilliseconds:)``); what the write throws.
    @discardableResult
    public func merge(_ remote: ItemVersions, collection: String, key: String, in transaction: ReadWriteTransaction)
        throws -> Bool
    {
        let (before, after) = try mergeVersions(remote, collection: collection, key: key, in: transaction)
        guard before != after else { return false }
        // The write below reaches the ledger's own `apply` too, which finds the versions already
        // merged: the bytes it writes are theirs, so no field changed and nothing is queued.
        if let after {
            if try !transaction.replaceData(Data(after), forKey: key, in: collection) {
                try transaction.setData(Data(after), forKey: key, in: collection)
            }
        } else {
            _ = try transaction.removeItem(forKey: key, in: collection)
        }
        return true
    }

    /// Merges versions received from another replica, then removes the item here as a local
    /// change, queued to send: how a replica settles two items that a unique index forbids
    /// together (``TroveSync/TroveSync`` removes the one the rule gives up, on every replica).
    func mergeRemoving(_ remote: ItemVersions, collection: String, key: String, in transaction: ReadWriteTransaction)
        throws
    {
        _ = try mergeVersions(remote, collection: collection, key: key, in: transaction)
        // Stored here: its removal goes through the funnel, whose event the ledger records. Not
        // stored (it only arrived): the removal is recorded without one.
        if try !transaction.removeItem(forKey: key, in: collection) {
            try transaction.withExtensionContext(named: name) { context in
                try SyncLedgerImplementation(ledger: self).record(.removal, collection: collection, key: key, in: context)
            }
        }
    }

    /// Merges `remote` into the versions the ledger holds for the item, taking in the received
    /// times; returns the item's encoding before and after (`nil`: removed).
    private func mergeVersions(_ remote: ItemVersions, collection: String, key: String, in transaction: ReadWriteTransaction)
        throws -> (before: [UInt8]?, after: [UInt8]?)
    {
        guard storedItems[collection] != nil else {
            throw TroveError(
                code: .misuse,
                message: "The sync ledger '\(name)' does not sync the collection '\(collection)': changes to it cannot be merged.",
                collection: collection, key: key, extensionName: name)
        }
        return try transaction.withExtensionContext(named: name) { context in
            let state = context.transactionState { SyncLedgerTransaction() }
            if !state.notedPull {
                context.recordChange(Self.pulledNote)
                state.notedPull = true
            }
            var clock = try state.clock(of: self, in: context)
            if let latest = remote.latestStamp {
                try clock.receive(latest, wallMilliseconds: Self.wallMilliseconds())
            }
            state.clock = clock
            try saveClock(clock, in: context)
            var versions = try readVersions(collection: collection, key: key, with: context.select) ?? ItemVersions()
            let before = versions.encoded
            versions.merge(remote)
            try saveVersions(versions, collection: collection, key: key, in: context)
            return (before, versions.encoded)
        }
    }

    // MARK: Tables

    /// Runs a query of the ledger's tables: the `select` of a transaction's
    /// ``ReadTransaction/extensionTables(named:)``, or of the ``ExtensionContext`` of a write.
    typealias Select = (_ sql: String, _ arguments: [IndexValue], _ row: (ExtensionRow) throws -> Void) throws -> Void

    /// The versions of the item at `key` in `collection`, read with `select`, or `nil`.
    func readVersions(collection: String, key: String, with select: Select) throws -> ItemVersions? {
        var bytes: [UInt8]?
        try select(
            "SELECT versions FROM \"\(versionsTable)\" WHERE collection = ?1 AND key = ?2", [.text(collection), .text(key)]
        ) { row in
            if case .blob(let stored) = row[0] { bytes = stored }
        }
        return try bytes.map { try ItemVersions(serialized: $0) }
    }

    /// The replica's clock as the file holds it, read with `select`.
    func readClock(with select: Select) throws -> HybridClock {
        var clock: HybridClock?
        try select("SELECT replica, wall, counter, latest_replica FROM \"\(replicaTable)\"", []) { row in
            clock = Self.clock(from: row)
        }
        guard let clock else { throw Self.missingReplica(name) }
        return clock
    }

    func saveVersions(_ versions: ItemVersions, collection: String, key: String, in context: ExtensionContext) throws {
        _ = try context.execute(
            "INSERT OR REPLACE INTO \"\(versionsTable)\" (collection, key, versions) VALUES (?1, ?2, ?3)",
            [.text(collection), .text(key), .blob(try versions.serialized())])
    }

    func saveClock(_ clock: HybridClock, in context: ExtensionContext) throws {
        guard let latest = clock.latest else { return }
        _ = try context.execute(
            "UPDATE \"\(replicaTable)\" SET wall = ?1, counter = ?2, latest_replica = ?3",
            [
                .integer(Int64(bitPattern: latest.wallMilliseconds)), .integer(Int64(latest.counter)),
                .integer(Int64(bitPattern: latest.replica.rawValue)),
            ])
    }

    static func clock(from row: ExtensionRow) -> HybridClock {
        let replica = ReplicaID(rawValue: UInt64(bitPattern: row.int64(at: 0)))
        let latest =
            row.isNull(at: 1)
            ? nil
            : HybridTimestamp(
                wallMilliseconds: UInt64(bitPattern: row.int64(at: 1)), counter: UInt32(truncatingIfNeeded: row.int64(at: 2)),
                replica: ReplicaID(rawValue: UInt64(bitPattern: row.int64(at: 3))))
        return HybridClock(replica: replica, after: latest)
    }

    static func missingReplica(_ name: String) -> TroveError {
        TroveError(
            code: .corruptDatabase,
            message: "The sync ledger '\(name)' has lost its replica's identity: register it again with a new version.",
            extensionName: name)
    }

    /// The wall clock, in milliseconds since 1970.
    static func wallMilliseconds() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970 * 1_000))
    }
}

/// A local change not yet acknowledged by the server, as ``SyncLedger/pending(in:limit:)`` lists
/// them.
public struct PendingChange: Sendable, Hashable {
    /// Its place in the outbox: acknowledge through it (``SyncLedger/acknowledge(through:in:)``).
    public var sequence: Int64
    /// The collection of the item.
    public var collection: String
    /// The key of the item.
    public var key: String
    /// What changed: the fields set and the removal, at the change's time.
    public var changes: ItemVersions
}

/// The ledger's state in one write transaction: the clock as last stamped.
final class SyncLedgerTransaction: ExtensionTransactionState {
    var clock: HybridClock?
    /// Whether the changeset carries the note of a pull already.
    var notedPull = false

    /// The clock: the transaction's, or the file's on first use.
    func clock(of ledger: SyncLedger, in context: ExtensionContext) throws -> HybridClock {
        if let clock { return clock }
        let stored = try ledger.readClock(with: context.select)
        clock = stored
        return stored
    }
}

/// What a ``SyncLedger`` does as an extension.
struct SyncLedgerImplementation: ExtensionImplementation {
    let ledger: SyncLedger

    var kind: String { "syncLedger" }
    var collection: String { ledger.collections.first ?? "" }
    var fingerprint: String { "sync ledger v2: " + ledger.collections.joined(separator: ",") }
    var needsRemovedRows: Bool { true }

    func follows(_ collection: String) -> Bool {
        ledger.storedItems[collection] != nil
    }

    func tableNames(name: String) -> [String] {
        [ledger.replicaTable, ledger.versionsTable, ledger.outboxTable]
    }

    func create(name: String, in context: ExtensionContext) throws {
        _ = try context.execute(
            "CREATE TABLE \"\(ledger.replicaTable)\" (replica INTEGER NOT NULL, wall INTEGER, counter INTEGER, latest_replica INTEGER, last_sequence INTEGER NOT NULL DEFAULT 0, pull_cursor INTEGER NOT NULL DEFAULT 0, partition TEXT)"
        )
        _ = try context.execute(
            "INSERT INTO \"\(ledger.replicaTable)\" (replica) VALUES (?1)",
            [.integer(Int64(bitPattern: ReplicaID.random().rawValue))])
        _ = try context.execute(
            "CREATE TABLE \"\(ledger.versionsTable)\" (collection TEXT NOT NULL, key TEXT NOT NULL, versions BLOB NOT NULL, PRIMARY KEY (collection, key)) WITHOUT ROWID"
        )
        _ = try context.execute(
            "CREATE TABLE \"\(ledger.outboxTable)\" (seq INTEGER PRIMARY KEY, collection TEXT NOT NULL, key TEXT NOT NULL, changes BLOB NOT NULL)"
        )
    }

    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        var done = 0
        for collection in ledger.collections {
            try ledger.storedItems[collection]?(context) { key, encoded in
                try record(.write(encoded), collection: collection, key: key, in: context)
                done += 1
                progress(done)
            }
        }
    }

    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        switch event.kind {
        case .inserted, .dataUpdated:
            guard let data = event.data else { return }
            try record(.write(Array(data)), collection: event.collection, key: event.key, in: context)
        case .removed:
            try record(.removal, collection: event.collection, key: event.key, in: context)
        case .metadataUpdated, .touched:
            break
        }
    }

    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        for row in rows ?? [] {
            try record(.removal, collection: row.collection, key: row.key, in: context)
        }
    }

    /// A local change of an item.
    enum Change {
        case write([UInt8])
        case removal
    }

    /// Records a local change: stamps it, updates the item's versions, and queues what changed
    /// (nothing when no field changed, as for the write of a merge).
    func record(_ change: Change, collection: String, key: String, in context: ExtensionContext) throws {
        if let problem = SyncWire.addressProblem(collection: collection, key: key) {
            throw TroveError(
                code: .invalidKey,
                message: "The item cannot be synced: the sync ledger '\(ledger.name)' refuses \(problem).",
                collection: collection, key: key, extensionName: ledger.name)
        }
        let state = context.transactionState { SyncLedgerTransaction() }
        var clock = try state.clock(of: ledger, in: context)
        let stamp = try clock.tick(wallMilliseconds: SyncLedger.wallMilliseconds())
        state.clock = clock
        var versions = try ledger.readVersions(collection: collection, key: key, with: context.select) ?? ItemVersions()
        let changes: ItemVersions
        switch change {
        case .write(let encoded):
            let changed = try versions.recordWrite(of: encoded, at: stamp)
            guard !changed.isEmpty else { return }
            changes = ItemVersions(fields: versions.fields.filter { changed.contains($0.key) }, removal: nil)
        case .removal:
            guard !versions.isRemoved else { return }
            versions.recordRemoval(at: stamp)
            changes = ItemVersions(fields: [:], removal: stamp)
        }
        try ledger.saveVersions(versions, collection: collection, key: key, in: context)
        try ledger.saveClock(clock, in: context)
        // Sequence numbers grow for ever (kept in the replica's row, not taken from the outbox,
        // which empties): a change is never numbered like an acknowledged one.
        _ = try context.execute(
            "UPDATE \"\(ledger.replicaTable)\" SET last_sequence = last_sequence + 1")
        _ = try context.execute(
            "INSERT INTO \"\(ledger.outboxTable)\" (seq, collection, key, changes) SELECT last_sequence, ?1, ?2, ?3 FROM \"\(ledger.replicaTable)\"",
            [.text(collection), .text(key), .blob(try changes.serialized())])
    }
}
