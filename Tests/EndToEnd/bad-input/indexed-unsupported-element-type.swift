// expect: 5:8: '@indexed' property 'shapes' has type '[Shape]', an array or set of 'Shape', which an index cannot store as the values of a multi-valued column; its elements may be: integers, Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer raw value (not optional)
// @persistable(collection: "items")
struct Item: Sendable {
    var id: String
    // @indexed
    var shapes: [Shape]
}

// @coded
struct Shape: Sendable {
    var sides: Int
}
