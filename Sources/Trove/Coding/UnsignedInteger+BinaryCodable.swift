// Unsigned integers are plain varints, so that a value written as one width reads back as any
// wider unsigned width, and a narrower width throws when the value does not fit.

extension BinaryCodable where Self: FixedWidthInteger & UnsignedInteger {
    /// Unsigned integers are stored as varints.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Self, to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(value))
    }

    /// Reads a varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `Self`.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Self {
        let raw = try reader.readVarint()
        guard let value = Self(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: Self.self) }
        return value
    }
}

extension UInt: BinaryCodable {}
extension UInt8: BinaryCodable {}
extension UInt16: BinaryCodable {}
extension UInt32: BinaryCodable {}
extension UInt64: BinaryCodable {}
