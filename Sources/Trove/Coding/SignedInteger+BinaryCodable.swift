// Signed integers are zigzag-encoded varints and unsigned integers plain varints, so that a
// value written as one width reads back as any wider width of the same signedness (a field can
// grow from `Int32` to `Int`), and a narrower width throws when the value does not fit.

extension BinaryCodable where Self: FixedWidthInteger & SignedInteger {
    /// Signed integers are stored as zigzag varints.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as a zigzag varint.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Self, to writer: inout BinaryWriter) {
        writer.writeZigZag(Int64(value))
    }

    /// Reads a zigzag varint.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or out of the range of `Self`.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Self {
        let raw = try reader.readZigZag()
        guard let value = Self(exactly: raw) else { throw ReadFailure.outOfRange(raw, of: Self.self) }
        return value
    }
}

extension Int: BinaryCodable {}
extension Int8: BinaryCodable {}
extension Int16: BinaryCodable {}
extension Int32: BinaryCodable {}
extension Int64: BinaryCodable {}
