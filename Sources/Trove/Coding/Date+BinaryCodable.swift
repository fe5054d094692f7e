import Foundation

extension Date: BinaryCodable {
    /// A `Date` is stored as the 8 little-endian bytes of the bit pattern of its
    /// `timeIntervalSinceReferenceDate`, so that it round-trips exactly.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .fixed64 }

    /// Writes the bit pattern of `value.timeIntervalSinceReferenceDate`.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Date, to writer: inout BinaryWriter) {
        writer.writeFixed64(value.timeIntervalSinceReferenceDate.bitPattern)
    }

    /// Reads the bit pattern of a time interval since the reference date.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The date.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when fewer than 8 bytes
    ///   remain.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Date {
        Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.readFixed64()))
    }
}
