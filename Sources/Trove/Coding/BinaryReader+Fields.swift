// The field-level API: what generated decoders call. It is SPI (`@_spi(TroveGenerated) import
// Trove`, which every generated file declares), as the writing counterpart is.
extension BinaryReader {
    /// Reads the tag of the next field.
    ///
    /// Generated decoders loop over the fields:
    ///
    /// ```swift
    /// var name: String?
    /// while let header = try reader.nextField() {
    ///     switch header.number {
    ///     case 0x11A7_37BC: name = try reader.decode(String.self, from: header, field: "name")
    ///     default: try reader.skip(header)
    ///     }
    /// }
    /// return User(name: try reader.required(name, field: "name"))
    /// ```
    ///
    /// - Returns: The header of the next field, or `nil` when every byte has been read.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when fewer than 4 bytes
    ///   remain or the tag names an unknown wire type.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func nextField() throws -> FieldHeader? {
        if isAtEnd {
            // A probing reader holds one field: once it is read, stop the decoder before it builds
            // the value, which would fail on the fields the one-field message lacks.
            if depth == 0 && flags.contains(.probing) { throw FieldProbeFinished() }
            return nil
        }
        let tag = try readFixed32()
        guard let wireType = WireType(rawValue: UInt8(truncatingIfNeeded: tag & 7)) else {
            throw ReadFailure.unknownWireType(tag & 7)
        }
        return FieldHeader(number: tag &>> 3, wireType: wireType)
    }

    /// Reads the value of a field.
    ///
    /// - Parameters:
    ///   - type: The type of the field.
    ///   - header: The header returned by ``nextField()``.
    ///   - name: The name of the field, for errors.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` naming the field (and
    ///   the path to it inside nested values) when the stored wire type is not the one of
    ///   `type` or the value is malformed.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func decode<V: BinaryCodable>(_ type: V.Type, from header: FieldHeader, field name: String) throws
        -> V
    {
        guard header.wireType == V.wireType else {
            throw ReadFailure.wireTypeMismatch(header.wireType, expected: V.wireType, field: name)
        }
        do {
            return try V.decodeValue(from: &self)
        } catch let error as TroveError {
            throw error.nested(in: name)
        }
    }

    /// Reads the value of a field of a type that is `Decodable` but not ``BinaryCodable``,
    /// written as length-delimited JSON by the `Encodable` overload of `BinaryWriter.encode(_:field:)`.
    ///
    /// - Parameters:
    ///   - type: The type of the field.
    ///   - header: The header returned by ``nextField()``.
    ///   - name: The name of the field, for errors.
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` naming the field when
    ///   the field is not length-delimited or its JSON does not decode (the `DecodingError` is
    ///   described in ``TroveError/underlyingError``).
    @_spi(TroveGenerated)
    @_disfavoredOverload
    public mutating func decode<V: Decodable>(_ type: V.Type, from header: FieldHeader, field name: String) throws
        -> V
    {
        guard header.wireType == .lengthDelimited else {
            throw ReadFailure.wireTypeMismatch(header.wireType, expected: .lengthDelimited, field: name)
        }
        do {
            return try JSONFallback.decode(V.self, from: readLengthDelimited(), field: nil)
        } catch let error as TroveError {
            throw error.nested(in: name)
        }
    }

    /// Reads a field whose value is a nested message, with `body` decoding its fields.
    ///
    /// The counterpart of ``BinaryWriter/encodeMessage(field:_:)``.
    ///
    /// - Parameters:
    ///   - header: The header returned by ``nextField()``.
    ///   - name: The name of the field, for errors.
    ///   - body: A closure that reads the fields of the nested message from the reader it is
    ///     given, which covers exactly the nested message and must not escape the closure.
    /// - Returns: What `body` returns.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` naming the field when
    ///   the field is not length-delimited or is malformed; and whatever `body` throws (a
    ///   ``TroveError`` gets the field prefixed to its path).
    @_spi(TroveGenerated)
    @inlinable
    public mutating func decodeMessage<T>(
        from header: FieldHeader, field name: String, _ body: (inout BinaryReader) throws -> T
    ) throws -> T {
        guard header.wireType == .lengthDelimited else {
            throw ReadFailure.wireTypeMismatch(header.wireType, expected: .lengthDelimited, field: name)
        }
        do {
            return try readLengthPrefixed(body)
        } catch let error as TroveError {
            throw error.nested(in: name)
        }
    }

    /// Skips the value of a field that the decoder does not know (a removed field, or a field
    /// added by a newer version of the model).
    ///
    /// The reader remembers that it skipped a field (``hasSkippedTopLevelFields``,
    /// ``hasSkippedNestedFields``): the typed read path tells the ``Database``, so that a later
    /// typed write to the collection keeps the fields this version of the model does not know.
    ///
    /// - Parameter header: The header returned by ``nextField()``.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the value is
    ///   truncated or malformed.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func skip(_ header: FieldHeader) throws {
        try noteSkippedField(number: header.number)
        switch header.wireType {
        case .varint: _ = try readVarint()
        case .fixed32: _ = try readRawBytes(count: 4)
        case .fixed64: _ = try readRawBytes(count: 8)
        case .lengthDelimited: _ = try readLengthDelimited()
        }
    }

    /// Records in ``flags`` that ``skip(_:)`` skipped a field; in a probing reader, refuses a
    /// nested one. Out of line: only unknown fields get here, and the decoders that inline
    /// ``skip(_:)`` stay small.
    @usableFromInline
    internal mutating func noteSkippedField(number: UInt32) throws {
        if depth == 0 {
            flags.insert(.skippedTopLevelField)
        } else {
            if flags.contains(.probing) { throw ReadFailure.nestedUnknownField(number) }
            flags.insert(.skippedNestedField)
        }
    }
}
