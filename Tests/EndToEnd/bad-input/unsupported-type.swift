// expect: 5:9: property 'handler' of type '@Sendable () -> Void' cannot be stored
// @persistable(collection: "items")
struct Item: Sendable {
    var id: String
    var handler: @Sendable () -> Void
}
