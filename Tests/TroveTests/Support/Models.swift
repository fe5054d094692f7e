import Foundation
@_spi(TroveGenerated) import Trove

// Models of the runtime tests, with coders written by hand the way trove-gen writes them. They
// cover the six patterns of YapDatabaseExtensions: an item that is a struct or a final class,
// with no metadata, struct metadata or class metadata.

/// Struct item, no metadata.
struct Note: Persistable, Equatable {
    typealias Coder = MessageCoder<Note>
    static let collection = "notes"
    var id: String
    var text: String
}

extension Note: BinaryMessage {
    static func encodeMessage(_ value: Note, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.text, field: FieldNumber.of("text"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> Note {
        var id: String?
        var text: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("text"): text = try reader.decode(String.self, from: header, field: "text")
            default: try reader.skip(header)
            }
        }
        return Note(id: try reader.required(id, field: "id"), text: try reader.required(text, field: "text"))
    }
}

/// Struct metadata.
struct Stats: Sendable, Equatable {
    var visits: Int
    var lastSeen: Date?
}

extension Stats: BinaryMessage {
    static func encodeMessage(_ value: Stats, to writer: inout BinaryWriter) throws {
        try writer.encode(value.visits, field: FieldNumber.of("visits"))
        try writer.encodeIfPresent(value.lastSeen, field: FieldNumber.of("lastSeen"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> Stats {
        var visits: Int?
        var lastSeen: Date?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("visits"): visits = try reader.decode(Int.self, from: header, field: "visits")
            case FieldNumber.of("lastSeen"): lastSeen = try reader.decode(Date.self, from: header, field: "lastSeen")
            default: try reader.skip(header)
            }
        }
        return Stats(visits: visits ?? 0, lastSeen: lastSeen)
    }
}

/// Class metadata: immutable, so Sendable.
final class Tag: Sendable, Equatable, Codable {
    let label: String
    init(label: String) { self.label = label }
    static func == (lhs: Tag, rhs: Tag) -> Bool { lhs.label == rhs.label }
}

/// Struct item with struct metadata.
struct Person: Persistable, Equatable {
    typealias Coder = MessageCoder<Person>
    typealias MetadataCoder = MessageCoder<Stats>
    static let collection = "people"
    var id: UUID
    var name: String
    var age: Int
    var metadata: Stats?
}

extension Person: BinaryMessage {
    static func encodeMessage(_ value: Person, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.name, field: FieldNumber.of("name"))
        try writer.encode(value.age, field: FieldNumber.of("age"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> Person {
        var id: UUID?
        var name: String?
        var age: Int?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(UUID.self, from: header, field: "id")
            case FieldNumber.of("name"): name = try reader.decode(String.self, from: header, field: "name")
            case FieldNumber.of("age"): age = try reader.decode(Int.self, from: header, field: "age")
            default: try reader.skip(header)
            }
        }
        return Person(
            id: try reader.required(id, field: "id"), name: try reader.required(name, field: "name"),
            age: try reader.required(age, field: "age"))
    }
}

/// Struct item with class metadata (coded through the Codable fallback).
struct Bookmark: Persistable, Equatable, Codable {
    typealias Coder = CodableCoder<Bookmark>
    typealias MetadataCoder = CodableCoder<Tag>
    static let collection = "bookmarks"
    var id: Int
    var url: URL
    var metadata: Tag?
    private enum CodingKeys: String, CodingKey { case id, url }
}

/// Final class item, no metadata.
final class Gadget: Persistable, Equatable, Codable {
    typealias Coder = CodableCoder<Gadget>
    static let collection = "gadgets"
    let id: UUID
    let label: String
    init(id: UUID, label: String) {
        self.id = id
        self.label = label
    }
    static func == (lhs: Gadget, rhs: Gadget) -> Bool { lhs.id == rhs.id && lhs.label == rhs.label }
}

/// Final class item with struct metadata. A class item's metadata is set after decoding, so it
/// is the one mutable property, guarded by a lock.
final class Device: Persistable, Equatable, @unchecked Sendable {
    // @unchecked because `storedMetadata` is only accessed under `lock`.
    typealias Coder = DeviceCoder
    typealias MetadataCoder = MessageCoder<Stats>
    static let collection = "devices"
    let id: String
    let model: String
    private let lock = NSLock()
    private var storedMetadata: Stats?
    var metadata: Stats? {
        get { lock.withLock { storedMetadata } }
        set { lock.withLock { storedMetadata = newValue } }
    }
    init(id: String, model: String, metadata: Stats? = nil) {
        self.id = id
        self.model = model
        self.storedMetadata = metadata
    }
    static func == (lhs: Device, rhs: Device) -> Bool {
        lhs.id == rhs.id && lhs.model == rhs.model && lhs.metadata == rhs.metadata
    }
}

/// A coder written as its own type, as YapDatabaseExtensions' `ValueCoding`.
enum DeviceCoder: ValueCoder {
    static func encode(_ value: Device, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.model, field: FieldNumber.of("model"))
    }

    static func decode(from reader: inout BinaryReader) throws -> Device {
        var id: String?
        var model: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("model"): model = try reader.decode(String.self, from: header, field: "model")
            default: try reader.skip(header)
            }
        }
        return Device(id: try reader.required(id, field: "id"), model: try reader.required(model, field: "model"))
    }
}

/// Final class item with class metadata.
final class Album: Persistable, Equatable, @unchecked Sendable {
    // @unchecked because `storedMetadata` is only accessed under `lock`.
    typealias Coder = AlbumCoder
    typealias MetadataCoder = CodableCoder<Tag>
    static let collection = "albums"
    let id: Int64
    let title: String
    private let lock = NSLock()
    private var storedMetadata: Tag?
    var metadata: Tag? {
        get { lock.withLock { storedMetadata } }
        set { lock.withLock { storedMetadata = newValue } }
    }
    init(id: Int64, title: String, metadata: Tag? = nil) {
        self.id = id
        self.title = title
        self.storedMetadata = metadata
    }
    static func == (lhs: Album, rhs: Album) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title && lhs.metadata == rhs.metadata
    }
}

enum AlbumCoder: ValueCoder {
    static func encode(_ value: Album, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.title, field: FieldNumber.of("title"))
    }

    static func decode(from reader: inout BinaryReader) throws -> Album {
        var id: Int64?
        var title: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(Int64.self, from: header, field: "id")
            case FieldNumber.of("title"): title = try reader.decode(String.self, from: header, field: "title")
            default: try reader.skip(header)
            }
        }
        return Album(id: try reader.required(id, field: "id"), title: try reader.required(title, field: "title"))
    }
}

/// An account for the snapshot and concurrency tests.
struct Account: Persistable, Equatable, Codable {
    typealias Coder = CodableCoder<Account>
    static let collection = "accounts"
    var id: Int
    var balance: Int
}
