import Foundation

/// How a raw SQLite implementation turns a user and its metadata into the two blobs of a row,
/// and back.
protocol ItemCoder {
    init()

    /// Encodes `user` (without its metadata) and its metadata, then calls `body` with the bytes,
    /// valid only during the call.
    mutating func withEncoded<T>(
        _ user: User, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> T
    ) throws -> T

    /// Decodes a user and its metadata from the blobs of a row.
    mutating func decode(data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer?) throws -> User

    /// Decodes metadata alone.
    mutating func decodeMetadata(_ bytes: UnsafeRawBufferPointer) throws -> UserStats
}

/// The baseline's coder: ``HandWrittenCoder`` into reused buffers.
struct HandWrittenItemCoder: ItemCoder {
    private let data = CompactWriter(capacity: 512)
    private let metadata = CompactWriter(capacity: 64)

    init() {}

    @inline(__always)
    mutating func withEncoded<T>(
        _ user: User, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> T
    ) throws -> T {
        data.removeAll()
        HandWrittenCoder.encode(user, to: data)
        guard let stats = user.metadata else {
            return try data.withUnsafeBytes { try body($0, nil) }
        }
        metadata.removeAll()
        HandWrittenCoder.encode(stats, to: metadata)
        return try data.withUnsafeBytes { data in
            try metadata.withUnsafeBytes { metadata in try body(data, metadata) }
        }
    }

    @inline(__always)
    mutating func decode(data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer?) throws -> User {
        var user = try HandWrittenCoder.decodeUser(from: data)
        if let metadata {
            user.metadata = try HandWrittenCoder.decodeStats(from: metadata)
        }
        return user
    }

    @inline(__always)
    mutating func decodeMetadata(_ bytes: UnsafeRawBufferPointer) throws -> UserStats {
        try HandWrittenCoder.decodeStats(from: bytes)
    }
}

/// The Codable+JSON coder: what a user who stores `Codable` values in SQLite writes, with one
/// reused `JSONEncoder` and `JSONDecoder`. The user is encoded without its metadata, which has
/// its own column as in the other implementations.
struct JSONItemCoder: ItemCoder {
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    init() {}

    mutating func withEncoded<T>(
        _ user: User, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> T
    ) throws -> T {
        var item = user
        item.metadata = nil
        let data = try encoder.encode(item)
        guard let stats = user.metadata else {
            return try data.withUnsafeBytes { try body($0, nil) }
        }
        let metadata = try encoder.encode(stats)
        return try data.withUnsafeBytes { data in
            try metadata.withUnsafeBytes { metadata in try body(data, metadata) }
        }
    }

    mutating func decode(data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer?) throws -> User {
        var user = try decoder.decode(User.self, from: Data(data))
        if let metadata {
            user.metadata = try decoder.decode(UserStats.self, from: Data(metadata))
        }
        return user
    }

    mutating func decodeMetadata(_ bytes: UnsafeRawBufferPointer) throws -> UserStats {
        try decoder.decode(UserStats.self, from: Data(bytes))
    }
}
