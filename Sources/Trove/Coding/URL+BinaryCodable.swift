import Foundation

extension URL: BinaryCodable {
    /// A `URL` is stored as its `absoluteString`, length-delimited UTF-8.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .lengthDelimited }

    /// Writes `value.absoluteString`.
    ///
    /// A URL relative to a base URL is stored resolved: it decodes as an absolute URL, equal to
    /// the original's `absoluteURL`.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: URL, to writer: inout BinaryWriter) {
        writer.writeString(value.absoluteString)
    }

    /// Reads a string and parses it as a URL.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The URL.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the bytes are
    ///   truncated, not UTF-8, or not a URL.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> URL {
        let string = try reader.readString()
        guard let url = URL(string: string) else {
            throw ReadFailure.invalid(String(reflecting: string), of: URL.self)
        }
        return url
    }
}
