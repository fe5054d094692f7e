// expect: 2:17: unknown argument 'table' of '@persistable'
// @persistable(table: "items")
struct Item: Sendable {
    var id: String
}
