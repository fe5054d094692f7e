import Foundation

extension UUID: BinaryCodable {
    /// A `UUID` is stored as its 16 bytes, length-delimited.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .lengthDelimited }

    /// Writes the count 16, then the 16 bytes of `value`.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: UUID, to writer: inout BinaryWriter) {
        withUnsafeBytes(of: value.uuid) { writer.writeLengthDelimited($0) }
    }

    /// Reads 16 length-delimited bytes.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The UUID.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the bytes are
    ///   truncated or the count is not 16.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> UUID {
        let bytes = try reader.readLengthDelimited()
        guard bytes.count == 16 else { throw ReadFailure.invalid("\(bytes.count) bytes", of: UUID.self) }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
        return UUID(uuid: uuid)
    }
}
