import Foundation
import Trove

// @persistable(collection: "topics")
struct Topic: Sendable, Equatable {
    var id: String
    var name: String
}
