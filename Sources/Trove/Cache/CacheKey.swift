/// The address of an item: its collection and key.
struct CacheKey: Hashable {
    var collection: String
    var key: String
}
