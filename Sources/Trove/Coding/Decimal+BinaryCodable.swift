import Foundation

extension Decimal: BinaryCodable {
    /// A `Decimal` is stored as its `description`, length-delimited UTF-8: digits, an optional
    /// `-` and `.`, or `NaN`. The form does not depend on the locale.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .lengthDelimited }

    /// Writes `value.description`.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: Decimal, to writer: inout BinaryWriter) {
        writer.writeString(value.description)
    }

    /// Reads a string and parses it as a `Decimal`, accepting only what `description` writes.
    ///
    /// The decoded value equals the encoded one (`1.50` decodes as `1.5`, which is equal).
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The decimal.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the bytes are
    ///   truncated, not UTF-8, or not exactly the description of a decimal (`Decimal(string:)`
    ///   alone would accept `"1.5abc"` as 1.5).
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Decimal {
        let string = try reader.readString()
        if string == "NaN" { return .nan }
        // `locale: nil` parses with "." as the decimal separator, whatever the current locale.
        guard let value = Decimal(string: string, locale: nil), value.description == string else {
            throw ReadFailure.invalid(String(reflecting: string), of: Decimal.self)
        }
        return value
    }
}
