/// The wire type of an encoded field: how many bytes follow its tag, so that a decoder can skip
/// a field it does not know.
///
/// Trove's binary format is a sequence of fields. Each field starts with a 4-byte little-endian
/// tag, `fieldNumber << 3 | wireType`, followed by the value in its self-delimiting form.
public enum WireType: UInt8, Sendable, Hashable {
    /// A base-128 varint: booleans, unsigned integers, and zigzag-encoded signed integers.
    case varint = 0
    /// Eight little-endian bytes: `Double`, `Date`.
    case fixed64 = 1
    /// A varint byte count followed by that many bytes: strings, data, nested messages, collections.
    case lengthDelimited = 2
    /// Four little-endian bytes: `Float`.
    case fixed32 = 5
}

/// A value that can be written as a field of Trove's tagged binary format.
///
/// The standard types (`Bool`, every integer width, `Float`, `Double`, `String`, `Data`, `Date`,
/// `UUID`, `URL`, `Decimal`) conform, and so do `Optional`, `Array`, `Set` and `Dictionary` of
/// conforming types. Types annotated `// @coded` get a conformance from trove-gen through
/// ``BinaryMessage``. Raw-value enumerations get one by declaring it: the default
/// implementation stores the raw value.
///
/// The value form written by ``encodeValue(_:to:)`` must be self-delimiting for its
/// ``wireType``: a reader that knows only the wire type can skip it.
///
/// The requirements are called by generated coders, not by user code: the standard types'
/// implementations, and the methods of ``BinaryWriter`` and ``BinaryReader`` that write and read
/// the value forms, are SPI (`@_spi(TroveGenerated) import Trove`). A raw-value enumeration
/// conforms without it.
public protocol BinaryCodable {
    /// How the value form is delimited.
    static var wireType: WireType { get }

    /// Writes the value form of `value`, without a field tag.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/encodingFailed`` when the value
    ///   cannot be encoded (only fallback `Codable` encoding can fail).
    static func encodeValue(_ value: Self, to writer: inout BinaryWriter) throws

    /// Reads one value form written by ``encodeValue(_:to:)``.
    ///
    /// - Parameter reader: The reader positioned at the value form.
    /// - Returns: The decoded value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the bytes are
    ///   truncated or malformed. Never traps.
    static func decodeValue(from reader: inout BinaryReader) throws -> Self
}

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

/// A coder of top-level values: how an item or its metadata becomes the bytes of a database
/// column, and back.
///
/// Each ``Persistable`` type names the coder of its items (``Persistable/Coder``) and of its
/// metadata (``Persistable/MetadataCoder``). Trove ships ``MessageCoder`` (generated binary
/// coders), ``CodableCoder`` (any `Codable` type, through JSON) and ``NoMetadataCoder``.
public protocol ValueCoder<Value> {
    /// The type this coder encodes and decodes.
    associatedtype Value

    /// Appends the encoding of `value`.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - writer: The writer to append to.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/encodingFailed``.
    static func encode(_ value: Value, to writer: inout BinaryWriter) throws

    /// Decodes a value from all the remaining bytes of `reader`.
    ///
    /// - Parameter reader: A reader over the stored column.
    /// - Returns: The decoded value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData``.
    static func decode(from reader: inout BinaryReader) throws -> Value
}
