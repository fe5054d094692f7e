import Foundation
import NIOCore
import Testing
import Trove
import TrovePostgres
import TroveSync
import TroveSyncServer
import TroveTestSupport

/// Replica processes (`trove-sync-replica`, each on its own SQLite file) edit offline and sync
/// through a server on PostgreSQL in random order, some killed with SIGKILL at random moments, the
/// server stopped and started again on the same tables in the middle of their exchanges. In the
/// end every replica holds the same items, the server's, and those a brute-force model of the
/// merge rule gives over every change any replica committed: no committed change is lost, and the
/// server's log holds none twice. The replicas keep a unique index of the payloads, which they
/// break between them offline: in the end no two items keep one payload.
// One seed at a time: each runs three processes and a server, which is what two cores can take.
@Suite(.serialized, .enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct ReplicaProcessConvergenceTests {
    static let replicaCount = 3
    static let rounds = 3

    /// The changes committed, by replica and outbox number: what the model is made of.
    struct Committed {
        var changes: [String: (key: String, versions: ItemVersions)] = [:]

        /// Reads the `change` lines a replica printed.
        mutating func read(_ lines: [String]) throws {
            for line in lines where line.hasPrefix("change ") {
                let parts = line.split(separator: " ")
                guard parts.count == 5 else { continue }
                let versions = try ItemVersions(serialized: Self.bytes(fromHex: parts[4]))
                changes["\(parts[1]) \(parts[2])"] = (String(parts[3]), versions)
            }
        }

        /// Records what a replica's outbox still holds (a change whose line a kill cut).
        mutating func record(_ pending: [PendingChange], of replica: ReplicaID) {
            for change in pending {
                changes["\(replica) \(change.sequence)"] = (change.key, change.changes)
            }
        }

        var model: SyncModel {
            var model = SyncModel()
            for (key, versions) in changes.values { model.record(versions, of: key) }
            return model
        }

        static func bytes(fromHex hex: Substring) -> [UInt8] {
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(UInt8(hex[index..<next], radix: 16)!)
                index = next
            }
            return bytes
        }
    }

    @Test(arguments: 0..<40)
    func replicaProcessesConvergeThroughKillsAndServerRestarts(seed: UInt64) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let executable = try ChildProcess.builtExecutable(named: "trove-sync-replica")
        var random = SeededGenerator(seed: seed &* 7_919 &+ 17)
        var server = try await LoopbackSyncServer.start(idleTimeout: .seconds(1))
        let schema = server.store.configuration.schema
        let port = server.url.port!
        var committed = Committed()
        var kills = 0
        var restarts = 0
        let paths = (0..<Self.replicaCount).map { "\(folder)/replica-\($0).trove" }

        for _ in 0..<Self.rounds {
            let children = try paths.map { path in
                try ChildProcess(
                    executable: executable,
                    arguments: [path, server.url.absoluteString, String(random.next() % 1_000_000), String(20 + random.next() % 40)])
            }
            // Some children are killed after a random time; the server restarts in the middle of
            // some rounds.
            let victims = children.indices.filter { _ in random.next() % 3 == 0 }
            let killAfter = victims.map { _ in Duration.milliseconds(Int(random.next() % 300)) }
            let restartAfter = random.next() % 3 == 0 ? Duration.milliseconds(Int(random.next() % 300)) : nil
            let start = ContinuousClock.now
            var pendingKills = Array(zip(victims, killAfter))
            var restartPending = restartAfter
            while children.contains(where: \.isRunning) {
                let elapsed = ContinuousClock.now - start
                try #require(elapsed < .seconds(120), "seed \(seed): replicas still running after 120 s")
                for (index, after) in pendingKills where elapsed >= after {
                    if children[index].isRunning, children[index].sigkill() == nil { kills += 1 }
                }
                pendingKills.removeAll { elapsed >= $0.1 }
                if let after = restartPending, elapsed >= after {
                    restartPending = nil
                    await server.stop()
                    server = try await LoopbackSyncServer.start(schema: schema, port: port, idleTimeout: .seconds(1))
                    restarts += 1
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            for child in children {
                _ = child.waitForExit()
                try committed.read(child.lines)
            }
        }

        // Every replica syncs until all is exchanged: pushes, then pulls, three times over (a pull
        // that settles a conflict of payloads queues a removal, sent by the next pass). What each
        // outbox holds before a sync is a change committed too.
        var replicas: [(Database, TroveSync)] = []
        for path in paths {
            let database = try Database(path: path, extensions: [SyncWorkload.uniquePayload.databaseExtension])
            let sync = try TroveSync(database: database, server: server.url, credentials: .none, collections: [CrashItem.self])
            replicas.append((database, sync))
        }
        for _ in 0..<3 {
            for (database, sync) in replicas {
                let ledger = sync.ledger
                let (replica, pending) = try await database.read { tx in
                    (try ledger.replica(in: tx), try ledger.pending(in: tx, limit: 1_000_000))
                }
                committed.record(pending, of: replica)
                try await sync.sync()
            }
        }

        let model = committed.model
        var expected: [String: [UInt32: [UInt8]]] = [:]
        for key in model.keys {
            if let fields = model.expectedFields(key) { expected[key] = fields }
        }
        for (index, (database, sync)) in replicas.enumerated() {
            let items = try storedFields(of: database)
            #expect(items == expected, "seed \(seed): replica \(index) differs from the model (\(kills) kills, \(restarts) restarts)")
            #expect(sync.state.pendingChanges == 0, "seed \(seed): replica \(index) has changes left to send")
        }
        // No two items keep one payload, though replicas gave one payload to two items offline.
        let payloads = expected.values.compactMap { fields -> [UInt8]? in
            let item = try? SyncWorkload.decode(fields)
            return item.flatMap { $0.payload.isEmpty ? nil : Array($0.payload) }
        }
        #expect(Set(payloads).count == payloads.count, "seed \(seed): two items keep one payload")
        let onServer = try await server.server.storage.items(of: "default").presentItems(of: CrashItem.collection)
        #expect(onServer == expected, "seed \(seed): the server differs from the model")

        // No change applied twice: each field's time, and each removal's, is logged at most once.
        let log = try await server.server.storage.pull(partition: "default", after: 0, limit: 1_000_000).changes
        var seen: Set<String> = []
        for change in log {
            for (number, field) in change.changes.fields {
                #expect(seen.insert("\(change.key) \(number) \(field.stamp)").inserted, "seed \(seed): logged twice: \(change.key) field \(number) at \(field.stamp)")
            }
            if let removal = change.changes.removal {
                #expect(seen.insert("\(change.key) removal \(removal)").inserted, "seed \(seed): removal of \(change.key) logged twice")
            }
        }
        await server.dispose()
    }
}
