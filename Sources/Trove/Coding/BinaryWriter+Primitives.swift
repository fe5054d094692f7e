// The value forms of Trove's binary format, which `BinaryCodable` conformances are made of. They are
// SPI (`@_spi(TroveGenerated)`), as the field-level API is: only the runtime's conformances,
// generated code and hand-written binary coders write the format. `writeRawBytes(_:)` stays public:
// a `ValueCoder` of another format writes its bytes with it (`CodableCoder` does).
extension BinaryWriter {
    /// Writes an unsigned integer as a base-128 varint: 7 bits per byte, least significant
    /// group first, the high bit set on every byte but the last.
    ///
    /// - Parameter value: The value to write; takes 1 byte below 128 and at most 10 bytes.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func writeVarint(_ value: UInt64) {
        if value < 0x80 {
            reserve(1).storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
            byteCount &+= 1
        } else {
            byteCount &+= Self.storeVarint(value, at: reserve(10))
        }
    }

    /// Stores `value` as a varint at `address`, which has room for 10 bytes, and returns the
    /// number of bytes stored.
    @inlinable
    @inline(__always)
    internal static func storeVarint(_ value: UInt64, at address: UnsafeMutableRawPointer) -> Int {
        var value = value
        var offset = 0
        while value >= 0x80 {
            address.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, toByteOffset: offset, as: UInt8.self)
            value &>>= 7
            offset &+= 1
        }
        address.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: offset, as: UInt8.self)
        return offset &+ 1
    }

    /// Writes a signed integer zigzag-encoded as a varint, so that small negative numbers take
    /// few bytes: `0, -1, 1, -2, 2` are written as `0, 1, 2, 3, 4`.
    ///
    /// - Parameter value: The value to write.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func writeZigZag(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value &<< 1) ^ (value &>> 63)))
    }

    /// Writes four bytes, little-endian.
    ///
    /// - Parameter value: The value to write.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func writeFixed32(_ value: UInt32) {
        reserve(4).storeBytes(of: value.littleEndian, as: UInt32.self)
        byteCount &+= 4
    }

    /// Writes eight bytes, little-endian.
    ///
    /// - Parameter value: The value to write.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func writeFixed64(_ value: UInt64) {
        reserve(8).storeBytes(of: value.littleEndian, as: UInt64.self)
        byteCount &+= 8
    }

    /// Writes one byte.
    @inlinable
    internal mutating func writeByte(_ byte: UInt8) {
        reserve(1).storeBytes(of: byte, as: UInt8.self)
        byteCount &+= 1
    }

    /// Writes bytes as they are, without a length prefix.
    ///
    /// - Parameter bytes: The bytes to append.
    @inlinable
    public mutating func writeRawBytes(_ bytes: UnsafeRawBufferPointer) {
        let address = reserve(bytes.count)
        if let source = bytes.baseAddress {
            address.copyMemory(from: source, byteCount: bytes.count)
        }
        byteCount &+= bytes.count
    }

    /// Writes a varint byte count followed by the bytes.
    ///
    /// - Parameter bytes: The bytes to append.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func writeLengthDelimited(_ bytes: UnsafeRawBufferPointer) {
        // One check for the count and the bytes: the count takes at most 10 bytes.
        let address = reserve(10 + bytes.count)
        let prefix = Self.storeVarint(UInt64(bytes.count), at: address)
        if let source = bytes.baseAddress {
            (address + prefix).copyMemory(from: source, byteCount: bytes.count)
        }
        byteCount &+= prefix &+ bytes.count
    }

    /// Writes a string as length-delimited UTF-8.
    ///
    /// Native strings are copied straight from their storage, without an intermediate array.
    ///
    /// - Parameter string: The string to write.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func writeString(_ string: String) {
        string.withUTF8Bytes { writeLengthDelimited($0) }
    }

    /// Writes the 4-byte little-endian tag of a field: `number << 3 | wireType`.
    ///
    /// - Parameters:
    ///   - number: The field number, at most ``FieldNumber/maximum``.
    ///   - wireType: How the value that follows is delimited.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func writeTag(number: UInt32, wireType: WireType) {
        assert(
            number <= FieldNumber.maximum,
            "field number 0x\(String(number, radix: 16, uppercase: true)) does not fit in 29 bits")
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
    @_spi(TroveGenerated)
    @inlinable
    public mutating func writeLengthPrefixed(_ body: (inout BinaryWriter) throws -> Void) rethrows {
        let countIndex = byteCount
        writeByte(0)
        try body(&self)
        let length = byteCount &- countIndex &- 1
        if length < 0x80 {
            // `reserve(0)` makes the storage unique again, in case `body` copied the writer.
            _ = reserve(0)
            storage.base.storeBytes(of: UInt8(truncatingIfNeeded: length), toByteOffset: countIndex, as: UInt8.self)
        } else {
            patchLongLength(length, at: countIndex)
        }
    }

    /// Replaces the one reserved byte at `index` by the varint `length`, moving the body.
    @usableFromInline
    internal mutating func patchLongLength(_ length: Int, at index: Int) {
        var prefixCount = 1
        var rest = length &>> 7
        while rest > 0 {
            prefixCount &+= 1
            rest &>>= 7
        }
        let extra = prefixCount &- 1
        _ = reserve(extra)
        let body = storage.base + (index + 1)
        (body + extra).copyMemory(from: body, byteCount: length)  // a memmove: the ranges overlap
        _ = Self.storeVarint(UInt64(length), at: storage.base + index)
        byteCount &+= extra
    }
}
