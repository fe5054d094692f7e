import Foundation
import Trove

// @persistable(collection: "messages")
struct Message: Sendable, Equatable {
    var id: String
    var conversationID: String
    var folder: String
    var sender: String
    var date: Date
    var subject: String
    var body: String
    var labels: [String] = []
    // @indexed
    var isUnread: Bool = true
    // @indexed
    var isArchived: Bool = false
    // @metadata
    var metadata: MessageNotes?
}
