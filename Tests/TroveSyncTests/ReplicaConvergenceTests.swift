@_spi(TroveGenerated) import Trove
import Foundation
import Testing
import TroveSync
import TroveTestSupport

/// Replicas on SQLite files sync through the server's rules (``SyncServerState``): random offline
/// edits (one field, several, removals, writes after a removal), pushes whose answer is sometimes
/// lost (pushed again), pulls in small batches, replicas closed and opened again at random; in the
/// end every replica holds the same items, the server's, and those of a brute-force model of the
/// merge rule over every change any replica made: no change is lost, none applied twice.
@Suite struct ReplicaConvergenceTests {
    static let ledger = SyncLedger(models: [CrashItem.self])
    static let keys = (0..<6).map { "r\($0)" }

    /// One replica: its file, and its open database (closed and opened again at random).
    final class Replica {
        let path: String
        var database: Database

        init(path: String) throws {
            self.path = path
            database = try Database(path: path, extensions: [ReplicaConvergenceTests.ledger.databaseExtension])
        }

        func reopen() throws {
            database = try Database(path: path, extensions: [ReplicaConvergenceTests.ledger.databaseExtension])
        }
    }

    /// Pushes the replica's pending changes; the answer is lost when `loseAnswer`.
    static func push(_ replica: Replica, to server: inout SyncServerState, loseAnswer: Bool) throws {
        let (pending, id) = try replica.database.read { tx in (try ledger.pending(in: tx, limit: 7), try ledger.replica(in: tx)) }
        let through = server.push(pending, from: id)
        if !loseAnswer, through > 0 {
            try replica.database.write { tx in try ledger.acknowledge(through: through, in: tx) }
        }
    }

    /// Pulls up to `limit` changes after the replica's cursor, merged in one transaction.
    static func pull(_ replica: Replica, from server: SyncServerState, limit: Int) throws {
        let cursor = try replica.database.read { tx in try ledger.pullCursor(in: tx) }
        let changes = server.pull(after: cursor, limit: limit)
        guard let last = changes.last else { return }
        try replica.database.write { tx in
            for change in changes {
                try ledger.merge(change.changes, collection: change.address.collection, key: change.address.key, in: tx)
            }
            try ledger.recordPull(through: last.sequence, in: tx)
        }
    }

    @Test(arguments: 0..<12)
    func replicasSyncingThroughTheServerConverge(seed: UInt64) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var random = SeededGenerator(seed: seed)
        let replicas = try (0..<3).map { try Replica(path: "\(folder)/replica-\($0).trove") }
        var server = SyncServerState()
        // Every change any replica made, as its outbox recorded it: the model's input.
        var made: [String: [ItemVersions]] = [:]
        var pushes = 0
        for _ in 0..<120 {
            let replica = replicas[Int(random.next() % 3)]
            switch random.next() % 10 {
            case 0..<4:
                let key = Self.keys[Int(random.next() % UInt64(Self.keys.count))]
                let before = try replica.database.read { tx in try Self.ledger.pending(in: tx, limit: 1_000_000).last?.sequence ?? 0 }
                try replica.database.write { tx in
                    var item = try tx.read(CrashItem.self, key: key) ?? CrashItem(id: key, group: 0, payload: Data(), metadata: nil)
                    switch random.next() % 4 {
                    case 0: _ = try tx.remove(CrashItem.self, key: key)
                    case 1: item.group = Int(random.next() % 5); try tx.write(item)
                    case 2: item.payload = Data("p\(random.next() % 5)".utf8); try tx.write(item)
                    default:
                        try tx.write(CrashItem(id: key, group: Int(random.next() % 5), payload: Data("q\(random.next() % 3)".utf8), metadata: nil))
                    }
                }
                let new = try replica.database.read { tx in try Self.ledger.pending(in: tx, limit: 1_000_000) }
                for change in new where change.sequence > before {
                    made[change.key, default: []].append(change.changes)
                }
            case 4..<7:
                pushes += 1
                try Self.push(replica, to: &server, loseAnswer: random.next() % 4 == 0)
            case 7, 8:
                try Self.pull(replica, from: server, limit: 1 + Int(random.next() % 5))
            default:
                try replica.reopen()
            }
        }
        // Everyone pushes everything and pulls everything, twice over.
        for _ in 0..<2 {
            // Bounded: a push or pull that makes no progress fails the test instead of looping.
            for replica in replicas {
                for _ in 0..<100 where try replica.database.read({ tx in try !Self.ledger.pending(in: tx).isEmpty }) {
                    try Self.push(replica, to: &server, loseAnswer: false)
                }
            }
            for replica in replicas {
                for _ in 0..<200 where try replica.database.read({ tx in try Self.ledger.pullCursor(in: tx) }) < Int64(server.log.count) {
                    try Self.pull(replica, from: server, limit: 5)
                }
                let cursor = try replica.database.read { tx in try Self.ledger.pullCursor(in: tx) }
                #expect(cursor == Int64(server.log.count), "seed \(seed): a replica could not pull everything")
            }
        }
        // Each change was logged once.
        #expect(server.log.count == made.values.map(\.count).reduce(0, +), "seed \(seed)")
        for key in Self.keys {
            // The model: for each field, the value set at the latest time by any change; the item
            // is there when a field was set after its latest removal.
            var latest: [UInt32: ItemVersions.Field] = [:]
            var removal: HybridTimestamp?
            for change in made[key] ?? [] {
                for (number, field) in change.fields where latest[number].map({ $0.stamp < field.stamp }) ?? true {
                    latest[number] = field
                }
                if let stamp = change.removal, removal.map({ $0 < stamp }) ?? true { removal = stamp }
            }
            let newestField = latest.values.map(\.stamp).max()
            let visible = newestField.map { field in removal.map { field > $0 } ?? true } ?? false
            let expected = visible ? latest.compactMapValues(\.bytes) : nil
            let onServer = server.items[ItemAddress(collection: CrashItem.collection, key: key)]
            #expect((onServer?.isRemoved == false ? onServer?.fields.compactMapValues(\.bytes) : nil) == expected, "seed \(seed) server \(key)")
            for (index, replica) in replicas.enumerated() {
                let stored = try replica.database.read { tx in try tx.data(forKey: key, in: CrashItem.collection) }
                #expect(stored.map { SyncWorkload.fields(of: Array($0)) } == expected, "seed \(seed) replica \(index) item \(key)")
            }
        }
        #expect(pushes > 0)
    }
}
