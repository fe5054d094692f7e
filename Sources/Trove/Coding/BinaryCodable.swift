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
