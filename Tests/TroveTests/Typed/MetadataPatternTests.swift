import Foundation
import Testing
import Trove
import TroveTestSupport

/// The six patterns of YapDatabaseExtensions: item a struct or a final class, with no
/// metadata, struct metadata, or class metadata.
struct MetadataPatternTests {
    @Test func structItemWithoutMetadata() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write(Note(id: "n", text: "t"))
        #expect(try connection.read(Note.self, key: "n") == Note(id: "n", text: "t"))
        #expect(try connection.read { try $0.metadata(forKey: "n", in: Note.collection) } == nil)
    }

    @Test func structItemWithStructMetadata() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let person = Person(id: UUID(), name: "Ada", age: 36, metadata: Stats(visits: 3, lastSeen: Date(timeIntervalSince1970: 5)))
        try connection.write(person)
        #expect(try fresh(connection).read(Person.self, key: person.id) == person)
        #expect(try fresh(connection).metadata(for: Person.self, key: person.id) == person.metadata)
    }

    @Test func structItemWithClassMetadata() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let bookmark = Bookmark(id: 7, url: URL(string: "https://example.com/a")!, metadata: Tag(label: "read later"))
        try connection.write(bookmark)
        #expect(try fresh(connection).read(Bookmark.self, key: 7) == bookmark)
        #expect(try fresh(connection).metadata(for: Bookmark.self, key: 7)?.label == "read later")
    }

    @Test func classItemWithoutMetadata() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let gadget = Gadget(id: UUID(), label: "lamp")
        try connection.write(gadget)
        #expect(try fresh(connection).read(Gadget.self, key: gadget.id) == gadget)
    }

    @Test func classItemWithStructMetadata() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let device = Device(id: "d1", model: "X", metadata: Stats(visits: 9))
        try connection.write(device)
        #expect(try fresh(connection).read(Device.self, key: "d1") == device)
        #expect(try fresh(connection).metadata(for: Device.self, key: "d1") == Stats(visits: 9))
    }

    @Test func classItemWithClassMetadata() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let album = Album(id: 42, title: "Blue", metadata: Tag(label: "jazz"))
        try connection.write(album)
        #expect(try fresh(connection).read(Album.self, key: 42) == album)
        #expect(try fresh(connection).metadata(for: Album.self, key: 42) == Tag(label: "jazz"))
    }

    @Test func itemWithoutMetadataValueStoresNull() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let person = Person(id: UUID(), name: "Bo", age: 1, metadata: nil)
        try connection.write(person)
        #expect(try fresh(connection).read(Person.self, key: person.id)?.metadata == nil)
        #expect(try fresh(connection).metadata(for: Person.self, key: person.id) == nil)
        #expect(try connection.read { try $0.metadata(forKey: person.id.itemKey, in: Person.collection) } == nil)
    }

    @Test func metadataIsReadWithoutDecodingTheItem() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        let person = Person(id: UUID(), name: "Cy", age: 2, metadata: Stats(visits: 4))
        try connection.write(person)
        try corruptDataColumn(path: database.path, collection: Person.collection, key: person.id.itemKey)
        let reader = try database.newConnection()
        // The item no longer decodes, yet its metadata does: only the metadata column is read.
        #expect(throws: TroveError.self) { try reader.read(Person.self, key: person.id) }
        #expect(try reader.metadata(for: Person.self, key: person.id) == Stats(visits: 4))
    }

    @Test func metadataIsReplacedAloneWithoutTouchingTheItem() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        let person = Person(id: UUID(), name: "Di", age: 3, metadata: Stats(visits: 1))
        try connection.write(person)
        let before = try connection.read { try $0.data(forKey: person.id.itemKey, in: Person.collection) }
        try connection.write { tx throws in
            #expect(try tx.setMetadata(Stats(visits: 2), for: Person.self, key: person.id))
            #expect(try !tx.setMetadata(Stats(visits: 2), for: Person.self, key: UUID()))
        }
        let after = try connection.read { try $0.data(forKey: person.id.itemKey, in: Person.collection) }
        #expect(before == after)
        #expect(try connection.read(Person.self, key: person.id)?.metadata == Stats(visits: 2))
        #expect(try fresh(connection).read(Person.self, key: person.id)?.metadata == Stats(visits: 2))
    }

    /// A new connection on the same database, so that reads come from SQLite, not a cache.
    private func fresh(_ connection: Connection) throws -> Connection {
        try connection.database.newConnection()
    }
}
