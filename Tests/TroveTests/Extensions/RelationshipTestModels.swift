import Foundation
import Trove

/// A user: the destination of posts' authors.
struct RUser: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<RUser>
    static let collection = "r_users"
    var id: String
    var avatarID: String?
}

/// A post, with an author, tags, and a manual "related" link.
struct RPost: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<RPost>
    static let collection = "r_posts"
    var id: String
    var authorID: String?
    var tagIDs: [String] = []
    var title = ""
}

/// A tag, an avatar: destinations without edges of their own.
struct RTag: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<RTag>
    static let collection = "r_tags"
    var id: String
}

/// An album whose photos are its destinations.
struct RAlbum: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<RAlbum>
    static let collection = "r_albums"
    var id: String
    var photoIDs: [String]
}

/// A node of a graph: edges to other nodes, for cycles and the model-based test.
struct RNode: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<RNode>
    static let collection = "r_nodes"
    var id: String
    var next: [String] = []
    var owned: [String] = []
}

/// A note whose "about" destination notifies it, and which forgets the destination then.
struct RNote: Persistable, Codable, Equatable, RelationshipNotifiable {
    typealias Coder = CodableCoder<RNote>
    static let collection = "r_notes"
    var id: String
    var aboutID: String?

    func relatedItemRemoved(_ notice: RelationshipNotice) -> RelationshipReaction<RNote> {
        var copy = self
        copy.aboutID = nil
        return .write(copy)
    }
}

enum RelationshipFixtures {
    static let posts = Relationships<RPost>(
        "r_post_edges",
        edges: [
            .to("author", RUser.self, rules: .deleteSourceWhenDestinationDeleted) { $0.authorID },
            .to("tags", RTag.self, rules: .deleteDestinationWhenAllSourcesDeleted) { $0.tagIDs },
            .manual("related", to: RPost.self),
        ])
    static let users = Relationships<RUser>(
        "r_user_edges",
        edges: [.to("avatar", RTag.self, rules: .deleteDestinationWhenSourceDeleted) { $0.avatarID }])
    static let albums = Relationships<RAlbum>(
        "r_album_edges",
        edges: [.to("photos", RTag.self, rules: .deleteSourceWhenAllDestinationsDeleted) { $0.photoIDs }])
    /// `next`: the source goes with any destination; `owned`: destinations go with the source.
    static let nodes = Relationships<RNode>(
        "r_node_edges",
        edges: [
            .to("next", RNode.self, rules: .deleteSourceWhenDestinationDeleted) { $0.next },
            .to("owned", RNode.self, rules: .deleteDestinationWhenSourceDeleted) { $0.owned },
        ])
    static let notes = Relationships<RNote>(
        "r_note_edges",
        edges: [.to("about", RUser.self, rules: .notifySourceWhenDestinationDeleted) { $0.aboutID }])
    static let userNotices = Relationships<RUser>(
        "r_user_notices",
        edges: [.to("avatar", RTag.self, rules: .notifyDestinationWhenSourceDeleted) { $0.avatarID }])

    static var all: [DatabaseExtension] {
        [
            posts.databaseExtension, users.databaseExtension, albums.databaseExtension, nodes.databaseExtension,
            notes.databaseExtension,
        ]
    }
}
