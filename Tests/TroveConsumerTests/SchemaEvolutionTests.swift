import Foundation
import Testing
import Trove

/// `NoteV1` and `NoteV2` share the collection "notes": each reads what the other wrote.
struct SchemaEvolutionTests {
    @Test func newVersionReadsOldData() throws {
        let database = try Database.temporary()
        let old = NoteV1(id: "n1", title: "Title", body: "Body", legacyFlag: true, subtitle: "Sub")
        let bare = NoteV1(id: "n2", title: "Bare", body: nil, subtitle: nil)
        try database.newConnection().write([old, bare])

        let notes = try database.newConnection().read { tx in try tx.read(NoteV2.self, keys: ["n1", "n2"]) }
        #expect(notes == [
            // renamed (body -> text), removed (legacyFlag), added with default (pinned), reordered
            NoteV2(subtitle: "Sub", pinned: false, title: "Title", text: "Body", id: "n1"),
            // optional made non-optional: absent takes the default
            NoteV2(subtitle: "", pinned: false, title: "Bare", text: nil, id: "n2"),
        ])
    }

    @Test func oldVersionReadsNewData() throws {
        let database = try Database.temporary()
        let new = NoteV2(subtitle: "Sub", pinned: true, title: "Title", text: "Text", id: "n1")
        try database.newConnection().write(new)

        let note = try database.newConnection().read { tx in try tx.read(NoteV1.self, key: "n1") }
        // The old version does not know `pinned`: it skips it. `text` is stored as `body`, the name it
        // was first stored under, so the old version reads it.
        #expect(note == NoteV1(id: "n1", title: "Title", body: "Text", legacyFlag: false, subtitle: "Sub"))
    }

    @Test func aRewriteByTheNewVersionKeepsEverythingItKnows() throws {
        let database = try Database.temporary()
        let connection = try database.newConnection()
        try connection.write(NoteV1(id: "n1", title: "T", body: "B", legacyFlag: true, subtitle: nil))
        var note = try #require(try connection.read(NoteV2.self, key: "n1"))
        note.pinned = true
        try connection.write(note)
        #expect(try connection.read(NoteV2.self, key: "n1") == note)
        #expect(try connection.read(NoteV1.self, key: "n1")?.title == "T")
    }
}
