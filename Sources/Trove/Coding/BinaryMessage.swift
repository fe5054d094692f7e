/// A value encoded as a message: a sequence of tagged fields, so that fields can be added,
/// removed, renamed and reordered without losing stored data.
///
/// trove-gen writes the conformance of every `// @persistable` and `// @coded` type. As a field,
/// a message is length-delimited; as a top-level item or metadata value, it is the whole blob
/// (see ``MessageCoder``).
///
/// A conformance written by hand needs `@_spi(TroveGenerated) import Trove`, as generated code
/// does: the field-level methods of ``BinaryWriter`` and ``BinaryReader`` that write and read the
/// fields, and the implementations of ``BinaryCodable`` that every message shares, are SPI.
public protocol BinaryMessage: BinaryCodable {
    /// Writes every field of `value`.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append the fields to.
    /// - Throws: ``TroveError`` when a field cannot be encoded.
    static func encodeMessage(_ value: Self, to writer: inout BinaryWriter) throws

    /// Reads fields until the reader is at its end, and builds the value.
    ///
    /// Unknown fields are skipped; missing fields take their default value or throw.
    ///
    /// - Parameter reader: A reader whose remaining bytes are exactly the message.
    /// - Returns: The decoded value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` naming the field.
    static func decodeMessage(from reader: inout BinaryReader) throws -> Self
}
