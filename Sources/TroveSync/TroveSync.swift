import Foundation
import Synchronization
import Trove

/// Syncs chosen collections of a database with a sync server (`TroveSyncServer`), both ways,
/// offline first: the replica side of sync.
///
/// ```swift
/// let database = try Database(path: path, models: [Todo.self, Project.self])
/// let sync = try TroveSync(database: database, server: url, credentials: .bearer(token),
///                          collections: [Todo.self, Project.self])
/// let running = Task { try await sync.run() }   // until cancelled
/// for await state in sync.states { showBadge(state.pendingChanges) }
/// ```
///
/// - **Local writes never wait.** Every commit to a synced collection, from any connection,
///   stamps the fields that changed and queues them in an outbox in the same transaction
///   (``SyncLedger``): a change is queued if and only if it is committed, whatever kills the
///   process. ``run()`` sends the outbox in order, and the server applies each change once however
///   often a lost answer makes the client send it again.
/// - **Pulls resume.** The server's changes are fetched after a cursor and merged field by field,
///   one local transaction per batch, through the write funnel: indexes, search, views and
///   relationships update as for a local write, and observers see the commit, which
///   ``SyncLedger/isPulled(_:)`` tells apart. The cursor is stored in the same transaction, so a
///   pull that fails halfway resumes after what it committed.
/// - **Merge field by field.** Two replicas that changed different fields of an item both keep
///   their change; for one field, the later change on a hybrid logical clock wins, ties broken by
///   replica. A removal wins over older changes and loses to newer ones. Every replica converges
///   to the same bytes whatever the order of delivery. A model's ``SyncPolicy`` can replace the
///   rule: keep both versions, or merge them.
///
/// One client syncs one partition of the server (for example one user's items, or one shared
/// project): the server's `authorize` decides which partitions a credential may reach. Metadata
/// is not synced. The collections synced are fixed per file: a change of the list makes a new
/// ledger, which records the items as they are then.
public final class TroveSync: Sendable {
    /// How a client batches and retries.
    public struct Configuration: Sendable {
        /// The most local changes sent in one push.
        public var pushBatchSize = 500
        /// The most changes fetched in one pull, merged in one local transaction.
        public var pullBatchSize = 1_000
        /// How long the server holds a pull that finds nothing new before it answers (long
        /// polling): a change pushed meanwhile by another replica comes back at once.
        public var pullWait: Duration = .seconds(20)
        /// The wait after the first failure; it doubles after each failure in a row.
        public var retryDelay: Duration = .milliseconds(250)
        /// The longest wait between two tries.
        public var maximumRetryDelay: Duration = .seconds(30)

        /// The defaults.
        public init() {}
    }

    /// The ledger of the synced collections, registered in the database.
    public let ledger: SyncLedger
    /// The database synced.
    public let database: Database
    /// The partition synced.
    public let partition: String
    /// How the client batches and retries.
    public let configuration: Configuration
    /// The merge policies, by collection.
    let policies: [String: SyncPolicy]
    let transport: SyncHTTPTransport
    private let status = Mutex(Status())

    /// A client that syncs the collections of `collections` in `database` with one partition of
    /// the server at `server`. Registers the ledger (``SyncLedger``) in the database, which
    /// records the items already stored the first time; nothing is sent before ``run()`` or
    /// ``sync()``.
    ///
    /// - Parameters:
    ///   - database: The database, on a file of its own (each file is one replica).
    ///   - server: The address of the server's sync routes, such as `https://example.com/sync`.
    ///   - credentials: What to show the server on every request.
    ///   - partition: The partition synced: 1 to 128 ASCII letters, digits, `_`, `-`, `.` and `:`.
    ///     A file syncs one partition: the first client binds it (``SyncLedger/bind(to:in:)``).
    ///   - collections: The models whose collections are synced.
    ///   - policies: The merge policies of models that settle concurrent changes otherwise than
    ///     field by field, at most one per model.
    ///   - ledgerName: The name of the ledger's extension in the file (default `sync`).
    ///   - configuration: How the client batches and retries.
    /// - Throws: ``/Trove/TroveError`` with code ``/Trove/TroveError/Code/misuse`` for a partition name that is
    ///   not valid, no collection, a policy for a model not synced or two for one, or a file that
    ///   syncs another partition; what registering the ledger throws.
    public init(
        database: Database, server: URL, credentials: SyncCredentials, partition: String = "default",
        collections: [any Persistable.Type], policies: [SyncPolicy] = [], ledgerName: String = "sync",
        configuration: Configuration = Configuration()
    ) throws {
        try Self.checkPartition(partition)
        guard !collections.isEmpty else {
            throw TroveError(code: .misuse, message: "A sync client needs at least one collection to sync.")
        }
        var byCollection: [String: SyncPolicy] = [:]
        for policy in policies {
            guard collections.contains(where: { $0.collection == policy.collection }) else {
                throw TroveError(
                    code: .misuse,
                    message: "The sync policy of '\(policy.collection)' is for a collection the client does not sync: add its model to the collections.",
                    collection: policy.collection)
            }
            guard byCollection.updateValue(policy, forKey: policy.collection) == nil else {
                throw TroveError(
                    code: .misuse, message: "Two sync policies are given for '\(policy.collection)': give one per model.",
                    collection: policy.collection)
            }
        }
        self.policies = byCollection
        ledger = SyncLedger(ledgerName, models: collections)
        self.database = database
        self.partition = partition
        self.configuration = configuration
        transport = SyncHTTPTransport(server: server, partition: partition, credentials: credentials)
        try database.register(ledger.databaseExtension)
        let ledger = ledger
        let (pending, cursor) = try database.write(label: "trove.sync.bind") { tx in
            try ledger.bind(to: partition, in: tx)
            return (try ledger.pendingCount(in: tx), try ledger.pullCursor(in: tx))
        }
        status.withLock {
            $0.state.pendingChanges = pending
            $0.state.cursor = cursor
        }
    }

    /// Checks a partition's name: what the client puts in a path and the server takes from it.
    package static func checkPartition(_ partition: String) throws {
        let allowed = partition.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":")
        }
        guard allowed, (1...128).contains(partition.utf8.count), partition != ".", partition != ".." else {
            throw TroveError(
                code: .misuse,
                message: "The sync partition '\(partition)' is not a valid name: use 1 to 128 ASCII letters, digits, '_', '-', '.' and ':'.")
        }
    }

    // MARK: State

    /// What the client is doing now.
    public var state: SyncState {
        status.withLock { $0.state }
    }

    /// The client's state now and at every change, until the loop that reads it ends. A slow
    /// reader gets the latest state, not every one in between.
    public var states: AsyncStream<SyncState> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let id = status.withLock { status in
                let id = status.nextObserver
                status.nextObserver += 1
                status.observers[id] = continuation
                continuation.yield(status.state)
                return id
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.status.withLock { $0.observers.removeValue(forKey: id) }
            }
        }
    }

    private struct Status: ~Copyable {
        var state = SyncState()
        var observers: [Int: AsyncStream<SyncState>.Continuation] = [:]
        var nextObserver = 0
        /// Whether the last pull found nothing more to fetch, for `lastSynced`.
        var pulledAll = false
    }

    private func update(_ change: (inout SyncState) -> Void) {
        status.withLock { status in
            change(&status.state)
            if status.state.pendingChanges == 0, status.pulledAll, status.state.lastError == nil {
                status.state.lastSynced = Date()
            }
            for observer in status.observers.values { observer.yield(status.state) }
        }
    }

    // MARK: Running

    /// Syncs until the task is cancelled: sends each local commit as it happens, and holds a pull
    /// open on the server so that other replicas' changes arrive as they are pushed. A failure
    /// (the network, the server, the credentials) is reported in ``states`` and tried again after
    /// a delay that doubles up to ``Configuration-swift.struct/maximumRetryDelay``.
    ///
    /// Returns when the task is cancelled.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.pushLoop() }
            group.addTask { await self.pullLoop() }
        }
        update { $0.activity = .stopped }
    }

    /// Sends every local change, then pulls until nothing is left, once: for a replica that syncs
    /// on demand, and for tests.
    ///
    /// - Throws: ``/Trove/TroveError``: ``/Trove/TroveError/Code/server`` when the server cannot be reached or
    ///   fails; ``/Trove/TroveError/Code/unauthorized`` when it refuses the credentials or the
    ///   partition; what merging throws.
    public func sync() async throws {
        do {
            try await pushPending()
            while try await pullOnce(wait: 0) {}
            update { $0.lastError = nil; $0.activity = .idle }
        } catch {
            update { $0.lastError = error as? TroveError; $0.activity = .waitingToRetry }
            throw error
        }
    }

    /// Sends the outbox, then waits for the next commit to a synced collection.
    private func pushLoop() async {
        var changes = database.changes.makeAsyncIterator()
        var failures = 0
        while !Task.isCancelled {
            do {
                try await pushPending()
                failures = 0
            } catch {
                if Task.isCancelled { return }
                failures += 1
                update { $0.lastError = error as? TroveError; $0.activity = .waitingToRetry }
                try? await Task.sleep(for: retryDelay(after: failures))
                continue
            }
            var committed = false
            while let changeset = await changes.next() {
                if !changeset.isComplete || ledger.collections.contains(where: changeset.containsChange(in:)) {
                    committed = true
                    break
                }
            }
            // No next commit: the task was cancelled or the database closed.
            guard committed else { return }
        }
    }

    /// Pulls while the server has more; then holds a pull open until something comes.
    private func pullLoop() async {
        var failures = 0
        var more = true
        while !Task.isCancelled {
            do {
                let wait = more ? 0 : Int(configuration.pullWait.components.seconds)
                more = try await pullOnce(wait: wait)
                failures = 0
                if !more { update { $0.activity = .idle } }
            } catch {
                if Task.isCancelled { return }
                failures += 1
                more = true
                update { $0.lastError = error as? TroveError; $0.activity = .waitingToRetry }
                try? await Task.sleep(for: retryDelay(after: failures))
            }
        }
    }

    /// Settles the unique conflict of `error`, met while merging `pulled`: the item whose key
    /// sorts first keeps the value; the other is removed here, as a local change that reaches every
    /// replica. The rule depends on the two keys alone, so every replica that meets the pair removes
    /// the same item. Returns `nil` when the error does not name the two items.
    private func settle(_ error: TroveError, pulled: [SyncWire.Change]) async throws -> SyncConflict? {
        guard let collection = error.collection, let incoming = error.key, let holder = error.otherKey,
            incoming != holder, ledger.collections.contains(collection)
        else { return nil }
        let ledger = ledger
        let removed = max(incoming, holder)
        // The removed item's versions in this batch, all merged: the removal must be later than
        // every one of them.
        var arriving: ItemVersions?
        for change in pulled where change.collection == collection && change.key == removed {
            arriving = arriving.map { var merged = $0; merged.merge(change.changes); return merged } ?? change.changes
        }
        try await database.write(label: "trove.sync.settle") { tx in
            if let arriving {
                try ledger.mergeRemoving(arriving, collection: collection, key: removed, in: tx)
            } else {
                _ = try tx.removeItem(forKey: removed, in: collection)
            }
        }
        return SyncConflict(
            collection: collection, key: min(incoming, holder),
            settlement: .uniqueValue(index: error.extensionName ?? "", removedKey: removed))
    }

    /// How many times in a row a push is refused for changes to pull first before the client
    /// gives up until its next try.
    static let maximumPullsBeforePush = 20

    private func retryDelay(after failures: Int) -> Duration {
        var delay = configuration.retryDelay
        for _ in 1..<max(1, min(failures, 20)) where delay < configuration.maximumRetryDelay { delay *= 2 }
        return min(delay, configuration.maximumRetryDelay)
    }

    /// Sends the outbox in batches, oldest first, and forgets what the server acknowledged.
    private func pushPending() async throws {
        let ledger = ledger
        let batchSize = configuration.pushBatchSize
        var renewed = false
        var refusals = 0
        while true {
            let (batch, replica, count, cursor) = try await database.read { tx in
                (
                    try ledger.pending(in: tx, limit: batchSize), try ledger.replica(in: tx), try ledger.pendingCount(in: tx),
                    try ledger.pullCursor(in: tx)
                )
            }
            update { $0.pendingChanges = count }
            guard let last = batch.last else { return }
            update { $0.activity = .pushing }
            let push = SyncWire.Push(
                replica: replica,
                changes: batch.map {
                    SyncWire.Change(
                        sequence: $0.sequence, collection: $0.collection, key: $0.key, changes: $0.changes,
                        guarded: policies[$0.collection] != nil)
                },
                basis: cursor)
            let acknowledged: Int64
            switch try await transport.push(push) {
            case .acknowledged(let sequence):
                acknowledged = sequence
            case .pullFirst:
                // Another replica changed fields this push's policies guard: pulled and settled
                // here first, then pushed again (with what the policies wrote).
                refusals += 1
                guard refusals <= Self.maximumPullsBeforePush else {
                    throw TroveError(
                        code: .writeConflict,
                        message: "The sync server refused \(refusals) pushes in a row because other replicas kept changing the same items: the push is tried again later.")
                }
                while try await pullOnce(wait: 0) {}
                continue
            }
            let issued = try await database.read { tx in try ledger.lastIssuedSequence(in: tx) }
            if acknowledged > issued, !renewed {
                // The server applied numbers of this replica beyond any this file gave: the file
                // is a copy of an earlier state (a restored backup), whose new changes carry
                // numbers the server would take as already applied. It becomes a replica of its
                // own, and sends its outbox again under that identity: nothing is lost.
                try await database.write(label: "trove.sync.renew") { tx in try ledger.renewReplica(in: tx) }
                renewed = true
                continue
            }
            guard acknowledged >= last.sequence, acknowledged <= issued else {
                throw TroveError(
                    code: .server,
                    message: "The sync server acknowledged the changes through \(acknowledged) of a push that ended at \(last.sequence): it has lost changes it had acknowledged, or another replica uses this one's identity.")
            }
            let remaining = try await database.write(label: "trove.sync.acknowledge") { tx in
                try ledger.acknowledge(through: acknowledged, in: tx)
                return try ledger.pendingCount(in: tx)
            }
            update {
                $0.pushedChanges += batch.count
                $0.pendingChanges = remaining
                $0.lastError = nil
            }
        }
    }

    /// Pulls one batch after the stored cursor and merges it in one transaction; returns whether
    /// the server has more.
    private func pullOnce(wait: Int) async throws -> Bool {
        let ledger = ledger
        let cursor = try await database.read { tx in try ledger.pullCursor(in: tx) }
        if wait == 0 { update { $0.activity = .pulling } }
        let pulled = try await transport.pull(after: cursor, limit: configuration.pullBatchSize, wait: wait)
        if !pulled.changes.isEmpty || pulled.cursor > cursor {
            update { $0.activity = .pulling }
            let synced = Set(ledger.collections)
            let changes = pulled.changes
            // A batch that breaks a unique index is rolled back; the conflict is settled (one item
            // removed, in a transaction of its own) and the batch merged again, at most once per
            // change of the batch.
            var settled = 0
            while true {
                do {
                    let policies = policies
                    let merged = try await database.write(label: "trove.sync.pull") { tx -> [SyncConflict]? in
                        // Merged meanwhile by another pull of this client (a push refused for
                        // changes to pull first pulls too): not merged, nor settled, twice.
                        guard try ledger.pullCursor(in: tx) == cursor else { return nil }
                        let contested = try Self.contested(changes, policies: policies, ledger: ledger, in: tx)
                        for change in changes where synced.contains(change.collection) {
                            try ledger.merge(change.changes, collection: change.collection, key: change.key, in: tx)
                        }
                        let conflicts = try Self.settle(contested, policies: policies, ledger: ledger, in: tx)
                        try ledger.recordPull(through: pulled.cursor, in: tx)
                        return conflicts
                    }
                    guard let merged else { return true }
                    if !merged.isEmpty { update { $0.record(merged) } }
                    break
                } catch let error as TroveError where error.code == .uniqueViolation && settled < changes.count {
                    guard let conflict = try await settle(error, pulled: changes) else { throw error }
                    settled += 1
                    update { $0.record([conflict]) }
                }
            }
        }
        status.withLock { $0.pulledAll = !pulled.more }
        update {
            $0.pulledChanges += pulled.changes.count
            $0.cursor = max($0.cursor, pulled.cursor)
            $0.lastError = nil
        }
        return pulled.more
    }

    /// An item of a pulled batch whose changes meet this replica's unacknowledged changes of the
    /// same fields: what its model's policy settles once the batch is merged.
    struct Contested {
        var collection: String
        var key: String
        /// The item's versions here before the batch.
        var local: ItemVersions
        /// The pulled changes of the item, merged.
        var remote = ItemVersions()
    }

    /// The items of `changes` whose model has a policy, changed by another replica in fields this
    /// one changed and has not had acknowledged: concurrent changes. Read before the batch merges.
    static func contested(
        _ changes: [SyncWire.Change], policies: [String: SyncPolicy], ledger: SyncLedger, in tx: ReadWriteTransaction
    ) throws -> [Contested] {
        guard !policies.isEmpty else { return [] }
        let replica = try ledger.replica(in: tx)
        // A change whose origin is unknown, or this replica (its own change pulled back), is not
        // concurrent with its own later ones.
        let others = changes.filter { policies[$0.collection] != nil && $0.origin != nil && $0.origin != replica }
        guard !others.isEmpty else { return [] }
        let pending = try ledger.pendingChanges(of: Set(others.map(\.collection)), in: tx)
        var contested: [ItemAddress: Contested] = [:]
        var order: [ItemAddress] = []
        for change in others {
            let address = ItemAddress(collection: change.collection, key: change.key)
            guard let ours = pending[address], ours.overlaps(change.changes) || contested[address] != nil else { continue }
            if contested[address] == nil {
                let local = try ledger.versions(ofKey: change.key, in: change.collection, transaction: tx) ?? ItemVersions()
                contested[address] = Contested(collection: change.collection, key: change.key, local: local)
                order.append(address)
            }
            contested[address]?.remote.merge(change.changes)
        }
        return order.compactMap { contested[$0] }
    }

    /// Settles each contested item by its model's policy, once the batch is merged, and writes
    /// what the policy decided as local changes (queued, so they reach every replica). An item
    /// removed on either side is left to the field-by-field rule.
    static func settle(
        _ contested: [Contested], policies: [String: SyncPolicy], ledger: SyncLedger, in tx: ReadWriteTransaction
    ) throws -> [SyncConflict] {
        var conflicts: [SyncConflict] = []
        for item in contested {
            guard let policy = policies[item.collection], !item.remote.isRemoved,
                let local = item.local.encoded, let remote = item.local.encoded(overriddenBy: item.remote),
                let merged = try ledger.versions(ofKey: item.key, in: item.collection, transaction: tx), !merged.isRemoved
            else { continue }
            let settlement = try policy.settle(item.key, local, remote)
            if try !tx.replaceData(Data(settlement.item), forKey: item.key, in: item.collection) {
                try tx.setData(Data(settlement.item), forKey: item.key, in: item.collection)
            }
            if let copy = settlement.copy {
                do {
                    try tx.setData(Data(copy.encoded), forKey: copy.key, in: item.collection)
                } catch let error as TroveError where error.code == .uniqueViolation {
                    // Not a conflict between replicas, which the pull would settle: the policy's.
                    throw TroveError(
                        code: .misuse,
                        message: "The keep-both policy of '\(item.collection)' made a copy of '\(item.key)' that breaks the unique index '\(error.extensionName ?? "")': change the copy's unique values in the policy.",
                        collection: item.collection, key: copy.key, extensionName: error.extensionName, underlyingError: error)
                }
                conflicts.append(SyncConflict(collection: item.collection, key: item.key, settlement: .keptBoth(copyKey: copy.key)))
            } else {
                conflicts.append(SyncConflict(collection: item.collection, key: item.key, settlement: .merged))
            }
        }
        return conflicts
    }
}
