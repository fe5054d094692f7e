// Floating-point values are stored as their bit patterns, so that every value round-trips
// exactly: signed zeros, infinities, and NaN payloads included.

extension Float: BinaryCodable {
    /// `Float` is stored as the 4 little-endian bytes of its bit pattern.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .fixed32 }

    /// Writes the bit pattern of `value`.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Float, to writer: inout BinaryWriter) {
        writer.writeFixed32(value.bitPattern)
    }

    /// Reads a bit pattern.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value with that bit pattern.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when fewer than 4 bytes
    ///   remain.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Float {
        Float(bitPattern: try reader.readFixed32())
    }
}

extension Double: BinaryCodable {
    /// `Double` is stored as the 8 little-endian bytes of its bit pattern.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .fixed64 }

    /// Writes the bit pattern of `value`.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Double, to writer: inout BinaryWriter) {
        writer.writeFixed64(value.bitPattern)
    }

    /// Reads a bit pattern.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value with that bit pattern.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when fewer than 8 bytes
    ///   remain.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Double {
        Double(bitPattern: try reader.readFixed64())
    }
}
