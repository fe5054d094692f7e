import Foundation
import Testing
import Trove
import TroveTestSupport

/// A cached item answers reads of its metadata; the metadata cache holds only metadata read or
/// written alone. Each sequence here would return stale metadata if a write path left an item
/// entry or a metadata entry behind.
struct MetadataCacheTests {
    @Test func aCachedItemAnswersMetadataReadsWithoutSQLite() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        let person = Person(id: UUID(), name: "Ada", age: 36, metadata: Stats(visits: 1))
        try connection.write(person)
        try corruptMetadataColumn(path: database.path, collection: Person.collection, key: person.id.itemKey)
        // A commit of another connection after the raw write, so that this one does not empty its
        // caches for a change of the file that nothing explains (RELIABILITY.md, "Limits").
        try database.newConnection().write(Note(id: "unrelated", text: ""))

        // The written item is cached with its metadata: the corrupt column is not read.
        #expect(try connection.metadata(for: Person.self, key: person.id) == Stats(visits: 1))
        // A fresh connection has no cache and reads the corrupt column.
        #expect(throws: TroveError.self) { try database.newConnection().metadata(for: Person.self, key: person.id) }
    }

    @Test func aCachedItemWithoutMetadataAnswersNil() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let id = UUID()
        try connection.write(Person(id: id, name: "Bo", age: 1, metadata: Stats(visits: 1)))
        #expect(try connection.metadata(for: Person.self, key: id) == Stats(visits: 1))
        try connection.write(Person(id: id, name: "Bo", age: 1, metadata: nil))
        #expect(try connection.metadata(for: Person.self, key: id) == nil)
    }

    @Test func aMetadataOnlyWriteReplacesWhatTheCachedItemSays() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let id = UUID()
        try connection.write(Person(id: id, name: "Cy", age: 2, metadata: Stats(visits: 1)))
        #expect(try connection.read(Person.self, key: id)?.metadata == Stats(visits: 1))

        try connection.write { tx in _ = try tx.setMetadata(Stats(visits: 2), for: Person.self, key: id) }

        #expect(try connection.metadata(for: Person.self, key: id) == Stats(visits: 2))
        #expect(try connection.read(Person.self, key: id)?.metadata == Stats(visits: 2))
        #expect(try connection.metadata(for: Person.self, key: id) == Stats(visits: 2))
        #expect(try connection.read(Person.self, key: id)?.name == "Cy")
    }

    @Test func anItemWriteReplacesAMetadataEntryEvenOnceTheItemIsEvicted() throws {
        // One item entry: writing a second item evicts the first, so that its metadata read falls
        // through to the metadata cache, which must not hold the metadata read before the write.
        let database = try makeTemporaryDatabase { $0.itemCacheLimit = 1 }
        let connection = try database.newConnection()
        let first = UUID()
        try connection.write(Person(id: first, name: "Di", age: 3, metadata: Stats(visits: 1)))
        try connection.write(Person(id: UUID(), name: "Ed", age: 4, metadata: nil))
        #expect(try connection.metadata(for: Person.self, key: first) == Stats(visits: 1))  // now a metadata entry

        try connection.write(Person(id: first, name: "Di", age: 3, metadata: Stats(visits: 2)))
        try connection.write(Person(id: UUID(), name: "Fa", age: 5, metadata: nil))

        #expect(try connection.metadata(for: Person.self, key: first) == Stats(visits: 2))
    }

    @Test func aMetadataWriteInABatchLargerThanTheCacheLeavesNoStaleEntry() throws {
        let database = try makeTemporaryDatabase { $0.itemCacheLimit = 1 }
        let connection = try database.newConnection()
        let id = UUID()
        try connection.write(Person(id: id, name: "Gu", age: 6, metadata: Stats(visits: 1)))
        try connection.write { tx in _ = try tx.setMetadata(Stats(visits: 2), for: Person.self, key: id) }
        #expect(try connection.metadata(for: Person.self, key: id) == Stats(visits: 2))  // a metadata entry

        // The first item of a batch of two is not cached: its metadata entry must go all the same.
        try connection.write([
            Person(id: id, name: "Gu", age: 6, metadata: Stats(visits: 3)),
            Person(id: UUID(), name: "Ha", age: 7, metadata: nil),
        ])

        #expect(try connection.metadata(for: Person.self, key: id) == Stats(visits: 3))
        #expect(try connection.read(Person.self, key: id)?.metadata == Stats(visits: 3))
    }

    @Test func untypedWritesEvictTheItemAndItsMetadata() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let id = UUID()
        let key = id.itemKey
        try connection.write(Person(id: id, name: "Io", age: 8, metadata: Stats(visits: 1)))
        let one = try #require(try connection.read { try $0.dataAndMetadata(forKey: key, in: Person.collection) })
        try connection.write(Person(id: id, name: "Io", age: 8, metadata: Stats(visits: 2)))
        let two = try #require(try connection.read { try $0.dataAndMetadata(forKey: key, in: Person.collection) })

        // The item is cached with visits 2; the untyped writes must evict it.
        try connection.write { tx in _ = try tx.replaceMetadata(one.metadata, forKey: key, in: Person.collection) }
        #expect(try connection.metadata(for: Person.self, key: id) == Stats(visits: 1))
        #expect(try connection.read(Person.self, key: id)?.metadata == Stats(visits: 1))

        try connection.write { tx in
            try tx.setData(two.data, metadata: two.metadata, forKey: key, in: Person.collection)
        }
        #expect(try connection.metadata(for: Person.self, key: id) == Stats(visits: 2))

        try connection.write { tx in _ = try tx.removeItem(forKey: key, in: Person.collection) }
        #expect(try connection.metadata(for: Person.self, key: id) == nil)
        #expect(try connection.read(Person.self, key: id) == nil)
    }

    @Test func aRolledBackTransactionLeavesTheCommittedMetadata() throws {
        struct Failure: Error {}
        let connection = try makeTemporaryDatabase().newConnection()
        let written = UUID()
        let setAlone = UUID()
        try connection.write([
            Person(id: written, name: "Jo", age: 9, metadata: Stats(visits: 1)),
            Person(id: setAlone, name: "Ka", age: 10, metadata: Stats(visits: 1)),
        ])
        #expect(try connection.metadata(for: Person.self, key: setAlone) == Stats(visits: 1))

        #expect(throws: Failure.self) {
            try connection.write { tx throws in
                try tx.write(Person(id: written, name: "Jo", age: 9, metadata: Stats(visits: 2)))
                try tx.setMetadata(Stats(visits: 2), for: Person.self, key: setAlone)
                #expect(try tx.metadata(for: Person.self, key: written) == Stats(visits: 2))
                #expect(try tx.metadata(for: Person.self, key: setAlone) == Stats(visits: 2))
                throw Failure()
            }
        }

        for id in [written, setAlone] {
            #expect(try connection.metadata(for: Person.self, key: id) == Stats(visits: 1))
            #expect(try connection.read(Person.self, key: id)?.metadata == Stats(visits: 1))
        }
    }

    @Test func anotherConnectionsMetadataWriteEvictsTheCachedItem() throws {
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        let id = UUID()
        try writer.write(Person(id: id, name: "Lu", age: 11, metadata: Stats(visits: 1)))
        #expect(try reader.read(Person.self, key: id)?.metadata == Stats(visits: 1))

        try writer.write { tx in _ = try tx.setMetadata(Stats(visits: 2), for: Person.self, key: id) }

        #expect(try reader.metadata(for: Person.self, key: id) == Stats(visits: 2))
        #expect(try reader.read(Person.self, key: id)?.metadata == Stats(visits: 2))
    }
}
