import Foundation

/// The hand-written compact binary coder of the baseline: the limit a binary coder can reach.
///
/// Fields are written in declaration order with no tags (so no schema evolution: adding,
/// removing or reordering a field makes old data unreadable, which Trove's generated coder
/// supports). Strings are a varint byte count and UTF-8, integers zigzag varints, doubles and
/// dates the 8 bytes of their bit pattern. Decoding checks every bound and validates UTF-8, and
/// throws on bad bytes: it is as safe as the generated coder, only less flexible.
enum HandWrittenCoder {
    static func encode(_ user: User, to writer: CompactWriter) {
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

    static func encode(_ stats: UserStats, to writer: CompactWriter) {
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
///
/// Written the way Trove's `BinaryWriter` is (one capacity check per value, bytes stored in
/// place), so that the baseline keeps every technique that Trove's coder uses. A class: each
/// coder owns one and never shares it, so no copy-on-write check is needed.
final class CompactWriter {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit {
        base.deallocate()
    }

    func removeAll() {
        count = 0
    }

    /// Calls `body` with the bytes written, without copying them.
    func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Room for `byteCount` more bytes: the address where they go.
    @inline(__always)
    private func reserve(_ byteCount: Int) -> UnsafeMutableRawPointer {
        if _slowPath(byteCount > capacity &- count) {
            grow(byteCount)
        }
        return base + count
    }

    @inline(never)
    private func grow(_ byteCount: Int) {
        var newCapacity = capacity * 2
        while newCapacity < count + byteCount { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    func writeVarint(_ value: UInt64) {
        let address = reserve(10)
        var value = value
        var offset = 0
        while value >= 0x80 {
            address.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, toByteOffset: offset, as: UInt8.self)
            value &>>= 7
            offset &+= 1
        }
        address.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: offset, as: UInt8.self)
        count &+= offset &+ 1
    }

    @inline(__always)
    func writeZigZag(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value &<< 1) ^ (value &>> 63)))
    }

    @inline(__always)
    func writeFixed64(_ value: UInt64) {
        reserve(8).storeBytes(of: value.littleEndian, as: UInt64.self)
        count &+= 8
    }

    @inline(__always)
    func writeString(_ string: String) {
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { writeBytes($0) }
        if written == nil {
            var native = string
            native.withUTF8 { writeBytes($0) }
        }
    }

    @inline(__always)
    private func writeBytes(_ utf8: UnsafeBufferPointer<UInt8>) {
        writeVarint(UInt64(utf8.count))
        let address = reserve(utf8.count)
        if let source = utf8.baseAddress {
            address.copyMemory(from: source, byteCount: utf8.count)
        }
        count &+= utf8.count
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
