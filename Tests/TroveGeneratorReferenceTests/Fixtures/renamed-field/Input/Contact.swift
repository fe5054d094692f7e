// @persistable(collection: "contacts")
struct Contact: Sendable {
    var id: String
    // @renamed(from: "fullName")
    // @renamed(from: "displayName")
    var name: String
}
