import Foundation
import Testing
import Trove
import TrovePostgres
import TroveSync
import TroveSyncServer
import TroveTestSupport

/// Replicas on SQLite files sync through a real server: PostgreSQL, Hummingbird on loopback, and
/// the client's HTTP.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct SyncThroughServerTests {
    /// Runs `body` with a server and replicas named `names` (``withSyncReplicas(_:extensions:policies:_:)``).
    func withReplicas(
        _ names: [String], extensions: [DatabaseExtension] = [],
        _ body: (LoopbackSyncServer, [TestReplica]) async throws -> Void
    ) async throws {
        try await withSyncReplicas(names, extensions: extensions, body)
    }

    /// Two replicas edit different fields of one item offline; after syncing, both hold both
    /// edits, and so does the server.
    @Test func offlineEditsOfDifferentFieldsBothSurvive() async throws {
        try await withReplicas(["first", "second"]) { server, replicas in
            let (first, second) = (replicas[0], replicas[1])

            try await first.database.write { tx in try tx.write(CrashItem(id: "a", group: 1, payload: Data("one".utf8), metadata: nil)) }
            try await first.sync.sync()
            try await second.sync.sync()
            let arrived = try await second.database.read { tx in try tx.read(CrashItem.self, key: "a") }
            #expect(arrived?.group == 1)

            // Offline: each changes a different field.
            try await first.database.write { tx in
                var item = try #require(try tx.read(CrashItem.self, key: "a"))
                item.group = 7
                try tx.write(item)
            }
            try await second.database.write { tx in
                var item = try #require(try tx.read(CrashItem.self, key: "a"))
                item.payload = Data("two".utf8)
                try tx.write(item)
            }
            try await first.sync.sync()
            try await second.sync.sync()
            try await first.sync.sync()

            let expected = CrashItem(id: "a", group: 7, payload: Data("two".utf8), metadata: nil)
            let onFirst = try await first.database.read { tx in try tx.read(CrashItem.self, key: "a") }
            let onSecond = try await second.database.read { tx in try tx.read(CrashItem.self, key: "a") }
            #expect(onFirst == expected)
            #expect(onSecond == expected)
            let onServer = try await server.server.storage.items(of: "default")
            #expect(onServer.presentItems(of: CrashItem.collection) == (try first.items()))
            #expect(first.sync.state.pendingChanges == 0)
            #expect(second.sync.state.pendingChanges == 0)
        }
    }

    /// A removal on one replica reaches the other; a write after it, on the other, brings the
    /// item back everywhere.
    @Test func removalsTravelAndLaterWritesWin() async throws {
        try await withReplicas(["first", "second"]) { server, replicas in
            let (first, second) = (replicas[0], replicas[1])
            try await first.database.write { tx in try tx.write(CrashItem(id: "a", group: 1, payload: Data(), metadata: nil)) }
            try await first.sync.sync()
            try await second.sync.sync()
            try await first.database.write { tx in _ = try tx.remove(CrashItem.self, key: "a") }
            try await first.sync.sync()
            try await second.sync.sync()
            let removed = try await second.database.read { tx in try tx.read(CrashItem.self, key: "a") }
            #expect(removed == nil)

            try await second.database.write { tx in try tx.write(CrashItem(id: "a", group: 3, payload: Data("back".utf8), metadata: nil)) }
            try await second.sync.sync()
            try await first.sync.sync()
            let back = try await first.database.read { tx in try tx.read(CrashItem.self, key: "a") }
            #expect(back == CrashItem(id: "a", group: 3, payload: Data("back".utf8), metadata: nil))
        }
    }

    /// With `run()` on both replicas, a commit on one is observed on the other without a call:
    /// the pull held open on the server returns when the push lands. The observed changeset is
    /// marked as pulled.
    @Test func runningReplicasSeeEachOthersCommits() async throws {
        try await withReplicas(["first", "second"]) { server, replicas in
            let (first, second) = (replicas[0], replicas[1])
            let running = [Task { await first.sync.run() }, Task { await second.sync.run() }]
            defer { for task in running { task.cancel() } }

            let ledger = second.sync.ledger
            let observed = Task {
                for await changeset in second.database.changes where changeset.containsChange(forKey: "live", in: CrashItem.collection) {
                    return ledger.isPulled(changeset)
                }
                return false
            }
            // The second replica's pull is waiting on the server before the first commits.
            for await state in second.sync.states where state.activity == .idle { break }
            try await first.database.write { tx in try tx.write(CrashItem(id: "live", group: 5, payload: Data(), metadata: nil)) }
            let watchdog = Task {
                try await Task.sleep(for: .seconds(15))
                observed.cancel()
            }
            let wasPulled = await observed.value
            watchdog.cancel()
            #expect(wasPulled, "the other replica's commit was not observed as pulled within 15 s")
            let item = try await second.database.read { tx in try tx.read(CrashItem.self, key: "live") }
            #expect(item?.group == 5)
        }
    }

    /// A push sent twice (its answer lost) is applied once: the log does not grow, and another
    /// replica pulls each change once.
    @Test func aPushSentAgainIsAppliedOnce() async throws {
        try await withReplicas(["replica"]) { server, replicas in
            let replica = replicas[0]
            try await replica.database.write { tx in
                try tx.write(CrashItem(id: "a", group: 1, payload: Data(), metadata: nil))
                try tx.write(CrashItem(id: "b", group: 2, payload: Data(), metadata: nil))
            }
            let ledger = replica.sync.ledger
            let (pending, id) = try await replica.database.read { tx in (try ledger.pending(in: tx), try ledger.replica(in: tx)) }
            let body = try SyncWire.encode(
                SyncWire.Push(
                    replica: id,
                    changes: pending.map { SyncWire.Change(sequence: $0.sequence, collection: $0.collection, key: $0.key, changes: $0.changes) }))
            for _ in 0..<3 {
                let (status, answer) = try await server.send("POST", "default/push", body: body)
                #expect(status == 200)
                #expect(try SyncWire.decodeAcknowledged(answer) == pending.last?.sequence)
            }
            let (status, answer) = try await server.send("GET", "default/pull?after=0&limit=100")
            #expect(status == 200)
            let pulled = try SyncWire.decodePulled(answer)
            #expect(pulled.changes.map(\.key) == ["a", "b"])
            #expect(pulled.changes.map(\.sequence) == [1, 2])
            #expect(pulled.cursor == 2)
            #expect(!pulled.more)
        }
    }

    static let uniquePayload = SyncWorkload.uniquePayload

    /// Two replicas give one unique value to two items while offline: every replica, whatever the
    /// order in which it meets them, keeps the item whose key sorts first and removes the other,
    /// and reports the conflict; no replica ever holds both.
    @Test func uniqueValuesMadeOfflineAreSettledAlikeEverywhere() async throws {
        let index = [Self.uniquePayload.databaseExtension]
        try await withReplicas(["first", "second", "third"], extensions: index) { server, replicas in
            let (first, second, third) = (replicas[0], replicas[1], replicas[2])

            try await first.database.write { tx in try tx.write(CrashItem(id: "a", group: 1, payload: Data("x".utf8), metadata: nil)) }
            try await second.database.write { tx in try tx.write(CrashItem(id: "b", group: 2, payload: Data("x".utf8), metadata: nil)) }
            try await first.sync.sync()
            try await second.sync.sync()   // meets "a" while holding "b": removes "b"
            try await first.sync.sync()    // meets "b", then its removal
            try await third.sync.sync()    // meets both for the first time
            try await second.sync.sync()

            for (name, replica) in [("first", first), ("second", second), ("third", third)] {
                let keys = try await replica.database.read { tx in try tx.keys(in: CrashItem.collection).sorted() }
                #expect(keys == ["a"], "\(name) holds \(keys)")
                let holders = try await Self.uniquePayload.query.filter(.column("payload", equals: "x")).keys(in: replica.database)
                #expect(holders == ["a"], "\(name): the index holds \(holders)")
                #expect(replica.sync.state.pendingChanges == 0, "\(name) has changes left to send")
            }
            #expect(second.sync.state.conflicts == [SyncConflict(collection: CrashItem.collection, key: "a", settlement: .uniqueValue(index: "crash_unique_payload", removedKey: "b"))])
            let onServer = try await server.server.storage.items(of: "default")
            #expect(onServer.presentItems(of: CrashItem.collection).keys.sorted() == ["a"])
        }
    }

    /// A file syncs one partition: a client of another partition on it is refused, naming both,
    /// and changes nothing (the outbox and the pull cursor belong to the first partition).
    @Test func aFileSyncsOnePartition() async throws {
        try await withReplicas(["home"]) { server, replicas in
            let home = replicas[0]
            var caught: TroveError?
            do {
                _ = try TroveSync(
                    database: home.database, server: server.url, credentials: .none, partition: "team",
                    collections: [CrashItem.self])
            } catch let error as TroveError {
                caught = error
            }
            #expect(caught?.code == .misuse)
            #expect(caught?.message.contains("'default'") == true && caught?.message.contains("'team'") == true, "\(String(describing: caught))")
            // The first partition's client still works on the file.
            _ = try TroveSync(database: home.database, server: server.url, credentials: .none, collections: [CrashItem.self])
        }
    }

    /// A file restored from a backup of a replica makes changes with outbox numbers the server has
    /// already applied from the original: it takes an identity of its own and sends them, instead
    /// of having them acknowledged unsent.
    @Test func aRestoredBackupOfAReplicaLosesNothing() async throws {
        try await withReplicas(["original", "reader"]) { server, replicas in
            let (original, reader) = (replicas[0], replicas[1])
            try await original.database.write { tx in try tx.write(CrashItem(id: "a", group: 1, payload: Data(), metadata: nil)) }
            let copyPath = original.path + ".backup"
            try original.database.backup(to: copyPath)
            try await original.database.write { tx in
                try tx.write(CrashItem(id: "b", group: 2, payload: Data(), metadata: nil))
                try tx.write(CrashItem(id: "c", group: 3, payload: Data(), metadata: nil))
            }
            try await original.sync.sync()   // the server has applied 1 to 3 from this replica

            // The backup, restored, makes a change numbered 2: applied already, by the server's count.
            let restored = try Database(path: copyPath)
            let restoredSync = try TroveSync(database: restored, server: server.url, credentials: .none, collections: [CrashItem.self])
            let before = try await restored.read { tx in try restoredSync.ledger.replica(in: tx) }
            try await restored.write { tx in try tx.write(CrashItem(id: "d", group: 4, payload: Data(), metadata: nil)) }
            try await restoredSync.sync()
            let after = try await restored.read { tx in try restoredSync.ledger.replica(in: tx) }
            #expect(after != before, "the restored copy kept the original's identity")
            #expect(restoredSync.state.pendingChanges == 0)

            try await reader.sync.sync()
            let keys = try await reader.database.read { tx in try tx.keys(in: CrashItem.collection).sorted() }
            #expect(keys == ["a", "b", "c", "d"], "the restored copy's change was lost: \(keys)")
        }
    }
}
