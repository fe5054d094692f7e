import Foundation

/// A blog post: edges to a `User` of another file, to an optional editor and to topics.
// @persistable(collection: "posts")
struct Post: Sendable, Equatable {
    var id: String
    var title: String
    /// A post goes with its author: `post.author(in:)`, and `user.posts(in:)` the other way.
    // @relationship(to: User.self, onDelete: .deleteSource)
    var authorID: User.ID
    /// An optional key, written as the key type: `nil` is no edge. The post hears that its
    /// editor went.
    // @relationship(to: User.self, inverse: "editedPosts", onDelete: .notifySource)
    var editorID: UUID?
    /// A topic goes with the last post about it.
    // @relationship(to: Topic.self, onDelete: .deleteDestinationWithLastSource)
    var topicIDs: [Topic.ID] = []
    // @indexed
    var isDraft: Bool = false
}

/// What posts are about.
// @persistable(collection: "topics")
struct Topic: Sendable, Equatable {
    var id: String
    var name: String
}

/// A tree of folders: a folder goes with its parent, so removing a folder removes its subtree.
// @persistable(collection: "folders")
struct Folder: Sendable, Equatable {
    var id: Int
    var name: String
    // @relationship(to: Folder.self, name: "parent", inverse: "children", onDelete: .deleteSource)
    var parentID: Int?
}

/// An album of photos: it goes when its last photo goes, its cover photo goes with it, and its
/// owner hears that it went.
// @persistable(collection: "albums")
struct Album: Sendable, Equatable {
    var id: String
    // @relationship(to: Photo.self, onDelete: .deleteSourceWithLastDestination)
    var photoIDs: Set<Photo.ID> = []
    // @relationship(to: Photo.self, name: "cover", inverse: "coveredAlbums", onDelete: [.deleteDestination])
    var coverID: String?
    // @relationship(to: User.self, name: "owner", inverse: "albums", onDelete: [.notifyDestination])
    var ownerID: User.ID?
}

/// A photo of albums.
// @persistable(collection: "photos")
struct Photo: Sendable, Equatable {
    var id: String
    var caption: String = ""
}

/// A letter with files beside the database (edges to files, which generate no query): an
/// attachment goes with the last letter that names it, a signature with its letter, and the
/// scans are only followed (no rule).
// @persistable(collection: "letters")
struct Letter: Sendable, Equatable {
    var id: String
    // @relationship(toFiles: "attachments", onDelete: .deleteDestinationWithLastSource)
    var attachmentPaths: [String] = []
    // @relationship(toFiles: "signatures", name: "signature", onDelete: .deleteDestination)
    var signaturePath: String?
    // @relationship(toFiles: "scans")
    var scanPaths: Set<String>? = nil
}
