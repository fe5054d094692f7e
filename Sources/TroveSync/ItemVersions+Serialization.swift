import Foundation
@_spi(TroveGenerated) import Trove

/// The bytes of an item's versions, as a replica stores them beside the item and as replicas
/// send them to each other: Trove's own tagged format, so that a newer version of the format
/// can add fields an older reader skips.
///
/// - versions: field 1, the removal (a timestamp, absent when none); field 2, one per item field,
///   in the order of the fields' numbers.
/// - an item field: field 1, its number; field 2, its bytes (absent when the field is absent);
///   field 3, its timestamp.
/// - a timestamp: field 1, the wall time in milliseconds; field 2, the counter; field 3, the
///   replica.
extension ItemVersions {
    /// The versions as bytes; the same versions give the same bytes.
    ///
    /// - Returns: The bytes, which ``init(serialized:)`` reads back.
    /// - Throws: ``/Trove/TroveError`` when the writer refuses a value (it refuses none of these: the
    ///   errors of Trove's writer are those of values a model chose, such as a non-finite number
    ///   where a finite one is required).
    public func serialized() throws -> [UInt8] {
        var writer = BinaryWriter()
        if let removal {
            try writer.encodeMessage(field: 1) { try removal.write(to: &$0) }
        }
        for (number, field) in fields.sorted(by: { $0.key < $1.key }) {
            try writer.encodeMessage(field: 2) { nested in
                try nested.encode(number, field: 1)
                if let bytes = field.bytes { try nested.encode(Data(bytes), field: 2) }
                try nested.encodeMessage(field: 3) { try field.stamp.write(to: &$0) }
            }
        }
        return writer.bytes
    }

    /// Versions read from the bytes that ``serialized()`` wrote.
    ///
    /// - Parameter bytes: The bytes.
    /// - Throws: ``/Trove/TroveError`` with code ``/Trove/TroveError/Code/corruptData`` naming what is wrong when
    ///   the bytes are not versions: truncated, a part missing, or a field's bytes that are not
    ///   one field of its number.
    public init(serialized bytes: [UInt8]) throws {
        var fields: [UInt32: Field] = [:]
        var removal: HybridTimestamp?
        try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            while let header = try reader.nextField() {
                switch header.number {
                case 1:
                    removal = try reader.decodeMessage(from: header, field: "removal") { try HybridTimestamp(reading: &$0) }
                case 2:
                    let (number, field) = try reader.decodeMessage(from: header, field: "fields") {
                        try Self.readField(from: &$0)
                    }
                    fields[number] = field
                default:
                    try reader.skip(header)
                }
            }
        }
        self.init(fields: fields, removal: removal)
    }

    /// Reads one item field: its number, its bytes (checked to be one field of that number) and
    /// its timestamp.
    private static func readField(from reader: inout BinaryReader) throws -> (UInt32, Field) {
        var number: UInt32?
        var bytes: [UInt8]?
        var stamp: HybridTimestamp?
        while let header = try reader.nextField() {
            switch header.number {
            case 1: number = try reader.decode(UInt32.self, from: header, field: "number")
            case 2: bytes = Array(try reader.decode(Data.self, from: header, field: "bytes"))
            case 3: stamp = try reader.decodeMessage(from: header, field: "stamp") { try HybridTimestamp(reading: &$0) }
            default: try reader.skip(header)
            }
        }
        let field = try reader.required(number, field: "number")
        if let bytes {
            var numbers: [UInt32] = []
            let wellFormed = bytes.withUnsafeBytes { TopLevelFields.forEach(in: $0) { found, _ in numbers.append(found) } }
            guard wellFormed, numbers == [field] else {
                throw TroveError(
                    code: .corruptData,
                    message: "The synced versions of an item hold bytes for its field \(field) that are not one field of that number.",
                    field: "fields")
            }
        }
        return (field, Field(bytes: bytes, stamp: try reader.required(stamp, field: "stamp")))
    }
}

extension HybridTimestamp {
    /// Writes the timestamp's three parts.
    fileprivate func write(to writer: inout BinaryWriter) throws {
        try writer.encode(wallMilliseconds, field: 1)
        try writer.encode(counter, field: 2)
        try writer.encode(replica.rawValue, field: 3)
    }

    /// Reads a timestamp's three parts.
    fileprivate init(reading reader: inout BinaryReader) throws {
        var wall: UInt64?
        var counter: UInt32?
        var replica: UInt64?
        while let header = try reader.nextField() {
            switch header.number {
            case 1: wall = try reader.decode(UInt64.self, from: header, field: "wall")
            case 2: counter = try reader.decode(UInt32.self, from: header, field: "counter")
            case 3: replica = try reader.decode(UInt64.self, from: header, field: "replica")
            default: try reader.skip(header)
            }
        }
        self.init(
            wallMilliseconds: try reader.required(wall, field: "wall"), counter: try reader.required(counter, field: "counter"),
            replica: ReplicaID(rawValue: try reader.required(replica, field: "replica")))
    }
}
