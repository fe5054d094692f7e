import Foundation
import NIOCore
import PostgresNIO
import Trove
import TrovePostgres
import TroveSync

/// What a sync server keeps, in four tables of a PostgreSQL store's schema, beside Trove's own:
/// per partition, the merged versions of every item, the numbered log of the changes it accepted
/// (what replicas pull after a cursor), its last log number, and per replica the last change of
/// its outbox applied (so that a push sent again is applied once).
///
/// The rules are those of ``/TroveSync/SyncServerState``, which its tests compare it with: a
/// partition's log is numbered from 1 without gaps, in commit order (each push takes the
/// partition's row first, so two pushes to one partition commit one after the other, and a pull
/// that sees a number sees every lower one). Partitions share nothing: no number, count or key of
/// one is visible from another.
package struct SyncServerStorage: Sendable {
    package let store: PostgresStore
    private let partitions: String
    private let items: String
    private let log: String
    private let replicas: String

    package init(store: PostgresStore) {
        self.store = store
        let schema = store.quotedSchema
        partitions = "\(schema).sync_partitions"
        items = "\(schema).sync_items"
        log = "\(schema).sync_log"
        replicas = "\(schema).sync_replicas"
    }

    /// Creates the tables unless they exist; servers that start together create them once.
    package func prepare() async throws {
        let statements = [
            "SELECT pg_advisory_xact_lock(7283949123457)",
            "CREATE TABLE IF NOT EXISTS \(partitions) (partition text PRIMARY KEY, last_seq bigint NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(items) (partition text NOT NULL, collection text NOT NULL, key text NOT NULL, versions bytea NOT NULL, PRIMARY KEY (partition, collection, key))",
            "CREATE TABLE IF NOT EXISTS \(log) (partition text NOT NULL, seq bigint NOT NULL, collection text NOT NULL, key text NOT NULL, changes bytea NOT NULL, replica bigint NOT NULL DEFAULT 0, PRIMARY KEY (partition, seq))",
            // Tables made before the log kept who pushed each change.
            "ALTER TABLE \(log) ADD COLUMN IF NOT EXISTS replica bigint NOT NULL DEFAULT 0",
            "CREATE TABLE IF NOT EXISTS \(replicas) (partition text NOT NULL, replica bigint NOT NULL, principal text NOT NULL, applied bigint NOT NULL, PRIMARY KEY (partition, replica))",
        ]
        try await store.write(label: "trove.sync.prepare") { tx in
            for sql in statements { _ = try await tx.query(sql) }
        }
    }

    /// Applies a replica's push to `partition`: each change numbered after the last one applied
    /// from that replica is merged into its item's versions, and what it changed is logged. Returns
    /// the outbox number the replica may acknowledge through.
    ///
    /// A guarded change (its model has a merge policy) whose fields another replica changed after
    /// the push's basis refuses the whole push (``SyncServerError/pullFirst``): the replica has not
    /// seen that change, so the two are concurrent, and the replica settles them by its policy
    /// once it has pulled it.
    ///
    /// - Throws: ``SyncServerError`` when the replica's identity belongs to another principal, the
    ///   changes are not in outbox order, or a guarded change meets an unseen one;
    ///   ``/Trove/TroveError`` when the server fails.
    package func push(_ push: SyncWire.Push, partition: String, principal: String) async throws -> (acknowledged: Int64, logged: Int) {
        var previous: Int64 = 0
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1_000))
        for change in push.changes {
            guard change.sequence > previous else {
                throw SyncServerError.badRequest("The changes of a push are not in the order of the replica's outbox.")
            }
            previous = change.sequence
            // What PostgreSQL's text and its index of items cannot keep: refused, not failed.
            if let problem = SyncWire.addressProblem(collection: change.collection, key: change.key) {
                throw SyncServerError.badRequest("The change \(change.sequence) names \(problem).")
            }
            // What every other replica's clock would refuse to take in, stalling its pulls.
            if let latest = change.changes.latestStamp, latest.wallMilliseconds > now &+ HybridClock.maximumDrift {
                throw SyncServerError.badRequest(
                    "The change \(change.sequence) is stamped \(latest), more than \(HybridClock.maximumDrift / 1_000) seconds ahead of the server's clock: the replica's clock is wrong.")
            }
        }
        let replica = Int64(bitPattern: push.replica.rawValue)
        let (partitions, items, log, replicas) = (partitions, items, log, replicas)
        return try await store.write(label: "trove.sync.push") { tx in
            // The partition's row first: pushes to one partition wait for each other here.
            var lastSequence: Int64 = 0
            for try await (last) in try await tx.query(
                "INSERT INTO \(partitions) (partition, last_seq) VALUES ($1, 0) ON CONFLICT (partition) DO UPDATE SET last_seq = \(partitions).last_seq RETURNING last_seq",
                partition
            ).decode(Int64.self) {
                lastSequence = last
            }
            var applied: Int64 = 0
            for try await (owner, done) in try await tx.query(
                "SELECT principal, applied FROM \(replicas) WHERE partition = $1 AND replica = $2", partition, replica
            ).decode((String, Int64).self) {
                guard owner == principal else { throw SyncServerError.replicaOfAnotherPrincipal }
                applied = done
            }
            let fresh = push.changes.filter { $0.sequence > applied }
            guard let last = fresh.last else { return (applied, 0) }
            try await Self.checkUnseenChanges(
                of: fresh.filter(\.guarded), after: push.basis, replica: replica, partition: partition, log: log, in: tx)

            // The items' versions now, merged with the changes in order.
            var versions: [ItemAddress: ItemVersions] = [:]
            let addresses = Array(Set(fresh.map { ItemAddress(collection: $0.collection, key: $0.key) }))
            for try await (collection, key, bytes) in try await tx.query(
                "SELECT collection, key, versions FROM \(items) WHERE partition = $1 AND (collection, key) IN (SELECT * FROM unnest($2::text[], $3::text[]))",
                partition, addresses.map(\.collection), addresses.map(\.key)
            ).decode((String, String, ByteBuffer).self) {
                versions[ItemAddress(collection: collection, key: key)] = try ItemVersions(serialized: Array(buffer: bytes))
            }
            var logged: [(ItemAddress, ItemVersions)] = []
            var changed: Set<ItemAddress> = []
            for change in fresh {
                let address = ItemAddress(collection: change.collection, key: change.key)
                var merged = versions[address] ?? ItemVersions()
                let before = merged
                merged.merge(change.changes)
                guard merged != before else { continue }
                versions[address] = merged
                changed.insert(address)
                // What of the change won: every value the server holds was logged when it won, so
                // a replica that pulls the whole log gets every one.
                let won = ItemVersions(
                    fields: change.changes.fields.filter { merged.fields[$0.key]?.stamp == $0.value.stamp },
                    removal: change.changes.removal.flatMap { $0 == merged.removal ? $0 : nil })
                logged.append((address, won))
            }
            if !logged.isEmpty {
                let changedAddresses = Array(changed)
                var encoded: [ByteBuffer] = []
                for address in changedAddresses {
                    encoded.append(ByteBuffer(bytes: try versions[address]!.serialized()))
                }
                _ = try await tx.query(
                    "INSERT INTO \(items) (partition, collection, key, versions) SELECT $1, c, k, v FROM unnest($2::text[], $3::text[], $4::bytea[]) AS u(c, k, v) ON CONFLICT (partition, collection, key) DO UPDATE SET versions = excluded.versions",
                    partition, changedAddresses.map(\.collection), changedAddresses.map(\.key), encoded)
                var changes: [ByteBuffer] = []
                for (_, won) in logged { changes.append(ByteBuffer(bytes: try won.serialized())) }
                let numbers = logged.indices.map { lastSequence + 1 + Int64($0) }
                _ = try await tx.query(
                    "INSERT INTO \(log) (partition, seq, collection, key, changes, replica) SELECT $1, s, c, k, v, $6 FROM unnest($2::bigint[], $3::text[], $4::text[], $5::bytea[]) AS u(s, c, k, v)",
                    partition, numbers, logged.map(\.0.collection), logged.map(\.0.key), changes, replica)
                _ = try await tx.query(
                    "UPDATE \(partitions) SET last_seq = $2 WHERE partition = $1", partition, numbers.last!)
            }
            _ = try await tx.query(
                "INSERT INTO \(replicas) (partition, replica, principal, applied) VALUES ($1, $2, $3, $4) ON CONFLICT (partition, replica) DO UPDATE SET applied = excluded.applied",
                partition, replica, principal, last.sequence)
            return (last.sequence, logged.count)
        }
    }

    /// Throws ``SyncServerError/pullFirst`` when another replica than `replica` logged, after
    /// `basis`, a change that sets a field (or the removal) that one of `guarded` sets.
    private static func checkUnseenChanges(
        of guarded: [SyncWire.Change], after basis: Int64, replica: Int64, partition: String, log: String,
        in tx: PostgresReadWriteTransaction
    ) async throws {
        guard !guarded.isEmpty else { return }
        // Per item, every field the push sets and whether it removes the item.
        var pushed: [ItemAddress: ItemVersions] = [:]
        for change in guarded {
            pushed[ItemAddress(collection: change.collection, key: change.key), default: ItemVersions()].merge(change.changes)
        }
        let addresses = Array(pushed.keys)
        for try await (collection, key, bytes) in try await tx.query(
            "SELECT collection, key, changes FROM \(log) WHERE partition = $1 AND seq > $2 AND replica <> $3 AND (collection, key) IN (SELECT * FROM unnest($4::text[], $5::text[])) ORDER BY seq",
            partition, basis, replica, addresses.map(\.collection), addresses.map(\.key)
        ).decode((String, String, ByteBuffer).self) {
            guard let ours = pushed[ItemAddress(collection: collection, key: key)] else { continue }
            if ours.overlaps(try ItemVersions(serialized: Array(buffer: bytes))) {
                throw SyncServerError.pullFirst
            }
        }
    }

    /// The changes logged in `partition` after `cursor`, oldest first, at most `limit`.
    package func pull(partition: String, after cursor: Int64, limit: Int) async throws -> SyncWire.Pulled {
        let log = log
        return try await store.read(label: "trove.sync.pull") { tx in
            var changes: [SyncWire.Change] = []
            for try await (sequence, collection, key, bytes, replica) in try await tx.query(
                "SELECT seq, collection, key, changes, replica FROM \(log) WHERE partition = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                partition, cursor, Int64(limit + 1)
            ).decode((Int64, String, String, ByteBuffer, Int64).self) {
                changes.append(
                    SyncWire.Change(
                        sequence: sequence, collection: collection, key: key,
                        changes: try ItemVersions(serialized: Array(buffer: bytes)),
                        origin: replica == 0 ? nil : ReplicaID(rawValue: UInt64(bitPattern: replica))))
            }
            let more = changes.count > limit
            if more { changes.removeLast() }
            return SyncWire.Pulled(cursor: changes.last?.sequence ?? cursor, more: more, changes: changes)
        }
    }

    /// The merged versions of every item of `partition`, by address: what every replica of the
    /// partition converges to (for tests and tools).
    package func items(of partition: String) async throws -> [ItemAddress: ItemVersions] {
        let items = items
        return try await store.read(label: "trove.sync.items") { tx in
            var found: [ItemAddress: ItemVersions] = [:]
            for try await (collection, key, bytes) in try await tx.query(
                "SELECT collection, key, versions FROM \(items) WHERE partition = $1", partition
            ).decode((String, String, ByteBuffer).self) {
                found[ItemAddress(collection: collection, key: key)] = try ItemVersions(serialized: Array(buffer: bytes))
            }
            return found
        }
    }
}

/// A request the sync server refuses, with the status it answers.
package enum SyncServerError: Error, Sendable {
    /// The body or the query is not what the protocol says: 400, with the reason.
    case badRequest(String)
    /// A replica identity first used by another principal: 403.
    case replicaOfAnotherPrincipal
    /// A guarded change meets another replica's change that the pushing replica has not pulled:
    /// 409, nothing applied; the replica pulls, settles by its merge policy, and pushes again.
    case pullFirst
}
