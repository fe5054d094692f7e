import Foundation
import Trove

// @persistable(collection: "posts")
struct Post: Sendable, Equatable {
    var id: String
    var title: String
    // @relationship(to: User.self, onDelete: .deleteSource)
    var authorID: User.ID
    // @relationship(to: Tag.self, onDelete: .deleteDestinationWithLastSource)
    var tagIDs: [Tag.ID] = []
}
