import Foundation
import Testing
@_spi(TroveGenerated) import Trove
import TroveTestSupport

struct StoredItemCorruptionTests {
    @Test func corruptItemBytesThrowAnErrorNamingCollectionAndKey() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write(Note(id: "broken", text: "fine"))
        try corruptDataColumn(path: database.path, collection: Note.collection, key: "broken")
        let reader = try database.newConnection()
        #expect {
            try reader.read(Note.self, key: "broken")
        } throws: { error in
            guard let error = error as? TroveError else { return false }
            return error.code == .corruptData && error.collection == "notes" && error.key == "broken"
        }
        // readAll names the key of the broken row too.
        #expect {
            try reader.readAll(Note.self)
        } throws: { ($0 as? TroveError)?.key == "broken" }
    }

    @Test func truncatedItemBytesNameTheMissingField() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        var writer = BinaryWriter()
        try writer.encode("only-id", field: FieldNumber.of("id"))
        try connection.write { tx in try tx.setData(Data(writer.bytes), forKey: "only-id", in: Note.collection) }
        #expect {
            try connection.read(Note.self, key: "only-id")
        } throws: { error in
            guard let error = error as? TroveError else { return false }
            return error.code == .corruptData && error.field == "text" && error.key == "only-id"
        }
    }

    @Test func corruptMetadataNamesTheMetadataField() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        let person = Person(id: UUID(), name: "E", age: 1, metadata: Stats(visits: 1))
        try connection.write(person)
        try executeRawSQL(path: database.path, "UPDATE trove_items SET metadata = x'0102' WHERE collection = 'people'")
        #expect {
            try database.newConnection().read(Person.self, key: person.id)
        } throws: { error in
            guard let error = error as? TroveError else { return false }
            return error.code == .corruptData && error.key == person.id.itemKey && error.field?.hasPrefix("metadata") == true
        }
    }

    @Test func everyTruncationOfARealItemThrowsAndNeverTraps() throws {
        let database = try makeTemporaryDatabase { $0.itemCacheLimit = 0 }
        let connection = try database.newConnection()
        let person = Person(id: UUID(), name: "Truncated", age: 99)
        try connection.write(person)
        let bytes = try #require(try connection.read { try $0.data(forKey: person.id.itemKey, in: Person.collection) })
        for length in 0..<bytes.count {
            try connection.write { tx throws in
                try tx.setData(bytes.prefix(length), forKey: person.id.itemKey, in: Person.collection)
            }
            #expect(throws: TroveError.self) { try connection.read(Person.self, key: person.id) }
        }
    }
}
