import Foundation
import Testing
@_spi(TroveGenerated) import Trove
import TroveTestSupport

/// A model that describes itself, as trove-gen writes it, and that nobody registers: its first
/// write records its schema in the file.
private struct Memo: Persistable, Codable, Equatable, SchemaDescribing {
    typealias Coder = CodableCoder<Memo>
    static let collection = "memos"
    var id: String
    var text: String

    static var troveSchema: ModelSchema {
        ModelSchema(
            typeName: "Memo", collection: collection,
            fields: [.init(number: 1, name: "id", type: "String"), .init(number: 2, name: "text", type: "String")])
    }
    static var troveSchemaReferences: [Any.Type] { [MemoTag.self] }
}

/// A coded type that `Memo` refers to: recorded in `Memo`'s schema.
private struct MemoTag: SchemaDescribing {
    static var troveSchema: ModelSchema {
        ModelSchema(typeName: "MemoTag", fields: [.init(number: 1, name: "label", type: "String")])
    }
    static var troveSchemaReferences: [Any.Type] { [] }
}

/// The next version of `Memo`, as an app upgraded to it would have it: same type name and
/// collection, one more field.
private struct MemoV2: Persistable, Codable, Equatable, SchemaDescribing {
    typealias Coder = CodableCoder<MemoV2>
    static let collection = "memos"
    var id: String
    var text: String
    var isPinned: Bool

    static var troveSchema: ModelSchema {
        ModelSchema(
            typeName: "Memo", collection: collection,
            fields: [
                .init(number: 1, name: "id", type: "String"), .init(number: 2, name: "text", type: "String"),
                .init(number: 3, name: "isPinned", type: "Bool"),
            ])
    }
    static var troveSchemaReferences: [Any.Type] { [] }
}

/// A model whose fields are typed by typealiases, as trove-gen describes it (internal: Swift names
/// a private type with its file's context, which a schema does not record).
struct SchemaTrip: SchemaDescribing {
    typealias Stops = [SchemaStop]
    typealias Code = String
    static var troveSchema: ModelSchema {
        ModelSchema(
            typeName: "SchemaTrip", collection: "trips",
            fields: [
                .init(number: 1, name: "code", type: "SchemaTrip.Code", swiftType: Code.self),
                .init(number: 2, name: "stops", type: "SchemaTrip.Stops", swiftType: Stops.self),
                .init(
                    number: 3, name: "byCode", type: "[SchemaTrip.Code: SchemaStop]",
                    swiftType: [Code: SchemaStop].self),
                .init(number: 4, name: "extra", type: "SchemaExtra", swiftType: SchemaExtra.self, isOptional: true),
                .init(number: 5, name: "kind", type: "SchemaKind", swiftType: SchemaKind.self),
            ])
    }
    static var troveSchemaReferences: [Any.Type] { [Stops.self, SchemaExtra.self, SchemaKind.self] }
}

/// A coded type reached only through the typealias `SchemaTrip.Stops`.
struct SchemaStop: SchemaDescribing, BinaryMessage {
    static var troveSchema: ModelSchema {
        ModelSchema(
            typeName: "SchemaStop", fields: [.init(number: 1, name: "name", type: "String", swiftType: String.self)])
    }
    static var troveSchemaReferences: [Any.Type] { [] }
    static func encodeMessage(_ value: SchemaStop, to writer: inout BinaryWriter) throws {}
    static func decodeMessage(from reader: inout BinaryReader) throws -> SchemaStop { SchemaStop() }
}

/// A `Codable` type without binary coding: stored as JSON.
struct SchemaExtra: Codable {}

/// A raw-value enumeration whose raw type is written as a typealias.
enum SchemaKind: SchemaTrip.Code, BinaryCodable, SchemaDescribing {
    case bus
    static var troveSchema: ModelSchema { ModelSchema(typeName: "SchemaKind", rawValueType: "SchemaTrip.Code") }
    static var troveSchemaReferences: [Any.Type] { [] }
}

/// A model that does not describe itself: its writes record nothing.
private struct Plain: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<Plain>
    static let collection = "plain"
    var id: String
}

private struct Abort: Error {}

/// The schema of a model is recorded in the file by the first write of the model, without any
/// registration, inside that write's transaction; once per open and per schema version.
struct SchemaRecordingTests {
    static func schemaRowCount(_ database: Database) throws -> Int {
        try database.recordedSchemas().count
    }

    @Test func theFirstWriteOfAnUnregisteredModelRecordsItsSchema() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Database(path: folder + "/file.trove")
        #expect(try database.recordedSchemas().isEmpty)
        try database.newConnection().write { tx in
            try tx.write(Plain(id: "p"))
            try tx.write(Memo(id: "a", text: "first"))
            try tx.write(Memo(id: "b", text: "second"))
        }
        let schemas = try database.recordedSchemas()
        #expect(schemas.map(\.typeName) == ["Memo"])
        #expect(schemas.first?.collection == "memos")
        #expect(schemas.first?.fields.map(\.name) == ["id", "text"])
        #expect(schemas.first?.types.map(\.typeName) == ["MemoTag"])
        // Another process (or a later open) reads it from the file.
        var configuration = Configuration()
        configuration.isReadOnly = true
        let reader = try Database(path: folder + "/file.trove", configuration: configuration)
        #expect(try reader.recordedSchemas() == schemas)
    }

    @Test func laterWritesOfTheSameOpenRunNoSQLForTheSchema() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/file.trove"
        let database = try Database(path: path)
        try database.newConnection().write { tx in try tx.write(Memo(id: "a", text: "first")) }
        #expect(try Self.schemaRowCount(database) == 1)
        // Behind Trove's back: the schema goes. Writes of this open, on any connection, do not
        // look at the file again, so it stays gone...
        try executeRawSQL(path: path, "DELETE FROM trove_registry WHERE extension = 'schema'")
        try database.newConnection().write { tx in try tx.write(Memo(id: "b", text: "second")) }
        try database.write(Memo(id: "c", text: "third"))
        try database.newConnection().write { tx in
            _ = try tx.setMetadata(nil, for: Memo.self, key: "a")
        }
        #expect(try Self.schemaRowCount(database) == 0)
        // ... and the first write of the next open records it again.
        let reopened = try Database(path: path)
        try reopened.newConnection().write { tx in try tx.write(Memo(id: "d", text: "fourth")) }
        #expect(try Self.schemaRowCount(reopened) == 1)
    }

    @Test func aNewSchemaVersionIsAddedBesideTheOldOne() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/file.trove"
        try Database(path: path).newConnection().write { tx in try tx.write(Memo(id: "a", text: "old")) }
        // The app, upgraded, opens the file again and writes with the new version of the model.
        let upgraded = try Database(path: path)
        try upgraded.newConnection().write { tx in try tx.write(MemoV2(id: "b", text: "new", isPinned: true)) }
        let schemas = try upgraded.recordedSchemas()
        #expect(schemas.map(\.typeName) == ["Memo", "Memo"])
        #expect(Set(schemas.map { $0.fields.map(\.name) }) == [["id", "text"], ["id", "text", "isPinned"]])
        // Writing the old version again (an older app on the same file) adds nothing.
        try Database(path: path).newConnection().write { tx in try tx.write(Memo(id: "c", text: "old again")) }
        #expect(try Self.schemaRowCount(upgraded) == 2)
    }

    /// The versions come in the order last recorded: an app that goes back to an older version
    /// of a model makes it the newest again, and registering what is the newest already writes
    /// nothing.
    @Test func theVersionLastRecordedComesLast() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/file.trove"
        func newest() throws -> [String] {
            try Database(path: path).recordedSchemas().last?.fields.map(\.name) ?? []
        }
        try Database(path: path).newConnection().write { tx in try tx.write(Memo(id: "a", text: "old")) }
        try Database(path: path).newConnection().write { tx in
            try tx.write(MemoV2(id: "b", text: "new", isPinned: true))
        }
        #expect(try newest() == ["id", "text", "isPinned"])
        try Database(path: path).newConnection().write { tx in try tx.write(Memo(id: "c", text: "old again")) }
        #expect(try newest() == ["id", "text"])
        #expect(try Self.schemaRowCount(Database(path: path)) == 2)
        try Database(path: path).recordSchemas(of: [MemoV2.self])
        #expect(try newest() == ["id", "text", "isPinned"])
        // Registering the newest again writes nothing: the file and its log keep their bytes.
        let database = try Database(path: path)
        func bytes() -> [Data?] {
            [path, path + "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: $0)) }
        }
        let before = bytes()
        try database.recordSchemas(of: [MemoV2.self])
        #expect(bytes() == before)
    }

    /// A field typed by a typealias records the type it stands for, a `Codable` field that Trove
    /// stores as JSON says so, a coded type reached through a typealias has its schema recorded,
    /// and the raw type of an enumeration is resolved too.
    @Test func typealiasesAreRecordedResolved() throws {
        let database = try Database.temporary()
        try database.recordSchemas(of: [SchemaTrip.self])
        let schema = try #require(try database.recordedSchemas().first)
        #expect(schema.fields.map(\.resolvedType) == ["String", "[SchemaStop]", "[String: SchemaStop]", nil, nil])
        #expect(schema.fields.map(\.format) == [nil, nil, nil, "json", nil])
        #expect(schema.types.map(\.typeName) == ["SchemaKind", "SchemaStop"])
        #expect(schema.types.first?.rawValueType == "String")
        #expect(schema.format == nil)
    }

    /// The schema of a model coded by `CodableCoder` says its items are JSON, and so is its
    /// metadata when that is coded by `CodableCoder`.
    @Test func theFormatOfJSONItemsIsRecorded() throws {
        let database = try Database.temporary()
        try database.newConnection().write { tx in try tx.write(Memo(id: "a", text: "json")) }
        let schema = try #require(try database.recordedSchemas().first)
        #expect(schema.format == "json")
        #expect(schema.metadataFormat == nil)
    }

    @Test func aRolledBackFirstWriteLeavesNoSchemaAndTheNextWriteRecordsIt() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Database(path: folder + "/file.trove")
        let connection = try database.newConnection()
        #expect(throws: Abort.self) {
            try connection.write { tx in
                try tx.write(Memo(id: "a", text: "never"))
                throw Abort()
            }
        }
        #expect(try Self.schemaRowCount(database) == 0)
        #expect(try connection.read { try $0.count(in: Memo.collection) } == 0)
        // The same connection, and then the pool, write again: the schema is recorded this time.
        try connection.write { tx in try tx.write(Memo(id: "b", text: "kept")) }
        #expect(try database.recordedSchemas().map(\.typeName) == ["Memo"])
        // The same with the pool's writer and a type first written there.
        #expect(throws: Abort.self) {
            try database.write { tx in
                try tx.write(MemoV2(id: "c", text: "never", isPinned: false))
                throw Abort()
            }
        }
        #expect(try Self.schemaRowCount(database) == 1)
        try database.write { tx in try tx.write(MemoV2(id: "c", text: "kept", isPinned: false)) }
        #expect(try Self.schemaRowCount(database) == 2)
    }
}
