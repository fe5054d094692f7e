import Foundation
import Trove

// @persistable(collection: "countries")
struct Country: Sendable, Equatable {
    var id: String
    var name: String
}
