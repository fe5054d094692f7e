// expect: 5:8: '@indexed' property 'tags' has type '[String]', which an index cannot store; supported: integers, Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer raw value, and optionals of these
// @persistable(collection: "items")
struct Item: Sendable {
    var id: String
    // @indexed
    var tags: [String]
}
