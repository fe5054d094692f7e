import Foundation
import Trove

// @persistable(collection: "orders")
struct Order: Sendable, Equatable {
    var id: String
    var total: Int
}
