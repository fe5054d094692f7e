/// The address of an item: its collection and key.
///
/// The hash of the two strings is computed once, when the key is made. One cache operation
/// hashes keys several times (the lookup, the insertion, the eviction of another entry; a write
/// caches the item and its metadata under the same key), and hashing one integer costs far less
/// than hashing two strings again.
@usableFromInline
struct CacheKey: Hashable, Sendable {
    let collection: String
    let key: String
    /// The hash of the collection and the key, computed once.
    let hash: Int

    @usableFromInline
    init(collection: String, key: String) {
        self.collection = collection
        self.key = key
        var hasher = Hasher()
        hasher.combine(collection)
        hasher.combine(key)
        hash = hasher.finalize()
    }

    @usableFromInline
    static func == (lhs: CacheKey, rhs: CacheKey) -> Bool {
        lhs.hash == rhs.hash && lhs.key == rhs.key && lhs.collection == rhs.collection
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
