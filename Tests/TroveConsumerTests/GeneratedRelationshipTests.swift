import Foundation
import Testing
import Trove

/// The relationships that trove-gen generated from the `@relationship` fields of the showcase
/// (`Models/Blog.swift`): a key, an optional key written as the key type, an array and a set of
/// keys, a relationship of a type to itself, and every delete rule.
struct GeneratedRelationshipTests {
    static let ada = User(userID: UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!, name: "Ada", email: "ada@x")
    static let grace = User(
        userID: UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!, name: "Grace", email: "grace@x")
    static let linus = User(
        userID: UUID(uuidString: "00000000-0000-0000-0000-00000000000C")!, name: "Linus", email: "linus@x")

    static func open() throws -> (Database, Connection) {
        let database = try Database.temporary(models: [User.self, Post.self, Folder.self, Album.self])
        return (database, try database.newConnection())
    }

    static func post(_ id: String, by author: User, editor: User? = nil, topics: [String] = []) -> Post {
        Post(id: id, title: id, authorID: author.id, editorID: editor?.id, topicIDs: topics)
    }

    static func exists<Item: Persistable>(_ type: Item.Type, _ key: Item.ID, in connection: Connection) throws -> Bool {
        try connection.read { tx in try tx.read(Item.self, key: key) != nil }
    }

    @Test func registeringTheModelRegistersItsRelationships() throws {
        #expect(Post.databaseExtensions.map(\.name) == [Post.index.name, Post.relationships.name])
        #expect(Folder.databaseExtensions.map(\.name) == ["Folder_relationships"])
        #expect(Post.relationships.edges.map(\.name) == ["author", "editor", "topics"])
        #expect(Post.relationships.edges.map(\.destinationCollection) == ["users", "users", "topics"])
        #expect(
            Post.relationships.edges.map(\.rules) == [
                .deleteSourceWhenDestinationDeleted, .notifySourceWhenDestinationDeleted,
                .deleteDestinationWhenAllSourcesDeleted,
            ])
        #expect(
            Album.relationships.edges.map(\.rules) == [
                .deleteSourceWhenAllDestinationsDeleted, .deleteDestinationWhenSourceDeleted,
                .notifyDestinationWhenSourceDeleted,
            ])
        #expect(Folder.relationships.edges.map(\.name) == ["parent"])
        let (database, _) = try Self.open()
        #expect(database.orphanedExtensions.isEmpty)
    }

    @Test func typedQueriesReturnTheRightItems() throws {
        let (_, connection) = try Self.open()
        let p1 = Self.post("p1", by: Self.ada, editor: Self.grace, topics: ["swift", "sql"])
        let p2 = Self.post("p2", by: Self.ada)
        let p3 = Self.post("p3", by: Self.grace, topics: ["sql", "never-stored"])
        let swift = Topic(id: "swift", name: "Swift")
        let sql = Topic(id: "sql", name: "SQL")
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([Self.ada, Self.grace, Self.linus])
            try tx.write([swift, sql])
            try tx.write([p3, p1, p2])
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try p1.author.first(tx) == Self.ada)
            #expect(try p1.editor.first(tx) == Self.grace)
            #expect(try p2.editor.first(tx) == nil)
            #expect(try p1.topics.items(tx) == [sql, swift], "in the order of their keys")
            #expect(try p3.topics.items(tx) == [sql], "a key with no item is skipped")
            #expect(try Self.ada.posts.items(tx) == [p1, p2])
            #expect(try Self.ada.posts.count(tx) == 2)
            #expect(try Self.grace.posts.items(tx) == [p3])
            #expect(try Self.grace.editedPosts.items(tx) == [p1])
            #expect(try Self.ada.editedPosts.count(tx) == 0)
            #expect(try Self.linus.posts.items(tx).isEmpty)
            #expect(try sql.posts.items(tx) == [p1, p3])
            #expect(try swift.posts.count(tx) == 1)
        }
        let root = Folder(id: 1, name: "root", parentID: nil)
        let docs = Folder(id: 2, name: "docs", parentID: 1)
        let music = Folder(id: 3, name: "music", parentID: 1)
        try connection.write { tx in try tx.write([root, docs, music]) }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try root.children.items(tx) == [docs, music])
            #expect(try docs.parent.first(tx) == root)
            #expect(try root.parent.first(tx) == nil)
        }
        let cover = Photo(id: "cover")
        let album = Album(id: "trip", photoIDs: ["x", "cover"], coverID: "cover", ownerID: Self.ada.id)
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([cover, Photo(id: "x")])
            try tx.write(album)
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try album.photos.items(tx).map(\.id).sorted() == ["cover", "x"])
            #expect(try album.cover.first(tx) == cover)
            #expect(try album.owner.first(tx) == Self.ada)
            #expect(try cover.albums.items(tx) == [album])
            #expect(try cover.coveredAlbums.items(tx) == [album])
            #expect(try Self.ada.albums.items(tx) == [album])
        }
    }

    /// Writing a changed key property moves the edge: the old destination loses the source,
    /// the new one gains it, and the rules follow the new edge.
    @Test func edgesMoveWhenTheKeyPropertyChanges() throws {
        let (_, connection) = try Self.open()
        var p1 = Self.post("p1", by: Self.ada, topics: ["a", "b"])
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([Self.ada, Self.grace])
            try tx.write([Topic(id: "a", name: "A"), Topic(id: "b", name: "B")])
            try tx.write(p1)
        }
        p1.authorID = Self.grace.id
        p1.topicIDs = ["b"]
        try connection.write { tx in try tx.write(p1) }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try Self.ada.posts.items(tx).isEmpty)
            #expect(try Self.grace.posts.items(tx) == [p1])
            #expect(try Topic(id: "a", name: "A").posts.count(tx) == 0)
            #expect(try Topic(id: "b", name: "B").posts.items(tx) == [p1])
        }
        // The old author's removal no longer reaches the post; the new author's does.
        try connection.write { tx in _ = try tx.remove(User.self, key: Self.ada.id) }
        #expect(try Self.exists(Post.self, "p1", in: connection))
        try connection.write { tx in _ = try tx.remove(User.self, key: Self.grace.id) }
        #expect(try !Self.exists(Post.self, "p1", in: connection))
    }

    /// `.deleteSource`: removing a user removes her posts in the same transaction, where the
    /// index of `Post` no longer finds them; `.deleteDestinationWithLastSource`: a topic goes
    /// with the last post about it.
    @Test func deleteSourceAndDeleteDestinationWithLastSourceCascade() throws {
        let (_, connection) = try Self.open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([Self.ada, Self.grace])
            try tx.write([Topic(id: "solo", name: "Solo"), Topic(id: "shared", name: "Shared")])
            try tx.write(Self.post("p1", by: Self.ada, topics: ["solo", "shared"]))
            try tx.write(Self.post("p2", by: Self.ada))
            try tx.write(Self.post("p3", by: Self.grace, topics: ["shared"]))
        }
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            #expect(try Post.query.filter(.isDraft(false)).keys(tx) == ["p1", "p2", "p3"])
            _ = try tx.remove(User.self, key: Self.ada.id)
            #expect(try Post.query.filter(.isDraft(false)).keys(tx) == ["p3"], "gone from the index in the transaction")
            #expect(try tx.read(Topic.self, key: "solo") == nil, "its last post went")
            #expect(try tx.read(Topic.self, key: "shared") != nil, "p3 is still about it")
        }
        try connection.write { tx in _ = try tx.remove(Post.self, key: "p3") }
        #expect(try !Self.exists(Topic.self, "shared", in: connection))
        #expect(try Self.exists(User.self, Self.grace.id, in: connection), "a post's removal leaves its author")
    }

    /// `.notifySource`: the post hears that its editor went (it forgets the editor), and the
    /// changeset carries the notice.
    @Test func notifySourceReachesThePostAndTheChangeset() async throws {
        let (database, connection) = try Self.open()
        try await connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([Self.ada, Self.grace])
            try tx.write(Self.post("p1", by: Self.ada, editor: Self.grace))
        }
        var changes = database.changes.makeAsyncIterator()
        try await connection.write { tx in _ = try tx.remove(User.self, key: Self.grace.id) }
        let changeset = try #require(await changes.next())
        #expect(
            changeset.relationshipNotices == [
                RelationshipNotice(
                    relationship: Post.relationships.name, edge: "editor", removed: .destination,
                    source: ItemAddress(collection: Post.collection, key: "p1"),
                    destination: ItemAddress(collection: User.collection, key: Self.grace.id.uuidString))
            ])
        let p1 = try await connection.read { tx in try tx.read(Post.self, key: "p1") }
        #expect(p1?.editorID == nil)
        #expect(p1?.authorID == Self.ada.id)
    }

    /// `.deleteDestination` removes an album's cover with it, `.notifyDestination` tells its
    /// owner, and `.deleteSourceWithLastDestination` removes an album with its last photo.
    @Test func albumRulesCascade() throws {
        let (_, connection) = try Self.open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(Self.ada)
            try tx.write([Photo(id: "cover"), Photo(id: "x"), Photo(id: "y"), Photo(id: "z")])
            try tx.write(Album(id: "covered", photoIDs: ["z"], coverID: "cover", ownerID: Self.ada.id))
            try tx.write(Album(id: "two", photoIDs: ["x", "y"], coverID: "cover"))
        }
        try connection.write { tx in _ = try tx.remove(Album.self, key: "covered") }
        // With this album, though another album has it as its cover too (not the last source).
        #expect(try !Self.exists(Photo.self, "cover", in: connection))
        #expect(try Self.exists(Photo.self, "z", in: connection), "only the cover goes with the album")
        let owner = try connection.read { tx in try tx.read(User.self, key: Self.ada.id) }
        #expect(owner?.tags == ["lost album covered"])

        try connection.write { tx in _ = try tx.remove(Photo.self, key: "x") }
        #expect(try Self.exists(Album.self, "two", in: connection), "one photo is left")
        try connection.write { tx in _ = try tx.remove(Photo.self, key: "y") }
        #expect(try !Self.exists(Album.self, "two", in: connection), "its last photo went")
    }

    /// A folder goes with its parent: a cascade of cascades down a tree, which also ends on a
    /// cycle of parents.
    @Test func folderTreesCascadeAndCyclesEnd() throws {
        let (_, connection) = try Self.open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(Folder(id: 1, name: "root", parentID: nil))
            for id in 2...20 { try tx.write(Folder(id: id, name: "f\(id)", parentID: id / 2)) }
            try tx.write(Folder(id: 100, name: "other", parentID: nil))
            try tx.write([Folder(id: 200, name: "cycle a", parentID: 201), Folder(id: 201, name: "cycle b", parentID: 200)])
        }
        try connection.write { tx in _ = try tx.remove(Folder.self, key: 2) }
        let left = try connection.read { tx in try tx.readAll(Folder.self).map(\.id).sorted() }
        // 2's subtree is 2, 4, 5, 8, 9, 10, 11, 16, 17, 18, 19, 20.
        #expect(left == [1, 3, 6, 7, 12, 13, 14, 15, 100, 200, 201])
        try connection.write { tx in _ = try tx.remove(Folder.self, key: 200) }
        #expect(try connection.read { tx in try tx.readAll(Folder.self).map(\.id).sorted() } == [1, 3, 6, 7, 12, 13, 14, 15, 100])
        try connection.write { tx in _ = try tx.removeAll(Folder.self) }
        #expect(try connection.read { tx in try tx.readAll(Folder.self) }.isEmpty)
    }

    /// A transaction that throws after a cascade leaves items and edges as they were.
    @Test func rollbackKeepsItemsAndEdges() throws {
        struct Stop: Error {}
        let (_, connection) = try Self.open()
        let p1 = Self.post("p1", by: Self.ada)
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(Self.ada)
            try tx.write(p1)
        }
        #expect(throws: Stop.self) {
            try connection.write { (tx: ReadWriteTransaction) throws -> Void in
                _ = try tx.remove(User.self, key: Self.ada.id)
                #expect(try tx.read(Post.self, key: "p1") == nil)
                throw Stop()
            }
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try Self.ada.posts.items(tx) == [p1])
            #expect(try p1.author.first(tx) == Self.ada)
        }
    }

    /// The generated edges to files of `Letter` (`toFiles:`): a file named by a letter goes after
    /// the commit of the transaction that removed the letter, and is still there inside it; an
    /// attachment named by another letter stays until the last one goes; a file of an edge without
    /// rules stays.
    @Test func generatedEdgesToFilesRemoveFilesAfterTheCommit() throws {
        #expect(Letter.databaseExtensions.map(\.name) == ["Letter_relationships"])
        #expect(Letter.relationships.edges.map(\.name) == ["attachmentPaths", "signature", "scanPaths"])
        #expect(Letter.relationships.edges.map(\.fileFolder) == ["attachments", "signatures", "scans"])
        #expect(
            Letter.relationships.edges.map(\.rules) == [
                .deleteDestinationWhenAllSourcesDeleted, .deleteDestinationWhenSourceDeleted, [],
            ])
        let database = try Database.temporary(models: [Letter.self])
        let connection = try database.newConnection()
        // The files first, then the letters that name them.
        func file(_ path: String, edge: String) throws -> String {
            let full = try Letter.relationships.fullPath(ofFile: path, edge: edge, in: database)
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(path.utf8).write(to: URL(fileURLWithPath: full))
            return full
        }
        let shared = try file("shared.pdf", edge: "attachmentPaths")
        let own = try file("a.pdf", edge: "attachmentPaths")
        let signature = try file("a.png", edge: "signature")
        let scan = try file("a.tiff", edge: "scanPaths")
        let a = Letter(id: "a", attachmentPaths: ["shared.pdf", "a.pdf"], signaturePath: "a.png", scanPaths: ["a.tiff"])
        let b = Letter(id: "b", attachmentPaths: ["shared.pdf"])
        try connection.write { tx in try tx.write([a, b]) }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            let attachments = try Letter.relationships.filePaths(of: "a", edge: "attachmentPaths", in: tx)
            #expect(attachments == ["a.pdf", "shared.pdf"])
            #expect(try Letter.relationships.filePaths(of: "a", edge: "signature", in: tx) == ["a.png"])
            #expect(try Letter.relationships.filePaths(of: "a", edge: "scanPaths", in: tx) == ["a.tiff"])
        }
        let manager = FileManager.default
        try connection.write { tx in
            _ = try tx.remove(Letter.self, key: "a")
            // Inside the transaction every file is still there: a rollback could not bring it back.
            #expect([shared, own, signature, scan].allSatisfy(manager.fileExists(atPath:)))
        }
        #expect(!manager.fileExists(atPath: own), "its last letter went")
        #expect(!manager.fileExists(atPath: signature), "its letter went")
        #expect(manager.fileExists(atPath: shared), "letter b still names it")
        #expect(manager.fileExists(atPath: scan), "no rule")
        try connection.write { tx in _ = try tx.remove(Letter.self, key: "b") }
        #expect(!manager.fileExists(atPath: shared), "its last letter went")
    }
}

extension Post: RelationshipNotifiable {
    /// The editor went: the post forgets it.
    func relatedItemRemoved(_ notice: RelationshipNotice) -> RelationshipReaction<Post> {
        var post = self
        post.editorID = nil
        return .write(post)
    }
}

extension User: RelationshipNotifiable {
    /// An album of the user went: the user's tags say so.
    func relatedItemRemoved(_ notice: RelationshipNotice) -> RelationshipReaction<User> {
        var user = self
        user.tags.append("lost album \(notice.source.key)")
        return .write(user)
    }
}
