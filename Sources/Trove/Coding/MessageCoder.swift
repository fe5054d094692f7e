/// The coder of items and metadata whose type is a ``BinaryMessage``: the whole stored blob is
/// the message, without a length prefix.
///
/// trove-gen names it as the coder of every `// @persistable` type:
///
/// ```swift
/// extension User: Persistable {
///     typealias Coder = MessageCoder<User>
/// }
/// ```
///
/// `MessageCoder` has no values; it is a namespace for two static functions, so it declares no
/// `Sendable` conformance: there is nothing to send.
public enum MessageCoder<Value: BinaryMessage>: ValueCoder {
    /// Writes the fields of `value`.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - writer: The writer to append to.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/encodingFailed`` when a field cannot
    ///   be encoded.
    @inlinable
    public static func encode(_ value: Value, to writer: inout BinaryWriter) throws {
        try Value.encodeMessage(value, to: &writer)
    }

    /// Decodes a message from all the remaining bytes of `reader`.
    ///
    /// - Parameter reader: A reader over the stored column.
    /// - Returns: The decoded value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` naming the field that
    ///   failed.
    @inlinable
    public static func decode(from reader: inout BinaryReader) throws -> Value {
        let value = try Value.decodeMessage(from: &reader)
        guard reader.isAtEnd else { throw ReadFailure.unreadBytes(reader.remainingCount) }
        return value
    }
}
