import Foundation

/// The address of an item: its collection and key.
///
/// The hash of the two strings is computed once, when the key is made. One cache operation
/// hashes keys several times (the lookup, the insertion, the eviction of another entry; a write
/// caches the item and its metadata under the same key), and hashing one integer costs far less
/// than hashing two strings again.
///
/// Package access: TrovePostgres's cache keys its items the same way.
@usableFromInline
package struct CacheKey: Hashable, Sendable {
    package let collection: String
    package let key: String
    /// The hash of the collection and the key, computed once.
    let hash: Int

    @usableFromInline
    package init(collection: String, key: String) {
        self.init(keyOf: CollectionKeys(collection), key: key)
    }

    /// The key `key` of the collection of `keys`, hashed from the collection's part of the
    /// hash that `keys` holds: the same hash as ``init(collection:key:)`` gives.
    init(keyOf keys: CollectionKeys, key: String) {
        collection = keys.collection
        self.key = key
        var hasher = keys.hasher
        hasher.combine(key)
        hash = hasher.finalize()
    }

    /// Keys are equal when their bytes are, as SQLite compares them: Swift's `==` on strings
    /// holds for canonically equivalent strings ("caf\u{E9}" and "cafe\u{301}"), which are two
    /// keys, two items, in the file. (Equal bytes make equal strings, so the hash still agrees.)
    @usableFromInline
    package static func == (lhs: CacheKey, rhs: CacheKey) -> Bool {
        lhs.hash == rhs.hash && sameBytes(lhs.key, rhs.key) && sameBytes(lhs.collection, rhs.collection)
    }

    /// Whether `a` and `b` have the same UTF-8 bytes.
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        let contiguous = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second in
                first.count == second.count
                    && (first.count == 0 || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
            }
        }
        if let contiguous, let result = contiguous { return result }
        return a.utf8.elementsEqual(b.utf8)
    }

    @usableFromInline
    package func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

/// Makes the cache keys of one collection: the collection's part of their hash is computed once,
/// where a read of many rows (a view's page, an index query) would hash the collection's name
/// again for each.
struct CollectionKeys {
    let collection: String
    /// A hasher that has combined the collection.
    let hasher: Hasher

    init(_ collection: String) {
        self.collection = collection
        var hasher = Hasher()
        hasher.combine(collection)
        self.hasher = hasher
    }

    /// The cache key of `key` in the collection.
    func callAsFunction(_ key: String) -> CacheKey {
        CacheKey(keyOf: self, key: key)
    }
}
