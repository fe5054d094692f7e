extension Set: BinaryCodable where Element: BinaryCodable {
    /// A set is stored like an array: length-delimited, a varint element count, then the value
    /// form of each element, in the set's iteration order (which can differ between processes,
    /// so equal sets can have different encodings).
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
    public static func encodeValue(_ value: Set<Element>, to writer: inout BinaryWriter) throws {
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
    /// - Returns: The set.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the count exceeds
    ///   what the bytes can hold, an element is malformed, or an element appears twice.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> Set<Element> {
        try reader.readLengthPrefixed { reader in
            let count = try reader.readCount(bytesPerElement: Element.wireType.minimumSize)
            var set = Set<Element>(minimumCapacity: count)
            for index in 0..<count {
                let element: Element
                do {
                    element = try Element.decodeValue(from: &reader)
                } catch let error as TroveError {
                    throw error.nested(in: "[\(index)]")
                }
                guard set.insert(element).inserted else { throw ReadFailure.duplicate(in: Set<Element>.self) }
            }
            return set
        }
    }
}
