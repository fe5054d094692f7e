// expect: 6:8: 'Item' already has '@key' property 'id'; an item has one key
// @persistable(collection: "items")
struct Item: Sendable {
    // @key
    var id: String
    // @key
    var name: String
}
