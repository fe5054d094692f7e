extension Optional: BinaryCodable where Wrapped: BinaryCodable {
    /// An optional is stored length-delimited: the byte `0` for `nil`, or the byte `1` followed
    /// by the value form of the wrapped value.
    ///
    /// This form is used only where `nil` must be stored, inside collections (`[Int?]`,
    /// `[String: Date?]`). An optional property is a field that is written only when it is not
    /// `nil` (``BinaryWriter/encodeIfPresent(_:field:)-(_,UInt32)``), so that it can later
    /// become non-optional with a default value.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .lengthDelimited }

    /// Writes the marker byte and, if `value` is not `nil`, the wrapped value, all
    /// length-delimited.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    /// - Throws: Whatever the wrapped value's encoding throws.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Wrapped?, to writer: inout BinaryWriter) throws {
        try writer.writeLengthPrefixed { writer in
            if let value {
                writer.writeByte(1)
                try Wrapped.encodeValue(value, to: &writer)
            } else {
                writer.writeByte(0)
            }
        }
    }

    /// Reads a marker byte and, if it is `1`, the wrapped value.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The value, or `nil`.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the marker is
    ///   neither 0 nor 1, or the wrapped value is malformed.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Wrapped? {
        try reader.readLengthPrefixed { reader in
            switch try reader.readVarint() {
            case 0: return nil
            case 1: return try Wrapped.decodeValue(from: &reader)
            case let marker: throw ReadFailure.invalid("marker \(marker)", of: Wrapped?.self)
            }
        }
    }
}
