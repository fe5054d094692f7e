import Foundation
import Testing
@_spi(TroveGenerated) import Trove
import TroveTestSupport

// Two versions of one item, hand-written the way trove-gen writes them: `EntryV1` (in
// TroveTestSupport, which the sync tests use too), and V2, which adds `extra` and a nested `Box`
// whose V2 adds `size`.

private struct EntryV2: Persistable, BinaryMessage, Equatable {
    typealias Coder = MessageCoder<EntryV2>
    static let collection = "entries"
    var id: String
    var title: String
    var extra: Int

    static func encodeMessage(_ value: EntryV2, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.title, field: FieldNumber.of("title"))
        if value.extra != 0 {
            try writer.encode(value.extra, field: FieldNumber.of("extra"))
        }
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> EntryV2 {
        var id: String?
        var title: String?
        var extra: Int?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("title"): title = try reader.decode(String.self, from: header, field: "title")
            case FieldNumber.of("extra"): extra = try reader.decode(Int.self, from: header, field: "extra")
            default: try reader.skip(header)
            }
        }
        return EntryV2(
            id: try reader.required(id, field: "id"), title: try reader.required(title, field: "title"),
            extra: extra ?? 0)
    }
}

/// A collection of entries, in V1 and V2: nested messages in an array.
private struct ShelfV1: Persistable, BinaryMessage, Equatable {
    typealias Coder = MessageCoder<ShelfV1>
    static let collection = "shelves"
    var id: String
    var entries: [EntryV1]

    static func encodeMessage(_ value: ShelfV1, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.entries, field: FieldNumber.of("entries"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> ShelfV1 {
        var id: String?
        var entries: [EntryV1]?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("entries"): entries = try reader.decode([EntryV1].self, from: header, field: "entries")
            default: try reader.skip(header)
            }
        }
        return ShelfV1(id: try reader.required(id, field: "id"), entries: entries ?? [])
    }
}

private struct ShelfV2: Persistable, BinaryMessage, Equatable {
    typealias Coder = MessageCoder<ShelfV2>
    static let collection = "shelves"
    var id: String
    var entries: [EntryV2]

    static func encodeMessage(_ value: ShelfV2, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.entries, field: FieldNumber.of("entries"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> ShelfV2 {
        var id: String?
        var entries: [EntryV2]?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("entries"): entries = try reader.decode([EntryV2].self, from: header, field: "entries")
            default: try reader.skip(header)
            }
        }
        return ShelfV2(id: try reader.required(id, field: "id"), entries: entries ?? [])
    }
}

struct UnknownFieldTests {
    /// The numbers of the fields of a message, in stored order.
    private static func fields(of bytes: Data) throws -> [UInt32] {
        try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            var numbers: [UInt32] = []
            while let header = try reader.nextField() {
                numbers.append(header.number)
                try reader.skip(header)
            }
            return numbers
        }
    }

    @Test func readerNotesSkippedFieldsByDepth() throws {
        var writer = BinaryWriter()
        try writer.encode("e", field: FieldNumber.of("id"))
        try writer.encode("t", field: FieldNumber.of("title"))
        try writer.encode(7, field: FieldNumber.of("extra"))
        try writer.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes)
            _ = try EntryV2.decodeMessage(from: &reader)
            #expect(!reader.hasSkippedTopLevelFields && !reader.hasSkippedNestedFields)
            reader = BinaryReader(bytes)
            _ = try EntryV1.decodeMessage(from: &reader)
            #expect(reader.hasSkippedTopLevelFields && !reader.hasSkippedNestedFields)
        }

        // The same message nested in a field: its unknown field is a nested one.
        var outer = BinaryWriter()
        try outer.encodeMessage(field: FieldNumber.of("entry")) {
            try EntryV2.encodeMessage(EntryV2(id: "e", title: "t", extra: 7), to: &$0)
        }
        try outer.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes)
            let header = try #require(try reader.nextField())
            _ = try reader.decode(EntryV1.self, from: header, field: "entry")
            #expect(!reader.hasSkippedTopLevelFields && reader.hasSkippedNestedFields)
        }
    }

    @Test func olderCoderKeepsFieldsItDoesNotKnow() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write(EntryV2(id: "e", title: "New", extra: 42))

        var old = try #require(try connection.read(EntryV1.self, key: "e"))
        old.title = "Changed by V1"
        try connection.write(old)

        #expect(try connection.read(EntryV2.self, key: "e") == EntryV2(id: "e", title: "Changed by V1", extra: 42))
        #expect(try connection.read(EntryV1.self, key: "e") == old)
        // The kept field comes first, the new encoding after it: when a field occurs twice, the
        // decoder keeps the last one, which is what was just written.
        let stored = try #require(try connection.read { tx in try tx.data(forKey: "e", in: "entries") })
        #expect(try Self.fields(of: stored) == [FieldNumber.of("extra"), FieldNumber.of("id"), FieldNumber.of("title")])

        // Keeping is not duplicating: a second rewrite stores the same bytes.
        try connection.write(old)
        #expect(try connection.read { tx in try tx.data(forKey: "e", in: "entries") } == stored)
    }

    @Test func aBlindWriteBeforeAnyUnknownFieldWasSeenReplacesTheItem() throws {
        // The rule: a typed write keeps unknown fields once this `Database` has read a value with
        // unknown fields in the collection. A write by an instance that never did is a full
        // replacement, and costs nothing more than before.
        let first = try makeTemporaryDatabase()
        try first.newConnection().write(EntryV2(id: "e", title: "New", extra: 42))
        let second = try Database(path: first.path)
        try second.newConnection().write(EntryV1(id: "e", title: "Blind"))
        #expect(try first.newConnection().read(EntryV2.self, key: "e") == EntryV2(id: "e", title: "Blind", extra: 0))
    }

    @Test func unknownFieldsNestedInAnyElementRefuseTheWrite() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        // Only the second entry has a field V1 does not know.
        let shelf = ShelfV2(
            id: "s", entries: [EntryV2(id: "a", title: "A", extra: 0), EntryV2(id: "b", title: "B", extra: 5)])
        try connection.write(shelf)
        var old = try #require(try connection.read(ShelfV1.self, key: "s"))
        old.entries[0].title = "Changed"
        let error = try #require(throws: TroveError.self) { try connection.write(old) }
        #expect(error.code == .nestedUnknownFields)
        #expect(error.collection == "shelves" && error.key == "s")
        #expect(error.field == "entries[1]")
        #expect(try connection.read(ShelfV2.self, key: "s") == shelf)

        // Without unknown nested fields, the same write goes through.
        try connection.write(ShelfV2(id: "t", entries: [EntryV2(id: "a", title: "A", extra: 0)]))
        _ = try connection.read(ShelfV1.self, key: "t")
        try connection.write(ShelfV1(id: "t", entries: [EntryV1(id: "a", title: "Changed")]))
        #expect(try connection.read(ShelfV2.self, key: "t")?.entries.first?.title == "Changed")
    }
}
