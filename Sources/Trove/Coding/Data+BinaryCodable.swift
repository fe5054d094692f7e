import Foundation

extension Data: BinaryCodable {
    /// `Data` is stored length-delimited.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .lengthDelimited }

    /// Writes the byte count, then the bytes.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Data, to writer: inout BinaryWriter) {
        value.withUnsafeBytes { writer.writeLengthDelimited($0) }
    }

    /// Reads a byte count, then copies that many bytes.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: A copy of the bytes.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the bytes are
    ///   truncated.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Data {
        Data(try reader.readLengthDelimited())
    }
}
