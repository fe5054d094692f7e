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
