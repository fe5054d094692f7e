/// Nested types: `Library.Book` is an item, `Library.Author` a value declared in an extension.
enum Library {
    // @persistable(collection: "books")
    struct Book: Sendable, Equatable {
        // @key
        var isbn: String
        var title: String
        var author: Author
        // @renamed(from: "year")
        var publicationYear: Int?
    }
}

extension Library {
    // @coded
    struct Author: Sendable, Equatable {
        var name: String
        var born: Int?
    }
}
