import Foundation

// @persistable(collection: "notes")
struct Note: Sendable, Equatable {
    var id: UUID
    var text: String
    var bookID: String?
}
