// expect: 5:8: '@indexed' applies to a stored property; 'shout' is computed
// @persistable(collection: "items")
struct Item: Sendable {
    var id: String
    // @indexed
    var shout: String { id.uppercased() }
}
