extension BinaryWriter {
    /// Writes an unsigned integer as a base-128 varint: 7 bits per byte, least significant
    /// group first, the high bit set on every byte but the last.
    ///
    /// - Parameter value: The value to write; takes 1 byte below 128 and at most 10 bytes.
    @inlinable
    public mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value &>>= 7
        }
        storage.append(UInt8(truncatingIfNeeded: value))
    }

    /// Writes a signed integer zigzag-encoded as a varint, so that small negative numbers take
    /// few bytes: `0, -1, 1, -2, 2` are written as `0, 1, 2, 3, 4`.
    ///
    /// - Parameter value: The value to write.
    @inlinable
    public mutating func writeZigZag(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value &<< 1) ^ (value &>> 63)))
    }

    /// Writes four bytes, little-endian.
    ///
    /// - Parameter value: The value to write.
    @inlinable
    public mutating func writeFixed32(_ value: UInt32) {
        // Byte by byte: appending the 4 bytes as a buffer takes the generic
        // `append(contentsOf:)`, about three times the instructions (callgrind).
        storage.append(UInt8(truncatingIfNeeded: value))
        storage.append(UInt8(truncatingIfNeeded: value &>> 8))
        storage.append(UInt8(truncatingIfNeeded: value &>> 16))
        storage.append(UInt8(truncatingIfNeeded: value &>> 24))
    }

    /// Writes eight bytes, little-endian.
    ///
    /// - Parameter value: The value to write.
    @inlinable
    public mutating func writeFixed64(_ value: UInt64) {
        writeFixed32(UInt32(truncatingIfNeeded: value))
        writeFixed32(UInt32(truncatingIfNeeded: value &>> 32))
    }

    /// Writes bytes as they are, without a length prefix.
    ///
    /// - Parameter bytes: The bytes to append.
    @inlinable
    public mutating func writeRawBytes(_ bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
    }

    /// Writes a varint byte count followed by the bytes.
    ///
    /// - Parameter bytes: The bytes to append.
    @inlinable
    public mutating func writeLengthDelimited(_ bytes: UnsafeRawBufferPointer) {
        writeVarint(UInt64(bytes.count))
        storage.append(contentsOf: bytes)
    }

    /// Writes a string as length-delimited UTF-8.
    ///
    /// Native strings are copied straight from their storage, without an intermediate array.
    ///
    /// - Parameter string: The string to write.
    @inlinable
    public mutating func writeString(_ string: String) {
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            writeLengthDelimited(UnsafeRawBufferPointer(utf8))
        }
        if written == nil {
            // A bridged or otherwise non-contiguous string: count, then copy code unit by unit.
            let utf8 = string.utf8
            writeVarint(UInt64(utf8.count))
            storage.append(contentsOf: utf8)
        }
    }

    /// Writes the 4-byte little-endian tag of a field: `number << 3 | wireType`.
    ///
    /// - Parameters:
    ///   - number: The field number, at most ``FieldNumber/maximum``.
    ///   - wireType: How the value that follows is delimited.
    @inlinable
    public mutating func writeTag(number: UInt32, wireType: WireType) {
        assert(number <= FieldNumber.maximum, "field number \(number) does not fit in 29 bits")
        writeFixed32(number &<< 3 | UInt32(wireType.rawValue))
    }

    /// Writes whatever `body` writes, preceded by its byte count as a varint.
    ///
    /// One byte is reserved for the count before `body` runs. When the body turns out to be 128
    /// bytes or longer, the body is moved to make room for the longer count, so that nothing is
    /// encoded twice.
    ///
    /// ```swift
    /// try writer.writeLengthPrefixed { writer in
    ///     try Address.encodeMessage(address, to: &writer)
    /// }
    /// ```
    ///
    /// - Parameter body: A closure that writes the value to this writer.
    /// - Throws: Whatever `body` throws; the writer then holds a partial encoding, which should be
    ///   discarded.
    @inlinable
    public mutating func writeLengthPrefixed(_ body: (inout BinaryWriter) throws -> Void) rethrows {
        let countIndex = storage.count
        storage.append(0)
        try body(&self)
        let length = storage.count - countIndex - 1
        if length < 0x80 {
            storage[countIndex] = UInt8(truncatingIfNeeded: length)
        } else {
            patchLongLength(length, at: countIndex)
        }
    }

    /// Replaces the one reserved byte at `index` by the varint `length`, moving the body.
    @usableFromInline
    internal mutating func patchLongLength(_ length: Int, at index: Int) {
        var prefix = BinaryWriter(reservingCapacity: 10)
        prefix.writeVarint(UInt64(length))
        storage.replaceSubrange(index..<(index + 1), with: prefix.storage)
    }
}
