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
        self.collection = collection
        self.key = key
        var hasher = Hasher()
        hasher.combine(collection)
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
