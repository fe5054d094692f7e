import Foundation

/// The hand-written compact binary coder of the baseline: the limit a binary coder can reach.
///
/// Fields are written in declaration order with no tags (so no schema evolution: adding,
/// removing or reordering a field makes old data unreadable, which Trove's generated coder
/// supports). Strings are a varint byte count and UTF-8, integers zigzag varints, doubles and
/// dates the 8 bytes of their bit pattern. Decoding checks every bound and validates UTF-8, and
/// throws on bad bytes: it is as safe as the generated coder, only less flexible.
enum HandWrittenCoder {
    static func encode(_ user: User, to writer: inout CompactWriter) {
        writer.writeString(user.id)
        writer.writeString(user.name)
        writer.writeString(user.email)
        writer.writeZigZag(Int64(user.age))
        writer.writeFixed64(user.score.bitPattern)
        writer.writeVarint(UInt64(user.tags.count))
        for tag in user.tags {
            writer.writeString(tag)
        }
        writer.writeFixed64(user.created.timeIntervalSinceReferenceDate.bitPattern)
    }

    static func encode(_ stats: UserStats, to writer: inout CompactWriter) {
        writer.writeZigZag(Int64(stats.visits))
        writer.writeFixed64(stats.lastSeen.timeIntervalSinceReferenceDate.bitPattern)
    }

    static func decodeUser(from bytes: UnsafeRawBufferPointer) throws -> User {
        var reader = CompactReader(bytes)
        let id = try reader.readString()
        let name = try reader.readString()
        let email = try reader.readString()
        let age = Int(try reader.readZigZag())
        let score = Double(bitPattern: try reader.readFixed64())
        let tagCount = try reader.readCount()
        var tags: [String] = []
        tags.reserveCapacity(tagCount)
        for _ in 0..<tagCount {
            tags.append(try reader.readString())
        }
        let created = Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.readFixed64()))
        try reader.expectEnd()
        return User(
            id: id, name: name, email: email, age: age, score: score, tags: tags, created: created, metadata: nil)
    }

    static func decodeStats(from bytes: UnsafeRawBufferPointer) throws -> UserStats {
        var reader = CompactReader(bytes)
        let visits = Int(try reader.readZigZag())
        let lastSeen = Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.readFixed64()))
        try reader.expectEnd()
        return UserStats(visits: visits, lastSeen: lastSeen)
    }
}

/// A growable byte buffer, reused from one value to the next.
struct CompactWriter {
    var bytes: [UInt8]

    init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value &>>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    @inline(__always)
    mutating func writeZigZag(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value &<< 1) ^ (value &>> 63)))
    }

    @inline(__always)
    mutating func writeFixed64(_ value: UInt64) {
        // Byte by byte: cheaper than the generic append(contentsOf:) of an 8-byte buffer.
        var value = value
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: value))
            value &>>= 8
        }
    }

    @inline(__always)
    mutating func writeString(_ string: String) {
        string.withUTF8Buffer { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
}

/// A bounds-checked cursor over borrowed bytes.
struct CompactReader {
    let buffer: UnsafeRawBufferPointer
    var position = 0

    init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
    }

    @inline(__always)
    mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < buffer.count {
            let byte = buffer[position]
            position &+= 1
            result |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 { return result }
            shift &+= 7
            if shift > 63 { throw BenchmarkError("overlong varint") }
        }
        throw BenchmarkError("truncated varint")
    }

    @inline(__always)
    mutating func readZigZag() throws -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: raw &>> 1) ^ -Int64(bitPattern: raw & 1)
    }

    @inline(__always)
    mutating func readFixed64() throws -> UInt64 {
        guard buffer.count - position >= 8 else { throw BenchmarkError("truncated fixed64") }
        let value = buffer.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position &+= 8
        return UInt64(littleEndian: value)
    }

    /// A count that cannot exceed the remaining bytes (each element takes at least one).
    @inline(__always)
    mutating func readCount() throws -> Int {
        let count = try readVarint()
        guard count <= UInt64(buffer.count - position) else { throw BenchmarkError("count too large") }
        return Int(count)
    }

    @inline(__always)
    mutating func readString() throws -> String {
        let count = try readCount()
        let start = position
        position &+= count
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[start..<position]).assumingMemoryBound(to: UInt8.self)
        // The fastest safe decoding known: `String(decoding:)` takes the fast path but repairs
        // invalid bytes, so equal bytes afterwards mean the input was valid UTF-8 (the same
        // technique as Trove's BinaryReader, so that the baseline stays the limit).
        let string = String(decoding: bytes, as: UTF8.self)
        let isValid =
            string.utf8.withContiguousStorageIfAvailable { utf8 in
                utf8.count == bytes.count
                    && (bytes.count == 0 || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
            } ?? string.utf8.elementsEqual(bytes)
        guard isValid else { throw BenchmarkError("invalid UTF-8") }
        return string
    }

    func expectEnd() throws {
        guard position == buffer.count else { throw BenchmarkError("\(buffer.count - position) unread bytes") }
    }
}
