import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// Schema evolution on both engines, written once: a typed write by an older version of a model
/// keeps the fields that a newer version wrote and the older one does not know.
struct UnknownFieldEngineTests {
    @Test(arguments: TestEngine.available)
    func anOlderModelsWriteKeepsTheFieldsItDoesNotKnow(_ engine: TestEngine) async throws {
        switch engine {
        case .sqlite:
            try await roundTrip(try Database.temporary())
        case .postgres:
            try await TestServer.withStore { try await roundTrip($0) }
        }
    }

    func roundTrip(_ db: some AsyncDatabaseWriter) async throws {
        // Version 2 writes `pinned`, which version 1 does not know.
        try await db.write(NoteV2(subtitle: "sub", pinned: true, title: "first", text: "body", id: "n1"))
        // Version 1 reads the note (and learns that the collection holds unknown fields), changes
        // its title and writes it back.
        var old = try #require(try await db.read(NoteV1.self, key: "n1"))
        #expect(old.title == "first" && old.body == "body")
        old.title = "renamed"
        try await db.write(old)
        // Version 2 sees the new title and the field version 1 kept.
        let new = try #require(try await db.read(NoteV2.self, key: "n1"))
        #expect(new.title == "renamed")
        #expect(new.pinned, "the write of version 1 lost a field of version 2")
        #expect(new.text == "body" && new.subtitle == "sub")
    }
}
