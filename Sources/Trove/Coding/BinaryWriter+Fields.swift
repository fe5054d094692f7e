import Foundation

// The field-level API: what generated coders call, once per stored property. It is SPI
// (`@_spi(TroveGenerated) import Trove`, which every generated file declares): user code reads and
// writes items through the typed API, and never writes Trove's tagged format field by field.
extension BinaryWriter {
    /// Writes a field: its tag, then the value form of `value`.
    ///
    /// Generated coders call it once per stored property:
    ///
    /// ```swift
    /// try writer.encode(user.name, field: 0x11A7_37BC)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value of the field.
    ///   - number: The field number (see ``FieldNumber/of(_:)``).
    /// - Throws: ``TroveError`` with code ``TroveError/Code/encodingFailed`` when a nested
    ///   `Codable` fallback fails; the standard types never throw.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func encode<V: BinaryCodable>(_ value: V, field number: UInt32) throws {
        writeTag(number: number, wireType: V.wireType)
        try V.encodeValue(value, to: &self)
    }

    /// Writes a field if `value` is not `nil`, and nothing otherwise.
    ///
    /// An absent field decodes as `nil`, or as the default value of a non-optional property,
    /// so that a property can go from optional to non-optional with a default.
    ///
    /// - Parameters:
    ///   - value: The value of the field, or `nil`.
    ///   - number: The field number (see ``FieldNumber/of(_:)``).
    /// - Throws: ``TroveError`` with code ``TroveError/Code/encodingFailed`` when a nested
    ///   `Codable` fallback fails.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func encodeIfPresent<V: BinaryCodable>(_ value: V?, field number: UInt32) throws {
        if let value {
            try encode(value, field: number)
        }
    }

    /// Writes a field of a type that is `Encodable` but not ``BinaryCodable``, as
    /// length-delimited JSON.
    ///
    /// This is the fallback for property types that have no binary coder (a type from another
    /// module, for example). It is much slower than the binary form; annotate the type
    /// `// @coded` when you can. Keys are sorted, so that equal values give equal bytes.
    ///
    /// - Parameters:
    ///   - value: The value of the field.
    ///   - number: The field number (see ``FieldNumber/of(_:)``).
    /// - Throws: ``TroveError`` with code ``TroveError/Code/encodingFailed`` when `JSONEncoder`
    ///   fails.
    @_spi(TroveGenerated)
    @_disfavoredOverload
    public mutating func encode<V: Encodable>(_ value: V, field number: UInt32) throws {
        let json = try JSONFallback.encode(value)
        writeTag(number: number, wireType: .lengthDelimited)
        json.withUnsafeBytes { writeLengthDelimited($0) }
    }

    /// Writes a JSON fallback field (see the `Encodable` overload of `encode(_:field:)`) if `value` is not
    /// `nil`, and nothing otherwise.
    ///
    /// - Parameters:
    ///   - value: The value of the field, or `nil`.
    ///   - number: The field number (see ``FieldNumber/of(_:)``).
    /// - Throws: ``TroveError`` with code ``TroveError/Code/encodingFailed`` when `JSONEncoder`
    ///   fails.
    @_spi(TroveGenerated)
    @_disfavoredOverload
    public mutating func encodeIfPresent<V: Encodable>(_ value: V?, field number: UInt32) throws {
        if let value {
            try encode(value, field: number)
        }
    }

    /// Writes a field whose value is a nested message written by `body`.
    ///
    /// Generated coders use it for enumeration cases with associated values: the case is the
    /// field, and its associated values are the fields of the nested message.
    ///
    /// ```swift
    /// case .circle(let radius):
    ///     try writer.encodeMessage(field: 0x0504_2E11) { writer in
    ///         try writer.encode(radius, field: 0x01B7_4996)
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - number: The field number (see ``FieldNumber/of(_:)``).
    ///   - body: A closure that writes the fields of the nested message.
    /// - Throws: Whatever `body` throws.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func encodeMessage(field number: UInt32, _ body: (inout BinaryWriter) throws -> Void) throws {
        writeTag(number: number, wireType: .lengthDelimited)
        try writeLengthPrefixed(body)
    }
}
