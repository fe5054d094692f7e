extension Dictionary: BinaryCodable where Key: BinaryCodable, Value: BinaryCodable {
    /// A dictionary is stored length-delimited: a varint pair count, then the value forms of
    /// each key and its value, in the dictionary's iteration order (which can differ between
    /// processes, so equal dictionaries can have different encodings).
    @_spi(TroveGenerated)
    @inlinable
    public static var wireType: WireType { .lengthDelimited }

    /// Writes the count and the pairs, length-delimited.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - writer: The writer to append to.
    /// - Throws: Whatever the keys' and values' encoding throws.
    @_spi(TroveGenerated)
    @inlinable
    public static func encodeValue(_ value: [Key: Value], to writer: inout BinaryWriter) throws {
        try writer.writeLengthPrefixed { writer in
            writer.writeVarint(UInt64(value.count))
            for (key, element) in value {
                try Key.encodeValue(key, to: &writer)
                try Value.encodeValue(element, to: &writer)
            }
        }
    }

    /// Reads the count and the pairs.
    ///
    /// - Parameter reader: The reader positioned at the value.
    /// - Returns: The dictionary.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the count exceeds
    ///   what the bytes can hold, a key or value is malformed (the error's field then names the
    ///   pair, as in `scores["ada"]`), or a key appears twice.
    @_spi(TroveGenerated)
    @inlinable
    public static func decodeValue(from reader: inout BinaryReader) throws -> [Key: Value] {
        try reader.readLengthPrefixed { reader in
            let pairSize = Key.wireType.minimumSize + Value.wireType.minimumSize
            let count = try reader.readCount(bytesPerElement: pairSize)
            var dictionary = [Key: Value](minimumCapacity: count)
            for index in 0..<count {
                let key: Key
                do {
                    key = try Key.decodeValue(from: &reader)
                } catch let error as TroveError {
                    throw error.nested(in: "[\(index)]")
                }
                let value: Value
                do {
                    value = try Value.decodeValue(from: &reader)
                } catch let error as TroveError {
                    throw error.nested(in: "[\(String(reflecting: key))]")
                }
                guard dictionary.updateValue(value, forKey: key) == nil else {
                    throw ReadFailure.duplicate(in: [Key: Value].self)
                }
            }
            return dictionary
        }
    }
}
