import Foundation

/// The coder of items and metadata of any `Codable` type, through JSON.
///
/// Use it for hand-written ``Persistable`` types. It is several times slower than the binary
/// format of ``MessageCoder`` and does not support `@renamed` fields beyond what the type's
/// own `Codable` implementation does.
///
/// ```swift
/// struct Note: Persistable, Codable {
///     typealias Coder = CodableCoder<Note>
///     static let collection = "notes"
///     var id: String
///     var text: String
/// }
/// ```
///
/// The stored blob is the JSON itself, with sorted keys, so that equal values give equal bytes.
/// `CodableCoder` has no values; it is a namespace for two static functions, so it declares no
/// `Sendable` conformance: there is nothing to send.
public enum CodableCoder<Value: Codable>: ValueCoder {
    /// Appends the JSON of `value`.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - writer: The writer to append to.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/encodingFailed`` when `JSONEncoder`
    ///   fails, with its error as ``TroveError/underlyingError``.
    public static func encode(_ value: Value, to writer: inout BinaryWriter) throws {
        let json = try JSONFallback.encode(value)
        json.withUnsafeBytes { writer.writeRawBytes($0) }
    }

    /// Decodes a value from the JSON in all the remaining bytes of `reader`.
    ///
    /// - Parameter reader: A reader over the stored column.
    /// - Returns: The decoded value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the bytes are not
    ///   the JSON of a `Value`, with the `DecodingError` as ``TroveError/underlyingError``.
    public static func decode(from reader: inout BinaryReader) throws -> Value {
        try JSONFallback.decode(Value.self, from: reader.readRawBytes(count: reader.remainingCount), field: nil)
    }
}
