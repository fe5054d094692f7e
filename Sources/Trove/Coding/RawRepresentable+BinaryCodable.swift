extension BinaryCodable where Self: RawRepresentable, Self.RawValue: BinaryCodable {
    /// A raw-value type is stored as its raw value.
    @inlinable
    public static var wireType: WireType { RawValue.wireType }

    /// Writes the raw value of `value`.
    ///
    /// ```swift
    /// enum Color: String, BinaryCodable { case red, green }
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    /// - Throws: Whatever the raw value's encoding throws.
    @inlinable
    public static func encodeValue(_ value: Self, to writer: inout BinaryWriter) throws {
        try RawValue.encodeValue(value.rawValue, to: &writer)
    }

    /// Reads a raw value and makes a value of it.
    ///
    /// - Parameter reader: The reader positioned at the raw value.
    /// - Returns: The value whose raw value was read.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the raw value is
    ///   malformed or is not the raw value of any value of this type ("7 is not a raw value of
    ///   Color"), for example a case removed since the value was stored.
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Self {
        let rawValue = try RawValue.decodeValue(from: &reader)
        guard let value = Self(rawValue: rawValue) else {
            throw ReadFailure.notRawValue(rawValue, of: Self.self)
        }
        return value
    }
}
