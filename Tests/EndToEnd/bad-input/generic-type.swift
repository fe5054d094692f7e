// expect: 3:8: generic type 'Box' cannot be
// @persistable(collection: "boxes")
struct Box<Value: Sendable>: Sendable {
    var id: String
    var value: Value
}
