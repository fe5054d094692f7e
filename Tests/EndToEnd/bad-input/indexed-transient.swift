// expect: 6:8: '@transient' property 'cache' cannot also be '@indexed'
// @persistable(collection: "items")
struct Item: Sendable {
    var id: String
    // @indexed
    // @transient
    var cache: Int = 0
}
