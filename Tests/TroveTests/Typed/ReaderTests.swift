import Foundation
import Testing
import Trove
import TroveTestSupport

struct ReaderTests {
    private func seeded() throws -> Connection {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write(["a", "b", "c", "d"].map { Note(id: $0, text: $0.uppercased()) })
        return connection
    }

    @Test func byKeysKeepsTheOrderOfTheKeysAndSkipsMissingOnes() throws {
        let connection = try seeded()
        let notes = try connection.read { tx in try tx.read(Note.self, keys: ["d", "x", "a", "c", "y"]) }
        #expect(notes.map(\.id) == ["d", "a", "c"])
        #expect(try connection.read(Note.self, keys: ["c", "b"]).map(\.id) == ["c", "b"])
    }

    @Test func filterExistingReturnsFoundItemsAndMissingKeys() throws {
        let connection = try seeded()
        let (items, missing) = try connection.read { tx in try tx.filterExisting(Note.self, keys: ["b", "zz", "a", "yy"]) }
        #expect(items.map(\.id) == ["b", "a"])
        #expect(missing == ["zz", "yy"])
    }

    @Test func allByKeyAndMetadataThroughTransactionAndConnection() throws {
        let connection = try seeded()
        #expect(try connection.readAll(Note.self).map(\.id) == ["a", "b", "c", "d"])
        #expect(try connection.read(Note.self, key: "b")?.text == "B")
        #expect(try connection.read(Note.self, key: "q") == nil)
        try connection.read { tx throws in
            #expect(try tx.readAll(Note.self).count == 4)
            #expect(try tx.keys(of: Note.self) == ["a", "b", "c", "d"])
            #expect(try tx.count(of: Note.self) == 4)
            #expect(try tx.contains(Note.self, key: "a"))
            #expect(try !tx.contains(Note.self, key: "q"))
        }
    }

    @Test func removeByValueKeyKeysAndCollection() throws {
        let connection = try seeded()
        try connection.write { tx throws in
            #expect(try tx.remove(Note(id: "a", text: "")))
            #expect(try tx.remove(Note.self, key: "b"))
            #expect(try !tx.remove(Note.self, key: "b"))
        }
        #expect(try connection.remove(Note.self, keys: ["c", "x"]) == 1)
        #expect(try connection.readAll(Note.self).map(\.id) == ["d"])
        #expect(try connection.removeAll(Note.self) == 1)
        #expect(try connection.readAll(Note.self).isEmpty)
    }

    @Test func integerAndUUIDKeysRoundTrip() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let album = Album(id: -5, title: "Negative")
        try connection.write(album)
        #expect(try connection.read { try $0.keys(of: Album.self) } == [-5])
        let gadget = Gadget(id: UUID(), label: "g")
        try connection.write(gadget)
        #expect(try connection.read { try $0.keys(of: Gadget.self) } == [gadget.id])
    }

    @Test func aStoredKeyThatIsNotAValidIDIsAnInvalidKeyError() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write { try $0.setData(Data(), forKey: "not-a-number", in: Album.collection) }
        #expect {
            try connection.read { try $0.keys(of: Album.self) }
        } throws: { error in
            (error as? TroveError)?.code == .invalidKey && (error as? TroveError)?.key == "not-a-number"
        }
    }
}
