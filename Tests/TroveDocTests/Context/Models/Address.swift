import Foundation
import Trove

// @coded
struct Address: Sendable, Equatable {
    var street: String
    var city: String
}
