// expect: 4:9: key 'id' must not be optional
// @persistable(collection: "items")
struct Item: Sendable {
    var id: String?
}
