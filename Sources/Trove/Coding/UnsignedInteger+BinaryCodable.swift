// Signed integers are zigzag-encoded varints and unsigned integers plain varints, so that a
// value written as one width reads back as any wider width of the same signedness (a field can
// grow from `Int32` to `Int`), and a narrower width throws when the value does not fit.

extension UInt: BinaryCodable {
    /// `UInt` is stored as a varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: UInt, to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(value))
    }

    /// Reads a varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `UInt`.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> UInt {
        let raw = try reader.readVarint()
        guard let value = UInt(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: UInt.self) }
        return value
    }
}

extension UInt8: BinaryCodable {
    /// `UInt8` is stored as a varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: UInt8, to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(value))
    }

    /// Reads a varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `UInt8`.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> UInt8 {
        let raw = try reader.readVarint()
        guard let value = UInt8(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: UInt8.self) }
        return value
    }
}

extension UInt16: BinaryCodable {
    /// `UInt16` is stored as a varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: UInt16, to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(value))
    }

    /// Reads a varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `UInt16`.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> UInt16 {
        let raw = try reader.readVarint()
        guard let value = UInt16(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: UInt16.self) }
        return value
    }
}

extension UInt32: BinaryCodable {
    /// `UInt32` is stored as a varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: UInt32, to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(value))
    }

    /// Reads a varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `UInt32`.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> UInt32 {
        let raw = try reader.readVarint()
        guard let value = UInt32(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: UInt32.self) }
        return value
    }
}

extension UInt64: BinaryCodable {
    /// `UInt64` is stored as a varint.
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @inlinable
    public static func encodeValue(_ value: UInt64, to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(value))
    }

    /// Reads a varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> UInt64 {
        try reader.readVarint()
    }
}
