/// Keeps, across a typed write, the stored fields that the writing coder does not know.
///
/// An item written by a newer version of a model can hold fields an older version does not
/// know. The older version skips them when it reads the item; when it writes the item back, its
/// coder writes only the fields it knows. So that a read-modify-write by older code loses
/// nothing, a typed write to a collection where unknown fields were seen (see
/// ``UnknownFieldRegistry``) first copies the unknown fields of the stored bytes, tag and value
/// as they are, then appends the new encoding:
///
/// - The stored bytes are split into top-level fields with the format's own framing (a 4-byte
///   tag, then a value that its wire type delimits), without the model's coder.
/// - Each field is classified by the writing coder itself: it decodes a message made of that
///   one field with a reader in probing mode. If the decoder skipped the field, the coder does
///   not know it, and it is kept; otherwise the new value replaces it. Once the field is read,
///   the probing reader stops the decoder with ``FieldProbeFinished`` instead of letting it
///   build a value (and the errors of the fields absent from the one-field message).
/// - A known field whose nested message holds a field the coder does not know cannot be kept
///   (the new value of the known field replaces it whole): the probing reader throws
///   ``TroveError/Code/nestedUnknownFields``, naming the path of the known field, and the write
///   is refused.
///
/// The kept fields come first and the new encoding after: decoders read fields in any order,
/// and when a field occurs twice the last one wins, so a newer decoder that knows a kept field
/// under another number (an enum case, a name read by a rename) sees the value just written.
package enum UnknownFields {
    /// Appends to `writer` every top-level field of `stored` that `probe` skips.
    ///
    /// Stored bytes that are not a well-formed sequence of fields end the scan: the fields
    /// before are classified, the rest is replaced by the write, as any write replaces them.
    ///
    /// - Parameters:
    ///   - stored: The bytes stored in the column the write replaces.
    ///   - probe: Decodes a message from the reader it is given with the writing coder.
    ///   - writer: The writer of the new column, before the new value is encoded.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/nestedUnknownFields`` naming the field
    ///   when a known field holds unknown nested fields.
    package static func append(
        from stored: UnsafeRawBufferPointer, probe: (inout BinaryReader) throws -> Void, to writer: inout BinaryWriter
    ) throws {
        try TopLevelFields.forEach(in: stored) { _, field in
            var reader = BinaryReader(field, depth: 0, flags: .probing)
            do {
                try probe(&reader)
            } catch let error as TroveError where error.code == .nestedUnknownFields {
                throw error
            } catch {
                // `FieldProbeFinished`, or a decoder that fails on a one-field message (a hand-written
                // one may check more than its fields): either way the reader's flags classify the field.
            }
            if reader.hasSkippedTopLevelFields {
                writer.writeRawBytes(field)
            }
        }
    }
}
