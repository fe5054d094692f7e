import Foundation
import Trove

// @persistable(collection: "users")
struct User: Sendable, Equatable {
    var id: String
    var name: String
    // @indexed(unique: true)
    var email: String
    // @indexed
    var age: Int
    // @indexed
    var city: String?
    // @indexed
    var nickname: String?
    var address: Address?
    var isAdmin: Bool = false
    // @metadata
    var metadata: UserStats?
}
