// expect: 5:8: '@indexed' property 'tags' has type '[String: Int]', which an index cannot store; supported: integers, Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer raw value, optionals of these, and arrays and sets of these (a multi-valued column)
// @persistable(collection: "items")
struct Item: Sendable {
    var id: String
    // @indexed
    var tags: [String: Int]
}
