import Foundation

/// The metadata of a ``User``: small, often updated, read without decoding the user.
// @coded
struct UserStats: Sendable, Equatable {
    var loginCount: Int
    var lastLogin: Date
}
