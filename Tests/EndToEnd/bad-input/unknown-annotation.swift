// expect: 2:4: unknown annotation '@persistible'; did you mean '@persistable'?
// @persistible(collection: "items")
struct Item: Sendable {
    var id: String
}
