/// Two versions of one model sharing the collection "notes": data written by either is read
/// by the other.

/// Version 1.
// @persistable(collection: "notes")
struct NoteV1: Sendable, Equatable {
    var id: String
    var title: String
    var body: String?
    var legacyFlag: Bool = false
    var subtitle: String?
}

/// Version 2: fields reordered, `pinned` added with a default, `legacyFlag` removed, `body`
/// renamed `text`, `subtitle` made non-optional with a default.
// @persistable(collection: "notes")
struct NoteV2: Sendable, Equatable {
    var subtitle: String = ""
    var pinned: Bool = false
    var title: String
    // @renamed(from: "body")
    var text: String?
    var id: String
}
