import Foundation

// The value forms of Trove's binary format, read back. SPI (`@_spi(TroveGenerated)`), as their
// writing counterparts are; `readRawBytes(count:)` stays public: a `ValueCoder` of another format
// reads its bytes with it (`CodableCoder` does).
extension BinaryReader {
    /// Reads a base-128 varint (see ``BinaryWriter/writeVarint(_:)``).
    ///
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   truncated, longer than 10 bytes, or larger than `UInt64.max`.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func readVarint() throws -> UInt64 {
        // Most varints (lengths, counts, small integers) are one byte: that case is inlined into
        // the caller, the others take a call.
        if position < buffer.count {
            let first = buffer.load(fromByteOffset: position, as: UInt8.self)
            if first < 0x80 {
                position &+= 1
                return UInt64(first)
            }
        }
        return try readMultibyteVarint()
    }

    /// Reads a varint of any length; ``readVarint()`` calls it for varints longer than a byte.
    @usableFromInline
    internal mutating func readMultibyteVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < buffer.count else { throw ReadFailure.truncated("varint") }
            let byte = buffer.load(fromByteOffset: position, as: UInt8.self)
            position &+= 1
            if shift == 63 && byte > 1 { throw ReadFailure.overlongVarint() }
            result |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 { return result }
            shift &+= 7
        }
    }

    /// Reads a zigzag-encoded signed integer (see ``BinaryWriter/writeZigZag(_:)``).
    ///
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the varint is
    ///   malformed.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func readZigZag() throws -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: raw &>> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Reads four little-endian bytes.
    ///
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when fewer than 4 bytes
    ///   remain.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func readFixed32() throws -> UInt32 {
        guard remainingCount >= 4 else { throw ReadFailure.truncated("fixed32") }
        let value = buffer.loadUnaligned(fromByteOffset: position, as: UInt32.self)
        position &+= 4
        return UInt32(littleEndian: value)
    }

    /// Reads eight little-endian bytes.
    ///
    /// - Returns: The value.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when fewer than 8 bytes
    ///   remain.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func readFixed64() throws -> UInt64 {
        guard remainingCount >= 8 else { throw ReadFailure.truncated("fixed64") }
        let value = buffer.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position &+= 8
        return UInt64(littleEndian: value)
    }

    /// Reads `count` bytes as they are.
    ///
    /// - Parameter count: The number of bytes to read.
    /// - Returns: The bytes, borrowed from the reader's buffer: valid only as long as it is.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when `count` is
    ///   negative or fewer than `count` bytes remain.
    @inlinable
    public mutating func readRawBytes(count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, count <= remainingCount else { throw ReadFailure.truncated("\(count) bytes") }
        // `position` is within the buffer (at its end at most), so its base address is not nil
        // unless `position` and `count` are 0.
        let start = buffer.baseAddress.map { $0 + position }
        position &+= count
        return UnsafeRawBufferPointer(start: start, count: count)
    }

    /// Reads a varint byte count, then that many bytes.
    ///
    /// - Returns: The bytes, borrowed from the reader's buffer: valid only as long as it is.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the count is
    ///   malformed or larger than the remaining bytes.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func readLengthDelimited() throws -> UnsafeRawBufferPointer {
        try readRawBytes(count: readCount())
    }

    /// Reads a length-delimited UTF-8 string.
    ///
    /// - Returns: The string.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the bytes are
    ///   truncated or are not valid UTF-8 (invalid bytes are not repaired).
    @_spi(TroveGenerated)
    @inlinable
    public mutating func readString() throws -> String {
        let bytes = try readLengthDelimited()
        let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
        // `String(decoding:)` validates on its fast path but repairs invalid bytes. ASCII is
        // valid; otherwise the result is compared with the input: equal bytes mean the input was
        // valid. This measures about twice as fast as `String(validating:as:)`, which takes a
        // generic path.
        let string = String(decoding: utf8, as: UTF8.self)
        guard Self.isASCII(bytes) || Self.hasSameUTF8(string, as: utf8) else { throw ReadFailure.invalidUTF8() }
        return string
    }

    /// Whether every byte of `bytes` is below 0x80, 8 bytes at a time.
    @inlinable
    internal static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        let highBits: UInt64 = 0x8080_8080_8080_8080
        if count >= 8 {
            var combined: UInt64 = 0
            var offset = 0
            while offset &+ 8 < count {
                combined |= bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            // The last 8 bytes, overlapping bytes already seen rather than looping over a tail.
            combined |= bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            return combined & highBits == 0
        }
        if count >= 4 {
            let combined =
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
                | bytes.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            return combined & UInt32(truncatingIfNeeded: highBits) == 0
        }
        var combined: UInt8 = 0
        for offset in 0..<count {
            combined |= bytes.load(fromByteOffset: offset, as: UInt8.self)
        }
        return combined & 0x80 == 0
    }

    /// Whether the UTF-8 of `string` is exactly `bytes`.
    @inlinable
    internal static func hasSameUTF8(_ string: String, as bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let same = string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let lhs = utf8.baseAddress, let rhs = bytes.baseAddress else { return true }
            return memcmp(lhs, rhs, bytes.count) == 0
        }
        return same ?? string.utf8.elementsEqual(bytes)
    }

    /// Reads a varint byte count, then runs `body` with a reader of exactly that many bytes.
    ///
    /// `body` must read every byte it is given: bytes left unread are corrupt data. Each level
    /// of nesting counts toward ``maximumNestingDepth``.
    ///
    /// - Parameter body: A closure that decodes the prefixed bytes from the reader it is given.
    ///   That reader must not escape the closure.
    /// - Returns: What `body` returns.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the count is
    ///   malformed, the nesting is too deep or `body` leaves bytes unread; and whatever `body`
    ///   throws.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func readLengthPrefixed<T>(_ body: (inout BinaryReader) throws -> T) throws -> T {
        guard depth < Self.maximumNestingDepth else { throw ReadFailure.tooDeep() }
        var nested = BinaryReader(try readLengthDelimited(), depth: depth &+ 1, flags: flags.intersection(.probing))
        let value = try body(&nested)
        guard nested.isAtEnd else { throw ReadFailure.unreadBytes(nested.remainingCount) }
        flags.formUnion(nested.flags)
        return value
    }

    /// Reads a varint byte or element count that must not exceed the remaining bytes.
    ///
    /// Every value form takes at least one byte, so a count of elements larger than the
    /// remaining bytes is corrupt: checking it before allocating keeps a corrupt count from
    /// reserving gigabytes.
    ///
    /// - Parameter bytesPerElement: The minimum size of one counted element (see
    ///   ``WireType/minimumSize``); values below 1 count as 1, as for a count of bytes.
    /// - Returns: The count, at most the number of remaining bytes divided by `bytesPerElement`.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` when the count is
    ///   malformed or larger than the remaining bytes allow.
    @_spi(TroveGenerated)
    @inlinable
    public mutating func readCount(bytesPerElement: Int = 1) throws -> Int {
        let count = try readVarint()
        let limit = bytesPerElement <= 1 ? remainingCount : remainingCount / bytesPerElement
        guard count <= UInt64(limit) else {
            throw ReadFailure.countTooLarge(count, remaining: remainingCount)
        }
        return Int(truncatingIfNeeded: count)
    }
}
