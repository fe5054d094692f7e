import Foundation
import Synchronization
import Testing
import TroveTestSupport

@testable import Trove

// Shared decoded items: a final class with only `let` properties, and a struct with metadata.
extension Gadget: ShareableItem {}
extension Person: ShareableItem {}

/// How many reader tasks are still running.
private final class ReadersLeft: Sendable {
    private let count: Atomic<Int>
    init(_ count: Int) { self.count = Atomic(count) }
    var value: Int { count.load(ordering: .acquiring) }
    func finish() { count.subtract(1, ordering: .releasing) }
}

struct CacheControlTests {
    private func notes(_ count: Int) -> [Note] {
        (0..<count).map { Note(id: String(format: "k%02d", $0), text: "text \($0)") }
    }

    // MARK: Flushing

    @Test func flushCachesEmptiesItemsMetadataAndStatementsAndReadsStillWork() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write(notes(20))
        let person = Person(id: UUID(), name: "Ada", age: 36, metadata: Stats(visits: 3, lastSeen: nil))
        try connection.write(person)
        try connection.read { tx in
            _ = try tx.read(Note.self, keys: notes(20).map(\.id))
            _ = try tx.metadata(for: Person.self, key: person.id)
        }
        let before = connection.cacheCounts
        #expect(before.items >= 20)
        #expect(before.statements > 0)
        connection.flushCaches()
        let after = connection.cacheCounts
        #expect(after.items == 0 && after.metadata == 0 && after.statements == 0)
        // Everything reads as before, from the file.
        #expect(try connection.readAll(Note.self) == notes(20))
        #expect(try connection.metadata(for: Person.self, key: person.id) == Stats(visits: 3, lastSeen: nil))
        #expect(connection.cacheCounts.statements > 0)
    }

    // MARK: Per-connection limits

    @Test func perConnectionLimitsDifferFromTheDatabaseDefaults() throws {
        let database = try makeTemporaryDatabase { $0.itemCacheLimit = 50 }
        let writer = try database.newConnection()
        try writer.write(notes(30))
        let small = try database.newConnection(itemCacheLimit: 3, metadataCacheLimit: 0)
        let normal = try database.newConnection()
        #expect(small.itemCacheLimit == 3 && small.metadataCacheLimit == 0)
        #expect(normal.itemCacheLimit == 50 && normal.metadataCacheLimit == 1_000)
        for connection in [small, normal] {
            #expect(try connection.read(Note.self, keys: notes(30).map(\.id)) == notes(30))
        }
        #expect(small.cacheCounts.items == 3)
        #expect(normal.cacheCounts.items == 30)
        // Changing the limit of a connection that has a cache.
        normal.itemCacheLimit = 5
        #expect(normal.cacheCounts.items == 0)
        #expect(try normal.read(Note.self, keys: notes(30).map(\.id)) == notes(30))
        #expect(normal.cacheCounts.items == 5)
        // A connection without a metadata cache still reads metadata right.
        let person = Person(id: UUID(), name: "Ada", age: 36, metadata: Stats(visits: 1, lastSeen: nil))
        try writer.write(person)
        #expect(try small.metadata(for: Person.self, key: person.id)?.visits == 1)
        #expect(small.cacheCounts.metadata == 0)
    }

    // MARK: Shared immutable items

    @Test func connectionsShareOneDecodedInstance() throws {
        let database = try makeTemporaryDatabase { $0.sharedItemCacheLimit = 100 }
        let a = try database.newConnection()
        let b = try database.newConnection()
        let gadget = Gadget(id: UUID(), label: "lamp")
        try a.write(gadget)
        try a.write(notes(3))
        let fromC = try #require(try database.newConnection().read(Gadget.self, key: gadget.id))
        let fromB = try #require(try b.read(Gadget.self, key: gadget.id))
        #expect(fromB === fromC)
        #expect(fromB == gadget)
        // Types that do not opt in are not shared.
        _ = try b.read(Note.self, key: "k01")
        #expect(database.sharedItemCount == 1)
        database.flushSharedItems()
        #expect(database.sharedItemCount == 0)
    }

    @Test func sharingIsOffByDefault() throws {
        let database = try makeTemporaryDatabase()
        let gadget = Gadget(id: UUID(), label: "lamp")
        try database.newConnection().write(gadget)
        let first = try database.newConnection().read(Gadget.self, key: gadget.id)
        let second = try database.newConnection().read(Gadget.self, key: gadget.id)
        #expect(first !== second)
        #expect(database.sharedItemCount == 0)
    }

    /// Two connections at different snapshots: each sees exactly its snapshot's version, whatever
    /// the other put in the shared cache, for the item and for its metadata.
    @Test func sharedItemsStayCorrectWhenAnotherConnectionWrites() throws {
        let database = try makeTemporaryDatabase { $0.sharedItemCacheLimit = 100 }
        let old = try database.newConnection()
        let writer = try database.newConnection()
        let new = try database.newConnection()
        let id = UUID()
        let person = Person(id: id, name: "v1", age: 1, metadata: Stats(visits: 1, lastSeen: nil))
        try writer.write(person)
        let gadgetID = UUID()
        try writer.write(Gadget(id: gadgetID, label: "v1"))
        writer.flushCaches()
        try old.read { oldTx in
            // The old snapshot begins before the writes below; nothing of it is cached yet.
            #expect(try oldTx.count(in: Person.collection) == 1)
            try writer.write { tx in
                try tx.write(Person(id: id, name: "v2", age: 2, metadata: Stats(visits: 1, lastSeen: nil)))
                try tx.write(Gadget(id: gadgetID, label: "v2"))
            }
            // The newer connection reads and shares the new versions first.
            #expect(try new.read(Person.self, key: id)?.name == "v2")
            #expect(try new.read(Gadget.self, key: gadgetID)?.label == "v2")
            // The old snapshot still reads the old versions, and shares them in turn.
            #expect(try oldTx.read(Person.self, key: id)?.name == "v1")
            #expect(try oldTx.read(Gadget.self, key: gadgetID)?.label == "v1")
            // Only the metadata changes: the bytes of the item are the same, the metadata's not.
            _ = try writer.write { tx in
                try tx.setMetadata(Stats(visits: 9, lastSeen: nil), for: Person.self, key: id)
            }
            let fresh = try database.newConnection()
            #expect(try fresh.read(Person.self, key: id)?.metadata?.visits == 9)
            #expect(try fresh.read(Person.self, key: id)?.name == "v2")
        }
        // A connection at the newest snapshot after the old one shared v1: v2, visits 9.
        let later = try database.newConnection()
        #expect(try later.read(Person.self, key: id)?.name == "v2")
        #expect(try later.read(Person.self, key: id)?.metadata?.visits == 9)
        #expect(try later.read(Gadget.self, key: gadgetID)?.label == "v2")
        // The old connection, now at the newest snapshot, evicted its own entries and reads v2.
        #expect(try old.read(Person.self, key: id)?.name == "v2")
        #expect(try old.read(Gadget.self, key: gadgetID)?.label == "v2")
        // Removed: no shared value answers for a missing row.
        _ = try writer.write { tx in try tx.remove(Gadget.self, key: gadgetID) }
        #expect(try database.newConnection().read(Gadget.self, key: gadgetID) == nil)
    }

    /// Readers on several threads, each on its own connection, while a writer keeps changing the
    /// items: every shared value a reader gets is the decoding of the bytes of its own snapshot.
    @Test func sharedItemsMatchEachReadersSnapshotUnderConcurrentWrites() async throws {
        let database = try makeTemporaryDatabase { $0.sharedItemCacheLimit = 8 }
        let ids = (0..<16).map { _ in UUID() }
        let writer = try database.newConnection()
        try await writer.write { tx in try tx.write(ids.map { Gadget(id: $0, label: "0") }) }
        let readersLeft = ReadersLeft(3)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Writes for as long as readers read, so that they read while it commits.
                var round = 0
                while readersLeft.value > 0 {
                    round += 1
                    let label = "\(round)"
                    try await writer.write { tx in
                        for id in ids where Int.random(in: 0..<3) == 0 {
                            try tx.write(Gadget(id: id, label: label))
                        }
                    }
                }
                #expect(round > 1)
            }
            for _ in 0..<3 {
                let reader = try database.newConnection(itemCacheLimit: 0, metadataCacheLimit: 0)
                group.addTask {
                    defer { readersLeft.finish() }
                    for _ in 0..<300 {
                        // The closure runs on the connection's queue, outside the test's task:
                        // it returns what it found, checked here.
                        let mismatches = try await reader.read { tx in
                            var mismatches: [String] = []
                            for id in ids.shuffled().prefix(6) {
                                let gadget = try tx.read(Gadget.self, key: id)
                                let bytes = try tx.data(forKey: id.itemKey, in: Gadget.collection)
                                let decoded = try bytes.map { try JSONDecoder().decode(Gadget.self, from: $0) }
                                if gadget != decoded {
                                    mismatches.append("\(gadget?.label ?? "nil") != \(decoded?.label ?? "nil")")
                                }
                            }
                            return mismatches
                        }
                        #expect(mismatches.isEmpty)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    // MARK: Addresses

    @Test func readsByAddressAcrossCollections() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write(notes(5))
        try connection.write { tx in
            for note in notes(5) where note.id != "k02" {
                let bytes = try #require(try tx.data(forKey: note.id, in: Note.collection))
                try tx.setData(bytes, forKey: "archived-\(note.id)", in: "archive")
            }
            try tx.setData(Data([0xFF, 0xFF]), forKey: "broken", in: "archive")
        }
        connection.flushCaches()
        let addresses = [
            ItemAddress(Note.self, key: "k01"), ItemAddress(collection: "archive", key: "archived-k03"),
            ItemAddress(collection: "archive", key: "archived-k02"), ItemAddress(of: notes(5)[4]),
            ItemAddress(collection: "nowhere", key: "k01"),
        ]
        let found = try connection.read { tx in try tx.read(Note.self, at: addresses) }
        #expect(found.count == 3)
        #expect(found[addresses[0]]?.text == "text 1")
        #expect(found[addresses[1]]?.text == "text 3")
        #expect(found[addresses[3]]?.text == "text 4")
        #expect(found[addresses[2]] == nil && found[addresses[4]] == nil)
        #expect(try connection.read { tx in try tx.read(Note.self, at: addresses[1]) }?.id == "k03")
        // The three found are cached by address; the second read of one comes from the cache.
        #expect(connection.cacheCounts.items == 3)
        // A failure names the collection and key read.
        let error = #expect(throws: TroveError.self) {
            try connection.read { tx in try tx.read(Note.self, at: [ItemAddress(collection: "archive", key: "broken")]) }
        }
        #expect(error?.collection == "archive" && error?.key == "broken")
        #expect(addresses[1].description == "archive/archived-k03")
        #expect(addresses.sorted().first == ItemAddress(collection: "archive", key: "archived-k02"))
    }

    // MARK: Configuration

    @Test func tuningSettingsReachEveryConnection() throws {
        let database = try makeTemporaryDatabase {
            $0.pageSize = 8_192
            $0.mmapSize = 64 << 20
            $0.sqliteCacheSizeKiB = 4_096
            $0.walAutocheckpointPages = 500
            $0.journalSizeLimit = 1 << 20
        }
        let connection = try database.newConnection()
        #expect(try connection.pragmaValue("page_size") == 8_192)
        #expect(try connection.pragmaValue("mmap_size") == 64 << 20)
        #expect(try connection.pragmaValue("cache_size") == -4_096)
        #expect(try connection.pragmaValue("wal_autocheckpoint") == 500)
        #expect(try connection.pragmaValue("journal_size_limit") == 1 << 20)
        try connection.write(notes(10))
        #expect(try connection.readAll(Note.self).count == 10)
        // The database's own readers and writer open with the same settings.
        #expect(try database.read { try $0.pragmaValue("mmap_size") } == 64 << 20)
        #expect(try database.read { try $0.pragmaValue("cache_size") } == -4_096)
        #expect(try database.write { try $0.pragmaValue("journal_size_limit") } == 1 << 20)
        // The defaults are SQLite's.
        let plain = try makeTemporaryDatabase().newConnection()
        #expect(try plain.pragmaValue("page_size") == 4_096)
        #expect(try plain.pragmaValue("wal_autocheckpoint") == 1_000)
    }

    @Test func invalidTuningSettingsAreMisuse() throws {
        let pageError = #expect(throws: TroveError.self) { _ = try makeTemporaryDatabase { $0.pageSize = 3_000 } }
        #expect(pageError?.code == .misuse)
        let database = try makeTemporaryDatabase { $0.journalSizeLimit = -5 }
        let error = #expect(throws: TroveError.self) { _ = try database.newConnection() }
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("journalSizeLimit") == true)
    }
}
