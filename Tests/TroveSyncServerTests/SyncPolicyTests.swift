import Foundation
import Testing
import Trove
import TroveSync
import TroveSyncServer
import TroveTestSupport

/// A model's merge policy replaces the field-by-field rule for concurrent changes, on replicas
/// that sync through the real server, and every replica converges to what the policy decided.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct SyncPolicyTests {
    /// The payload of a `CrashItem` read as a set of tags (one byte each).
    static func tags(of item: CrashItem?) -> Set<UInt8> {
        Set(item?.payload ?? Data())
    }

    /// A `CrashItem` holding `tags`, in order, so that equal sets are equal bytes.
    static func item(_ key: String, tags: Set<UInt8>) -> CrashItem {
        CrashItem(id: key, group: 0, payload: Data(tags.sorted()), metadata: nil)
    }

    /// The policy of the property below: the union of both sides' tags.
    static let union = SyncPolicy.merge(CrashItem.self) { local, remote in
        item(remote.id, tags: tags(of: local).union(tags(of: remote)))
    }

    /// Adds `tag` to the item at `key` on `replica`, making it when it is missing.
    static func add(_ tag: UInt8, to key: String, on replica: TestReplica) async throws {
        try await replica.database.write { tx in
            let current = try tx.read(CrashItem.self, key: key)
            try tx.write(item(key, tags: tags(of: current).union([tag])))
        }
    }

    /// Replicas that add tags to shared items while offline, sync in a random order (each push of
    /// a replica that has not pulled the others' latest changes meets them), and end holding, for
    /// every item, the union of every tag any replica added: with the field-by-field rule, the
    /// later write of the payload would drop the other's tags.
    @Test(arguments: 0..<12)
    func replicasMergingByPolicyKeepEveryoneChanges(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        try await withSyncReplicas(["a", "b", "c"], policies: [Self.union]) { server, replicas in
            let keys = ["x", "y", "z"]
            var model: [String: Set<UInt8>] = [:]
            for _ in 0..<40 {
                let replica = replicas[Int.random(in: 0..<replicas.count, using: &random)]
                if Int.random(in: 0..<4, using: &random) == 0 {
                    try await replica.sync.sync()
                } else {
                    let key = keys[Int.random(in: 0..<keys.count, using: &random)]
                    let tag = UInt8.random(in: 0..<64, using: &random)
                    try await Self.add(tag, to: key, on: replica)
                    model[key, default: []].insert(tag)
                }
            }
            // Everything to everyone: two rounds, since a replica's settlement reaches the
            // replicas before it in the next.
            for _ in 0..<2 {
                for replica in replicas { try await replica.sync.sync() }
            }
            for replica in replicas {
                let held = try await replica.database.read { tx in
                    Dictionary(uniqueKeysWithValues: try keys.map { ($0, Self.tags(of: try tx.read(CrashItem.self, key: $0))) })
                }
                for key in keys {
                    #expect(held[key] == model[key, default: []], "seed \(seed), key \(key)")
                }
                #expect(try replica.items() == (try replicas[0].items()), "seed \(seed)")
                #expect(replica.sync.state.pendingChanges == 0)
            }
            let onServer = try await server.server.storage.items(of: "default")
            #expect(onServer.presentItems(of: CrashItem.collection) == (try replicas[0].items()), "seed \(seed)")
            let merged = replicas.flatMap(\.sync.state.conflicts).filter { $0.settlement == .merged }
            #expect(!merged.isEmpty, "seed \(seed): no concurrent change met")
        }
    }

    /// Keep both: each side's version survives, the remote one at the key and the local one as a
    /// copy the policy made, on both replicas; the conflict is reported where it was settled.
    @Test func keepBothKeepsEachSidesVersion() async throws {
        let keepBoth = SyncPolicy.keepBoth(CrashItem.self) { local in
            var copy = local
            copy.id += "-conflict"
            return copy
        }
        try await withSyncReplicas(["first", "second"], policies: [keepBoth]) { _, replicas in
            let (first, second) = (replicas[0], replicas[1])
            try await first.database.write { tx in try tx.write(Self.item("a", tags: [1])) }
            try await first.sync.sync()
            try await second.sync.sync()

            // Offline, both change the payload.
            try await Self.add(2, to: "a", on: first)
            try await Self.add(3, to: "a", on: second)
            try await first.sync.sync()
            // The second's push is refused until it has pulled the first's change; it settles.
            try await second.sync.sync()
            try await first.sync.sync()

            for replica in replicas {
                let (original, copy) = try await replica.database.read { tx in
                    (try tx.read(CrashItem.self, key: "a"), try tx.read(CrashItem.self, key: "a-conflict"))
                }
                #expect(Self.tags(of: original) == [1, 2])
                #expect(Self.tags(of: copy) == [1, 3])
                #expect(copy?.id == "a-conflict")
            }
            #expect(second.sync.state.conflicts == [SyncConflict(collection: CrashItem.collection, key: "a", settlement: .keptBoth(copyKey: "a-conflict"))])
            #expect(first.sync.state.conflicts.isEmpty)
        }
    }

    /// A keep-both copy that repeats a unique value of the original is the policy's mistake, not
    /// a conflict between replicas: the pull fails with an error that says so, and nothing of it
    /// is merged.
    @Test func aCopyThatBreaksAUniqueIndexIsRefusedClearly() async throws {
        let keepBoth = SyncPolicy.keepBoth(CrashItem.self) { local in
            var copy = local
            copy.id += "-conflict"
            return copy
        }
        let index = [SyncWorkload.uniquePayload.databaseExtension]
        try await withSyncReplicas(["first", "second"], extensions: index, policies: [keepBoth]) { _, replicas in
            let (first, second) = (replicas[0], replicas[1])
            try await first.database.write { tx in try tx.write(Self.item("a", tags: [1])) }
            try await first.sync.sync()
            try await second.sync.sync()
            // Offline, both change the group; the copy keeps the payload, which is unique.
            for (replica, group) in [(first, 2), (second, 3)] {
                try await replica.database.write { tx in
                    var item = try #require(try tx.read(CrashItem.self, key: "a"))
                    item.group = group
                    try tx.write(item)
                }
            }
            try await first.sync.sync()
            let error = await #expect(throws: TroveError.self) { try await second.sync.sync() }
            #expect(error?.code == .misuse)
            #expect(error?.message.contains("keep-both policy of 'crash' made a copy of 'a' that breaks the unique index") == true)
            let held = try await second.database.read { tx in try tx.read(CrashItem.self, key: "a") }
            #expect(held?.group == 3)
        }
    }

    /// Changes of different fields are not a conflict: the field-by-field rule keeps both, and
    /// the policy does not run.
    @Test func changesOfOtherFieldsAreNotConflicts() async throws {
        try await withSyncReplicas(["first", "second"], policies: [Self.union]) { _, replicas in
            let (first, second) = (replicas[0], replicas[1])
            try await first.database.write { tx in try tx.write(Self.item("a", tags: [1])) }
            try await first.sync.sync()
            try await second.sync.sync()
            try await first.database.write { tx in
                var item = try #require(try tx.read(CrashItem.self, key: "a"))
                item.group = 9
                try tx.write(item)
            }
            try await Self.add(5, to: "a", on: second)
            try await first.sync.sync()
            try await second.sync.sync()
            try await first.sync.sync()
            for replica in replicas {
                let item = try await replica.database.read { tx in try tx.read(CrashItem.self, key: "a") }
                #expect(item?.group == 9)
                #expect(Self.tags(of: item) == [1, 5])
                #expect(replica.sync.state.conflicts.isEmpty)
            }
        }
    }

    /// A policy is for a synced model, one per model.
    @Test func policiesAreCheckedWhenTheClientIsMade() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Database(path: "\(folder)/replica.trove")
        let server = URL(string: "http://127.0.0.1:9/sync")!
        let twice = #expect(throws: TroveError.self) {
            _ = try TroveSync(
                database: database, server: server, credentials: .none, collections: [CrashItem.self],
                policies: [Self.union, Self.union])
        }
        #expect(twice?.code == .misuse)
        let other = #expect(throws: TroveError.self) {
            _ = try TroveSync(
                database: database, server: server, credentials: .none, collections: [EntryV1.self],
                policies: [Self.union])
        }
        #expect(other?.message.contains("'crash'") == true)
    }
}
