@_spi(TroveGenerated) import Trove

/// The first version of an entry, hand-written the way trove-gen writes it: what the tests of
/// fields unknown to a version (a later version's) read and write with.
public struct EntryV1: Persistable, BinaryMessage, Equatable {
    /// The coder, as trove-gen writes it.
    public typealias Coder = MessageCoder<EntryV1>
    /// The collection of entries.
    public static let collection = "entries"
    /// The key.
    public var id: String
    /// The title.
    public var title: String

    /// An entry from its fields.
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    /// Writes the entry's fields.
    public static func encodeMessage(_ value: EntryV1, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.title, field: FieldNumber.of("title"))
    }

    /// Reads an entry's fields, skipping those it does not know.
    public static func decodeMessage(from reader: inout BinaryReader) throws -> EntryV1 {
        var id: String?
        var title: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("title"): title = try reader.decode(String.self, from: header, field: "title")
            default: try reader.skip(header)
            }
        }
        return EntryV1(id: try reader.required(id, field: "id"), title: try reader.required(title, field: "title"))
    }
}
