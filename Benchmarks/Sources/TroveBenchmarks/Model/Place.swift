import Foundation
@_spi(TroveGenerated) import Trove

/// A place of the spatial benchmark (issue 32): a point and a name. Its coder is written by hand
/// the way trove-gen writes one (the benchmark's other models are generated).
struct Place: Sendable, Equatable {
    var id: String
    var x: Double
    var y: Double
    var name: String
}

extension Place: Persistable, BinaryMessage {
    /// The collection that holds every `Place`.
    static var collection: String { "places" }

    /// Items are stored with their binary coder.
    typealias Coder = MessageCoder<Place>

    static func encodeMessage(_ value: Place, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.x, field: FieldNumber.of("x"))
        try writer.encode(value.y, field: FieldNumber.of("y"))
        try writer.encode(value.name, field: FieldNumber.of("name"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> Place {
        var id: String?
        var x: Double?
        var y: Double?
        var name: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("x"): x = try reader.decode(Double.self, from: header, field: "x")
            case FieldNumber.of("y"): y = try reader.decode(Double.self, from: header, field: "y")
            case FieldNumber.of("name"): name = try reader.decode(String.self, from: header, field: "name")
            default: try reader.skip(header)
            }
        }
        return Place(
            id: try reader.required(id, field: "id"), x: try reader.required(x, field: "x"),
            y: try reader.required(y, field: "y"), name: try reader.required(name, field: "name"))
    }
}
