/// A model of a library target that ships its generated code committed (no build plugin).
// @persistable(collection: "books")
public struct Book: Sendable, Equatable {
    public var id: String
    public var title: String
    public var pages: Int

    public init(id: String, title: String, pages: Int) {
        self.id = id
        self.title = title
        self.pages = pages
    }
}
