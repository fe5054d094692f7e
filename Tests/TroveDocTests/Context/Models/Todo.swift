import Foundation
import Trove

// @persistable(collection: "todos")
struct Todo: Sendable, Equatable {
    var id: String
    var title: String
    var project: String
    var dueDate: Date
}
