extension Array: BinaryCodable where Element: BinaryCodable {
    /// An array is stored length-delimited: a varint element count, then the value form of each
    /// element, in order.
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .lengthDelimited }

    /// Writes the count and the elements, length-delimited.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    /// - Throws: Whatever the elements' encoding throws.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: [Element], to writer: inout BinaryWriter) throws {
        try writer.writeLengthPrefixed { writer in
            writer.writeVarint(UInt64(value.count))
            for element in value {
                try Element.encodeValue(element, to: &writer)
            }
        }
    }

    /// Reads the count and the elements.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The array.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the count exceeds
    ///   what the bytes can hold (checked before allocating), or an element is malformed (the
    ///   error's field then ends with the element's index, as in `tags[3]`).
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> [Element] {
        try reader.readLengthPrefixed { reader in
            let count = try reader.readCount(bytesPerElement: Element.wireType.minimumSize)
            var array: [Element] = []
            array.reserveCapacity(count)
            for index in 0..<count {
                do {
                    array.append(try Element.decodeValue(from: &reader))
                } catch let error as TroveError {
                    throw error.nested(in: "[\(index)]")
                }
            }
            return array
        }
    }
}
