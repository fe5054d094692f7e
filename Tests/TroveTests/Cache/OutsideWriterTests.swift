import Foundation
import Testing
import Trove
import TroveTestSupport

/// Writes to the file by something that is not Trove (a raw SQLite handle here, as the `sqlite3`
/// shell or a migration script would make): noticed when no commit of this `Database` follows
/// them, and otherwise cleared by `invalidateCaches()`.
struct OutsideWriterTests {
    /// Stores `note` with a raw SQLite handle, behind Trove's back.
    private func writeBehindTrovesBack(_ note: Note, database: Database) throws {
        var writer = BinaryWriter()
        try Note.encodeMessage(note, to: &writer)
        let hex = writer.bytes.map { String(format: "%02x", $0) }.joined()
        try executeRawSQL(
            path: database.path,
            "UPDATE trove_items SET data = x'\(hex)' WHERE collection = 'notes' AND key = '\(note.id)'")
    }

    @Test func anOutsideWriteIsSeenByAConnectionThatCachedTheItem() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write(Note(id: "a", text: "by Trove"))
        #expect(try connection.read(Note.self, key: "a")?.text == "by Trove")

        try writeBehindTrovesBack(Note(id: "a", text: "by sqlite3"), database: database)
        #expect(try connection.read(Note.self, key: "a")?.text == "by sqlite3")
        // Also on the writer's next write transaction.
        try writeBehindTrovesBack(Note(id: "a", text: "again"), database: database)
        let read = try connection.write { tx in try tx.read(Note.self, key: "a")?.text }
        #expect(read == "again")
    }

    @Test func anOutsideWriteIsSeenByOtherConnectionsToo() throws {
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write(Note(id: "a", text: "by Trove"))
        #expect(try reader.read(Note.self, key: "a")?.text == "by Trove")

        try writeBehindTrovesBack(Note(id: "a", text: "by sqlite3"), database: database)
        #expect(try reader.read(Note.self, key: "a")?.text == "by sqlite3")
    }

    /// The documented limit: an outside write followed by a commit of this database before the
    /// reader's next transaction is not detected, and `invalidateCaches()` is the way out.
    @Test func invalidateCachesClearsWhatAnOutsideWriteLeftStale() throws {
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write([Note(id: "a", text: "by Trove"), Note(id: "b", text: "1")])
        #expect(try reader.read(Note.self, key: "a")?.text == "by Trove")

        try writeBehindTrovesBack(Note(id: "a", text: "by sqlite3"), database: database)
        try writer.write(Note(id: "b", text: "2"))
        database.invalidateCaches()

        #expect(try reader.read(Note.self, key: "a")?.text == "by sqlite3")
        #expect(try reader.read(Note.self, key: "b")?.text == "2")
        #expect(try writer.read(Note.self, key: "a")?.text == "by sqlite3")
        // Later Trove commits keep the caches exact again.
        try writer.write(Note(id: "a", text: "by Trove again"))
        #expect(try reader.read(Note.self, key: "a")?.text == "by Trove again")
    }

    /// A transaction under way keeps its snapshot and its caches.
    @Test func invalidateCachesLeavesATransactionUnderWayAlone() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write(Note(id: "a", text: "1"))
        try connection.read { tx throws in
            #expect(try tx.read(Note.self, key: "a")?.text == "1")
            database.invalidateCaches()
            #expect(try tx.read(Note.self, key: "a")?.text == "1")
        }
    }
}
