extension BinaryMessage {
    /// A message is length-delimited when it is a field of another value.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .lengthDelimited }

    /// Writes the message's fields preceded by their byte count.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    /// - Throws: Whatever ``encodeMessage(_:to:)`` throws.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Self, to writer: inout BinaryWriter) throws {
        try writer.writeLengthPrefixed { writer in
            try encodeMessage(value, to: &writer)
        }
    }

    /// Reads a byte count, then decodes the message from exactly that many bytes.
    ///
    /// - Parameter reader: The reader positioned at the byte count.
    /// - Returns: The decoded value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the bytes are
    ///   malformed or nested too deep.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Self {
        try reader.readLengthPrefixed { reader in
            try decodeMessage(from: &reader)
        }
    }
}
