import Foundation
import Testing
import Trove
import TroveTestSupport

struct CacheInvalidationTests {
    @Test func aCommitOnOneConnectionInvalidatesTheOthersCaches() throws {
        let database = try makeTemporaryDatabase()
        let first = try database.newConnection()
        let second = try database.newConnection()
        try first.write([Note(id: "a", text: "1"), Note(id: "b", text: "1"), Note(id: "c", text: "1")])
        // Fill the second connection's cache.
        #expect(try second.read(Note.self, keys: ["a", "b", "c"]).map(\.text) == ["1", "1", "1"])

        try first.write { tx throws in
            try tx.write(Note(id: "a", text: "2"))
            try tx.remove(Note.self, key: "b")
        }
        #expect(try second.read(Note.self, key: "a")?.text == "2")
        #expect(try second.read(Note.self, key: "b") == nil)
        #expect(try second.read(Note.self, key: "c")?.text == "1")
    }

    @Test func invalidationIsExactAndCachedItemsAreServedWithoutSQLite() throws {
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write([Note(id: "kept", text: "v1"), Note(id: "changed", text: "v1")])
        _ = try reader.read(Note.self, keys: ["kept", "changed"])

        // Change the stored bytes of "kept" behind Trove's back... through the untyped layer of the
        // writer, which does record a change: so instead overwrite "changed" only, and prove that
        // "kept" still comes from the cache by corrupting it with a raw SQLite handle below.
        try writer.write(Note(id: "changed", text: "v2"))
        try corruptDataColumn(path: database.path, collection: Note.collection, key: "kept")

        // "kept" was not invalidated: the reader returns its cached copy, not the corrupt bytes.
        #expect(try reader.read(Note.self, key: "kept")?.text == "v1")
        #expect(try reader.read(Note.self, key: "changed")?.text == "v2")
        // A fresh connection has no cache and sees the corruption.
        #expect(throws: TroveError.self) { try database.newConnection().read(Note.self, key: "kept") }
    }

    @Test func removingACollectionOrEverythingInvalidatesIt() throws {
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write(Note(id: "n", text: "t"))
        try writer.write(Account(id: 1, balance: 1))
        _ = try reader.read(Note.self, key: "n")
        _ = try reader.read(Account.self, key: 1)

        try writer.removeAll(Note.self)
        #expect(try reader.read(Note.self, key: "n") == nil)
        #expect(try reader.read(Account.self, key: 1)?.balance == 1)

        _ = try writer.write { try $0.removeAllItems() }
        #expect(try reader.read(Account.self, key: 1) == nil)
    }

    @Test func aRolledBackTransactionInvalidatesNothingElsewhere() throws {
        struct Failure: Error {}
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write(Note(id: "n", text: "committed"))
        _ = try reader.read(Note.self, key: "n")
        _ = try? writer.write { tx throws in
            try tx.write(Note(id: "n", text: "rolled back"))
            throw Failure()
        }
        #expect(try reader.read(Note.self, key: "n")?.text == "committed")
        #expect(try writer.read(Note.self, key: "n")?.text == "committed")
    }

    @Test func aRolledBackTransactionEvictsWhatItCachedInEveryCollection() throws {
        struct Failure: Error {}
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        try writer.write { tx throws in
            try tx.write(Note(id: "n", text: "committed"))
            try tx.write(Note(id: "m", text: "committed"))
            try tx.write(Account(id: 1, balance: 1))
        }
        _ = try? writer.write { tx throws in
            // Interleaved collections, so that each key must be evicted from its own collection.
            try tx.write(Note(id: "n", text: "rolled back"))
            try tx.write(Account(id: 1, balance: 2))
            try tx.write(Note(id: "m", text: "rolled back"))
            try tx.write(Note(id: "new", text: "rolled back"))
            throw Failure()
        }
        #expect(try writer.read(Note.self, key: "n")?.text == "committed")
        #expect(try writer.read(Note.self, key: "m")?.text == "committed")
        #expect(try writer.read(Account.self, key: 1)?.balance == 1)
        #expect(try writer.read(Note.self, key: "new") == nil)
    }

    @Test func aConnectionFarBehindEmptiesItsCacheInsteadOfServingStaleItems() throws {
        let database = try makeTemporaryDatabase { $0.changesetHistoryLimit = 3 }
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write(Note(id: "n", text: "0"))
        _ = try reader.read(Note.self, key: "n")
        for version in 1...10 {
            try writer.write(Note(id: "n", text: "\(version)"))
        }
        #expect(try reader.read(Note.self, key: "n")?.text == "10")
    }

    @Test func metadataCacheIsInvalidatedToo() throws {
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        let id = UUID()
        try writer.write(Person(id: id, name: "Ada", age: 36, metadata: Stats(visits: 1)))
        #expect(try reader.metadata(for: Person.self, key: id)?.visits == 1)
        try writer.write { tx in _ = try tx.setMetadata(Stats(visits: 2), for: Person.self, key: id) }
        #expect(try reader.metadata(for: Person.self, key: id)?.visits == 2)
        #expect(try reader.read(Person.self, key: id)?.metadata?.visits == 2)
    }

    @Test func aCommitThroughAnotherDatabaseOnTheFileEmptiesTheCaches() throws {
        let (other, writer, reader) = try twoDatabasesOnOneFile()

        // `other` is another process to the writer and reader: its changesets are unknown here.
        try other.newConnection().write(Note(id: "a", text: "2"))
        #expect(try reader.read(Note.self, key: "a")?.text == "2")
        #expect(try writer.read(Note.self, key: "a")?.text == "2")
        #expect(try reader.read(Note.self, key: "b")?.text == "1")

        // The other database commits again, and nothing else: its token in the file is the one
        // the reader saw last time, which must not pass for this database's own.
        try other.newConnection().write(Note(id: "a", text: "3"))
        #expect(try reader.read(Note.self, key: "a")?.text == "3")
    }

    @Test func aCommitOfThisDatabaseAfterAnotherDatabaseCommittedDoesNotHideIt() throws {
        let (other, writer, reader) = try twoDatabasesOnOneFile()

        // The reader sees both commits at once: the foreign one to "a", then this database's
        // own to "b", whose changeset alone would not evict "a".
        try other.newConnection().write(Note(id: "a", text: "2"))
        try writer.write(Note(id: "b", text: "2"))
        #expect(try reader.read(Note.self, key: "a")?.text == "2")
        #expect(try reader.read(Note.self, key: "b")?.text == "2")

        // And again after the other database commits once more.
        try other.newConnection().write(Note(id: "a", text: "3"))
        try writer.write(Note(id: "b", text: "3"))
        #expect(try reader.read(Note.self, keys: ["a", "b"]).map(\.text) == ["3", "3"])
    }

    @Test func invalidationIsExactAgainAfterAnotherDatabaseCommitted() throws {
        let database = try makeTemporaryDatabase()
        let other = try Database(path: database.path)
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write([Note(id: "kept", text: "v1"), Note(id: "changed", text: "v1")])
        try other.newConnection().write(Note(id: "elsewhere", text: "v1"))
        try writer.write(Note(id: "changed", text: "v2"))
        _ = try reader.read(Note.self, keys: ["kept", "changed"])

        // Only this database commits from here on: the reader evicts exactly what changed, so
        // "kept" keeps coming from its cache even when its stored bytes are damaged.
        try writer.write(Note(id: "changed", text: "v3"))
        try corruptDataColumn(path: database.path, collection: Note.collection, key: "kept")
        #expect(try reader.read(Note.self, key: "kept")?.text == "v1")
        #expect(try reader.read(Note.self, key: "changed")?.text == "v3")
    }

    @Test func disabledCachesStillReadCorrectly() throws {
        let database = try makeTemporaryDatabase {
            $0.itemCacheLimit = 0
            $0.metadataCacheLimit = 0
        }
        let connection = try database.newConnection()
        try connection.write(Note(id: "a", text: "x"))
        #expect(try connection.read(Note.self, key: "a")?.text == "x")
    }

    /// A database with a writer and a reader connection, the reader's cache holding notes "a"
    /// and "b", and another `Database` instance on the same file: to the first, what another
    /// process is.
    private func twoDatabasesOnOneFile() throws -> (other: Database, writer: Connection, reader: Connection) {
        let database = try makeTemporaryDatabase()
        let other = try Database(path: database.path)
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write([Note(id: "a", text: "1"), Note(id: "b", text: "1")])
        _ = try reader.read(Note.self, keys: ["a", "b"])
        return (other, writer, reader)
    }

}
