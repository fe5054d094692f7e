import Foundation
import Trove

// @persistable(collection: "tags")
struct Tag: Sendable, Equatable {
    var id: String
    var name: String
}
