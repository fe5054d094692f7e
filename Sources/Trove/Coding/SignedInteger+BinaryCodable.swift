// Signed integers are zigzag-encoded varints and unsigned integers plain varints, so that a
// value written as one width reads back as any wider width of the same signedness (a field can
// grow from `Int32` to `Int`), and a narrower width throws when the value does not fit.

extension Int: BinaryCodable {
    /// `Int` is stored as a zigzag varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a zigzag varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: Int, to writer: inout BinaryWriter) {
        writer.writeZigZag(Int64(value))
    }

    /// Reads a zigzag varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `Int`.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Int {
        let raw = try reader.readZigZag()
        guard let value = Int(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: Int.self) }
        return value
    }
}

extension Int8: BinaryCodable {
    /// `Int8` is stored as a zigzag varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a zigzag varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: Int8, to writer: inout BinaryWriter) {
        writer.writeZigZag(Int64(value))
    }

    /// Reads a zigzag varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `Int8`.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Int8 {
        let raw = try reader.readZigZag()
        guard let value = Int8(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: Int8.self) }
        return value
    }
}

extension Int16: BinaryCodable {
    /// `Int16` is stored as a zigzag varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a zigzag varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: Int16, to writer: inout BinaryWriter) {
        writer.writeZigZag(Int64(value))
    }

    /// Reads a zigzag varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `Int16`.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Int16 {
        let raw = try reader.readZigZag()
        guard let value = Int16(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: Int16.self) }
        return value
    }
}

extension Int32: BinaryCodable {
    /// `Int32` is stored as a zigzag varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a zigzag varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: Int32, to writer: inout BinaryWriter) {
        writer.writeZigZag(Int64(value))
    }

    /// Reads a zigzag varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `Int32`.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Int32 {
        let raw = try reader.readZigZag()
        guard let value = Int32(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: Int32.self) }
        return value
    }
}

extension Int64: BinaryCodable {
    /// `Int64` is stored as a zigzag varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a zigzag varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: Int64, to writer: inout BinaryWriter) {
        writer.writeZigZag(Int64(value))
    }

    /// Reads a zigzag varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Int64 {
        try reader.readZigZag()
    }
}
