// expect: 3:8: 'Item' has no key
// @persistable(collection: "items")
struct Item: Sendable {
    var name: String
}
