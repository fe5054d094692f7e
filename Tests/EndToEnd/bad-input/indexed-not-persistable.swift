// expect: 4:8: '@indexed' applies to properties of a @persistable type or of its @metadata type; 'Address' is @coded and not the metadata of a @persistable type
// @coded
struct Address: Sendable {
    // @indexed
    var city: String
}
