extension String: BinaryCodable {
    /// `String` is stored as length-delimited UTF-8.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .lengthDelimited }

    /// Writes `value` as length-delimited UTF-8.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: String, to writer: inout BinaryWriter) {
        writer.writeString(value)
    }

    /// Reads length-delimited UTF-8.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The string.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the bytes are
    ///   truncated or not valid UTF-8.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> String {
        try reader.readString()
    }
}
