import Foundation
import Testing
@_spi(TroveGenerated) import Trove
import TroveSync
import TroveTestSupport

/// The sync ledger (``SyncLedger``): local changes stamped and queued in their own transaction,
/// field by field; merges of other replicas' changes written through the write funnel without
/// being queued again; two replicas that edit one item offline converge.
@Suite struct SyncLedgerTests {
    static let ledger = SyncLedger(models: [CrashItem.self])
    static let byGroup = SecondaryIndex<CrashItem>("by_group", columns: [.column("group") { $0.group }])

    static func item(_ id: String, group: Int, payload: String) -> CrashItem {
        CrashItem(id: id, group: group, payload: Data(payload.utf8), metadata: CrashStamp(group: group, checksum: 1))
    }

    static func open(_ folder: String, _ name: String) throws -> Database {
        try Database(path: "\(folder)/\(name).trove", extensions: [ledger.databaseExtension, byGroup.databaseExtension])
    }

    /// Sends `from`'s pending changes to `to`, merged there, and acknowledges them on `from`.
    static func send(from: Database, to: Database) throws {
        let changes = try from.read { tx in try ledger.pending(in: tx) }
        try to.write { tx in
            for change in changes {
                try ledger.merge(change.changes, collection: change.collection, key: change.key, in: tx)
            }
        }
        if let last = changes.last {
            try from.write { tx in try ledger.acknowledge(through: last.sequence, in: tx) }
        }
    }

    @Test func localChangesAreStampedAndQueuedFieldByField() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Self.open(folder, "a")
        try database.write { tx in try tx.write(Self.item("k", group: 1, payload: "first")) }
        // Only the group changes: one field is queued.
        try database.write { tx in try tx.write(Self.item("k", group: 2, payload: "first")) }
        // The same bytes again (the metadata alone differs): nothing is queued.
        try database.write { tx in try tx.write(CrashItem(id: "k", group: 2, payload: Data("first".utf8), metadata: nil)) }
        // A rolled-back write queues nothing.
        struct Abandon: Error {}
        _ = try? database.write { tx in
            try tx.write(Self.item("k", group: 3, payload: "lost"))
            throw Abandon()
        }
        try database.write { tx in _ = try tx.remove(CrashItem.self, key: "k") }

        let pending = try database.read { tx in try Self.ledger.pending(in: tx) }
        #expect(pending.map(\.key) == ["k", "k", "k"])
        #expect(pending[0].changes.fields.count == 3 && pending[0].changes.removal == nil)
        #expect(Array(pending[1].changes.fields.keys) == [FieldNumber.of("group")])
        #expect(pending[2].changes.fields.isEmpty && pending[2].changes.removal != nil)
        let stamps = [
            pending[0].changes.latestStamp, pending[1].changes.latestStamp, pending[2].changes.latestStamp,
        ].compactMap { $0 }
        #expect(stamps.count == 3 && stamps == stamps.sorted() && Set(stamps).count == 3)
        let versions = try database.read { tx in try Self.ledger.versions(ofKey: "k", in: CrashItem.collection, transaction: tx) }
        #expect(versions?.isRemoved == true)

        try database.write { tx in try Self.ledger.acknowledge(through: pending[1].sequence, in: tx) }
        let left = try database.read { tx in try Self.ledger.pending(in: tx) }
        #expect(left == [pending[2]])
        // Once everything is acknowledged, new changes are numbered after the old ones.
        try database.write { tx in try Self.ledger.acknowledge(through: pending[2].sequence, in: tx) }
        try database.write { tx in try tx.write(Self.item("k", group: 4, payload: "again")) }
        let next = try database.read { tx in try Self.ledger.pending(in: tx) }
        #expect(next.map(\.sequence) == [pending[2].sequence + 1])
    }

    /// Two replicas change different fields of one item offline and exchange their changes: both
    /// keep both changes, with the same bytes; the merged writes reach the index, and are not
    /// queued again.
    /// A write the sync server could not keep (a key with a NUL character, or too long) is refused
    /// when it is made, naming the item: it would otherwise wait in the outbox for ever, holding
    /// back every change after it.
    @Test func aKeyTheServerCannotKeepIsRefusedAtTheWrite() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Self.open(folder, "a")
        for key in ["a\0b", String(repeating: "k", count: 2_100)] {
            var caught: TroveError?
            do {
                try database.write { tx in try tx.write(Self.item(key, group: 1, payload: "x")) }
            } catch let error as TroveError {
                caught = error
            }
            #expect(caught?.code == .invalidKey)
            #expect(caught?.key == key)
            #expect(caught?.message.contains("cannot be synced") == true, "\(String(describing: caught))")
            let stored = try database.read { tx in try tx.hasItem(forKey: key, in: CrashItem.collection) }
            #expect(!stored)
        }
        let pending = try database.read { tx in try Self.ledger.pendingCount(in: tx) }
        #expect(pending == 0)
        try database.write { tx in try tx.write(Self.item("fine", group: 1, payload: "x")) }
        #expect(try database.read { tx in try Self.ledger.pendingCount(in: tx) } == 1)
    }

    @Test func twoReplicasEditingOneItemOfflineConverge() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ada = try Self.open(folder, "ada")
        let bob = try Self.open(folder, "bob")
        #expect(try ada.read { tx in try Self.ledger.replica(in: tx) } != bob.read { tx in try Self.ledger.replica(in: tx) })

        try ada.write { tx in try tx.write(Self.item("k", group: 1, payload: "draft")) }
        try Self.send(from: ada, to: bob)
        #expect(try bob.read { tx in try tx.read(CrashItem.self, key: "k")?.payload } == Data("draft".utf8))
        #expect(try bob.read { tx in try Self.ledger.pending(in: tx) }.isEmpty)

        // Offline: Ada changes the group, Bob the payload.
        try ada.write { tx in try tx.write(Self.item("k", group: 7, payload: "draft")) }
        try bob.write { tx in
            var item = try #require(try tx.read(CrashItem.self, key: "k"))
            item.payload = Data("final".utf8)
            try tx.write(item)
        }
        try Self.send(from: ada, to: bob)
        try Self.send(from: bob, to: ada)

        for database in [ada, bob] {
            let item = try database.read { tx in try tx.read(CrashItem.self, key: "k") }
            #expect(item?.group == 7 && item?.payload == Data("final".utf8))
            let found = try Self.byGroup.query.filter(.column("group", equals: 7)).keys(in: database)
            #expect(found == ["k"])
            #expect(try database.read { tx in try Self.ledger.pending(in: tx) }.isEmpty)
        }
        let bytes = try [ada, bob].map { database in try database.read { tx in try tx.data(forKey: "k", in: CrashItem.collection) } }
        #expect(bytes[0] != nil && bytes[0] == bytes[1])

        // A removal on one side reaches the other.
        try bob.write { tx in _ = try tx.remove(CrashItem.self, key: "k") }
        try Self.send(from: bob, to: ada)
        #expect(try ada.read { tx in try tx.read(CrashItem.self, key: "k") } == nil)
    }

    /// Items stored before the ledger is registered are recorded at its registration; the
    /// replica keeps its identity and its clock across a reopen.
    @Test func existingItemsAreRecordedAndTheReplicaIsKept() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/db.trove"
        do {
            let plain = try Database(path: path)
            try plain.write { tx in
                try tx.write(Self.item("a", group: 1, payload: "x"))
                try tx.write(Self.item("b", group: 2, payload: "y"))
            }
        }
        let replica: ReplicaID
        let latest: HybridTimestamp?
        do {
            let database = try Database(path: path, extensions: [Self.ledger.databaseExtension])
            let pending = try database.read { tx in try Self.ledger.pending(in: tx) }
            #expect(pending.map(\.key).sorted() == ["a", "b"])
            replica = try database.read { tx in try Self.ledger.replica(in: tx) }
            latest = pending.compactMap(\.changes.latestStamp).max()
        }
        let database = try Database(path: path, extensions: [Self.ledger.databaseExtension])
        #expect(try database.read { tx in try Self.ledger.replica(in: tx) } == replica)
        try database.write { tx in try tx.write(Self.item("a", group: 9, payload: "x")) }
        let stamp = try #require(try database.read { tx in try Self.ledger.pending(in: tx) }.last?.changes.latestStamp)
        let before = try #require(latest)
        #expect(stamp > before && stamp.replica == replica)
    }

    /// A change received from a replica whose clock runs ahead moves this replica's clock: the
    /// next local change is stamped after it, and wins. One too far ahead is refused, and nothing
    /// of it is written.
    @Test func receivedTimesMoveTheClock() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Self.open(folder, "a")
        try database.write { tx in try tx.write(Self.item("k", group: 1, payload: "p")) }
        let now = UInt64(Date().timeIntervalSince1970 * 1_000)
        let group = try #require(
            try database.read { tx in try Self.ledger.versions(ofKey: "k", in: CrashItem.collection, transaction: tx) }?
                .fields[FieldNumber.of("group")])
        func remote(group value: Int, aheadBy milliseconds: UInt64) throws -> ItemVersions {
            var other = try #require(try database.read { tx in try Self.ledger.versions(ofKey: "k", in: CrashItem.collection, transaction: tx) })
            var writer = BinaryWriter()
            try writer.encode(value, field: FieldNumber.of("group"))
            let ahead = HybridTimestamp(wallMilliseconds: now + milliseconds, counter: 0, replica: ReplicaID(rawValue: 42))
            other.merge(ItemVersions(fields: [FieldNumber.of("group"): .init(bytes: writer.bytes, stamp: ahead)], removal: nil))
            return other.changes(after: group.stamp)
        }
        let soon = try remote(group: 2, aheadBy: 60_000)
        _ = try database.write { tx in try Self.ledger.merge(soon, collection: CrashItem.collection, key: "k", in: tx) }
        #expect(try database.read { tx in try tx.read(CrashItem.self, key: "k")?.group } == 2)
        try database.write { tx in try tx.write(Self.item("k", group: 3, payload: "p")) }
        let stamp = try #require(try database.read { tx in try Self.ledger.pending(in: tx) }.last?.changes.latestStamp)
        #expect(stamp.wallMilliseconds >= now + 60_000)

        var refused: TroveError?
        do {
            let late = try remote(group: 9, aheadBy: 3_600_000)
            _ = try database.write { tx in try Self.ledger.merge(late, collection: CrashItem.collection, key: "k", in: tx) }
        } catch let error as TroveError {
            refused = error
        }
        #expect(refused?.code == .corruptData)
        #expect(try database.read { tx in try tx.read(CrashItem.self, key: "k")?.group } == 3)
    }

    /// A collection the ledger does not sync cannot be merged into.
    @Test func aMergeIntoAnotherCollectionIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Self.open(folder, "a")
        var caught: TroveError?
        do {
            _ = try database.write { tx in try Self.ledger.merge(ItemVersions(), collection: "other", key: "k", in: tx) }
        } catch let error as TroveError {
            caught = error
        }
        #expect(caught?.code == .misuse && caught?.extensionName == "sync")
    }
}
