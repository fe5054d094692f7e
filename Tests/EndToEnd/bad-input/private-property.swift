// expect: 5:17: stored property 'secret' is private
// @persistable(collection: "items")
struct Item: Sendable {
    var id: String
    private var secret: String
}
