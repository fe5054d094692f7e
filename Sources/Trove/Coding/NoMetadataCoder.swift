/// The coder of ``NoMetadata``: it writes nothing, and decoding always fails because there is no
/// value to decode.
public enum NoMetadataCoder: ValueCoder {
    /// Never called: ``NoMetadata`` has no values.
    public static func encode(_ value: NoMetadata, to writer: inout BinaryWriter) throws {
        // Unreachable: `NoMetadata` has no values, so this function cannot be called.
    }

    /// Always throws: ``NoMetadata`` has no values.
    ///
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData``.
    public static func decode(from reader: inout BinaryReader) throws -> NoMetadata {
        throw TroveError.corruptData("metadata is stored for a type that declares none")
    }
}
