import Foundation
import Trove

// @coded
struct UserStats: Sendable, Equatable {
    // @indexed
    var loginCount: Int
    var visits: Int
}
