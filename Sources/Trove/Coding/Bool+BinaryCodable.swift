extension Bool: BinaryCodable {
    /// `Bool` is stored as a varint, 0 or 1.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .varint }

    /// Writes `value` as the varint 0 or 1.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Bool, to writer: inout BinaryWriter) {
        writer.writeVarint(value ? 1 : 0)
    }

    /// Reads the varint 0 or 1.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed or neither 0 nor 1.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Bool {
        switch try reader.readVarint() {
        case 0: return false
        case 1: return true
        case let raw: throw ReadFailure.outOfRange(raw, of: Bool.self)
        }
    }
}
