import Foundation
import Synchronization

/// A ``Persistable`` type whose decoded items the connections of a database share, so that an
/// item read by several connections is decoded once: YapDatabase's `share` object policy.
///
/// Conform a type whose items are immutable once decoded (a struct, or a final class with only
/// `let` properties), and give the database a ``Configuration/sharedItemCacheLimit``:
///
/// ```swift
/// extension Country: ShareableItem {}
///
/// var configuration = Configuration()
/// configuration.sharedItemCacheLimit = 5_000
/// ```
///
/// Sharing never hands out a value that differs from what the connection's snapshot stores: a
/// shared value is used only when the bytes it was decoded from are the bytes the connection
/// reads, so a connection at an older snapshot and one at a newer snapshot each get their own
/// version. The saving is the decoding, not the read of the row.
///
/// - Important: A shared item is the same instance on every connection: a class item must not
///   be mutated after decoding, or every connection sees the change.
public protocol ShareableItem: Persistable {}

/// The decoded values of ``ShareableItem`` types, shared by the connections of one database,
/// each stored with the bytes it was decoded from (see ``ShareableItem``).
final class SharedItemCache: Sendable {
    /// A shared value and the bytes it was decoded from; `Sendable` since `Data` and the value
    /// are.
    struct Entry: Sendable {
        var data: Data
        var metadata: Data?
        var value: any Sendable
    }

    /// The most entries kept; `0` turns sharing off.
    let limit: Int
    /// The entries. When full, storing a new one evicts an arbitrary other: the cache is a
    /// saving, and keeping it exactly least-recently-used would cost every hit a write under
    /// the lock that every connection takes.
    private let entries: Mutex<[CacheKey: Entry]>

    init(limit: Int) {
        self.limit = max(0, limit)
        self.entries = Mutex([:])
    }

    var isEnabled: Bool { limit > 0 }

    /// The shared value at `key` if it was decoded from exactly `data` and `metadata`.
    func value(for key: CacheKey, data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer?) -> (any Sendable)? {
        let entry = entries.withLock { $0[key] }
        guard let entry, Self.equal(entry.data, data), Self.equal(entry.metadata, metadata) else { return nil }
        return entry.value
    }

    /// Shares `value`, decoded from `data` and `metadata`, replacing what was shared at `key`.
    func store(_ value: any Sendable, for key: CacheKey, data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer?) {
        let entry = Entry(data: Data(data), metadata: metadata.map { Data($0) }, value: value)
        let limit = limit
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= limit, let first = entries.indices.first {
                entries.remove(at: first)
            }
            entries[key] = entry
        }
    }

    /// Forgets every shared value.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// The number of shared values.
    var count: Int {
        entries.withLock { $0.count }
    }

    private static func equal(_ stored: Data?, _ bytes: UnsafeRawBufferPointer?) -> Bool {
        guard let stored, let bytes else { return stored == nil && bytes == nil }
        guard stored.count == bytes.count else { return false }
        return stored.withUnsafeBytes { storedBytes in
            storedBytes.count == 0 || memcmp(storedBytes.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
    }
}

extension ReadTransaction {
    /// Whether the database shares decoded items between connections.
    @usableFromInline
    var sharesDecodedItems: Bool {
        checkedCore.database.sharedItems.isEnabled
    }

    /// Reads the row at `cacheKey` and returns the shared value decoded from its bytes, or
    /// decodes it with `decode` and shares it. Returns `nil` when there is no row.
    @usableFromInline
    func readSharedItem(
        at cacheKey: CacheKey, withMetadata: Bool,
        decode: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> any Sendable
    ) throws -> (any Sendable)? {
        recorder?.recordKey(cacheKey.key, in: cacheKey.collection)
        let shared = checkedCore.database.sharedItems
        let statement = try checkedCore.sqlite.cachedStatement(withMetadata ? FileLayout.selectItem : FileLayout.selectData)
        defer { statement.reset() }
        try statement.bind(cacheKey.collection, at: 1)
        try statement.bind(cacheKey.key, at: 2)
        guard try statement.step() else { return nil }
        let data = statement.bytes(at: 0)
        let metadata = withMetadata && !statement.isNull(at: 1) ? statement.bytes(at: 1) : nil
        if let value = shared.value(for: cacheKey, data: data, metadata: metadata) {
            return value
        }
        let value = try decode(data, metadata)
        shared.store(value, for: cacheKey, data: data, metadata: metadata)
        return value
    }
}

extension Database {
    /// Forgets the decoded items that connections share (see ``ShareableItem``), for memory
    /// pressure. Each connection's own cache is flushed by ``Connection/flushCaches()``.
    public func flushSharedItems() {
        sharedItems.removeAll()
    }

    /// The number of decoded items that connections share (see ``ShareableItem``).
    public var sharedItemCount: Int {
        sharedItems.count
    }
}
