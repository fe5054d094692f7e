import Testing
import Trove
import TroveTestSupport

/// A batch larger than the cache caches only its last items, and leaves no stale entry behind.
struct BatchWriteCacheTests {
    @Test func earlyItemsOfALargeBatchEvictTheirStaleEntries() throws {
        let database = try makeTemporaryDatabase { $0.itemCacheLimit = 2 }
        let connection = try database.newConnection()
        try connection.write(Note(id: "a", text: "old"))
        #expect(try connection.read(Note.self, key: "a")?.text == "old")

        // "a" comes first in a batch of 3 writes: it is written without being cached. The last two
        // writes are of one key, so they alone would not push the old "a" out of the cache.
        try connection.write([Note(id: "a", text: "new"), Note(id: "b", text: "b1"), Note(id: "b", text: "b2")])

        #expect(try connection.read(Note.self, key: "a")?.text == "new")
        #expect(try connection.read(Note.self, key: "b")?.text == "b2")
    }

    @Test func aBatchWithinTheCacheIsCachedWhole() throws {
        let database = try makeTemporaryDatabase { $0.itemCacheLimit = 10 }
        let connection = try database.newConnection()
        try connection.write([Note(id: "a", text: "1"), Note(id: "b", text: "2")])
        try connection.write { tx in
            try tx.write([Note(id: "a", text: "3"), Note(id: "b", text: "4")])
        }
        #expect(try connection.read(Note.self, key: "a")?.text == "3")
        #expect(try connection.read(Note.self, key: "b")?.text == "4")
    }
}
