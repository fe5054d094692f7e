// expect: 6:9: '@transient' property 'cache' needs a default value
// @persistable(collection: "items")
struct Item: Sendable {
    var id: String
    // @transient
    var cache: Int
}
