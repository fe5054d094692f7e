import Foundation
import Trove

// @persistable(collection: "notes")
struct Note: Sendable, Equatable {
    var id: String
    var title: String
    var body: String
    var folder: String
    var date: Date
}
