import Foundation
import Trove

// @persistable(collection: "sessions")
struct Session: Sendable, Equatable {
    var id: String
    var userID: User.ID
}
