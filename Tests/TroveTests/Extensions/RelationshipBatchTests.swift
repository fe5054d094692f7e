import Foundation
import Testing
import Trove

/// The removals a delete rule queues go through the write funnel as batches (issue 29): every
/// other extension of the sources' collection, the changeset and the connection's cache must
/// still see each removal of a batch.
@Suite("Relationships: batched cascades")
struct RelationshipBatchTests {
    typealias F = RelationshipFixtures

    /// The author edge alone, as in the benchmark: the removal of a source only deletes its edges,
    /// without reading them.
    static let authorsOnly = Relationships<RPost>(
        "r_batch_post_authors",
        edges: [.to("author", RUser.self, rules: .deleteSourceWhenDestinationDeleted) { $0.authorID }])
    /// Unique titles: a row the index kept for a removed post would refuse its title to another.
    static let byTitle = SecondaryIndex<RPost>(
        "r_batch_posts_by_title", columns: [.column("title", unique: true) { $0.title }])
    static let byAuthor = View<RPost>(
        "r_batch_posts_by_author", grouping: { post, _ in post.authorID ?? "none" }, sortedBy: [.ascending(\.title)])

    /// Which relationship of posts the test registers.
    enum Edges: String, CaseIterable, Sendable {
        /// ``RelationshipFixtures/posts``: the tags' rule and a manual edge make a removed source's
        /// edges read before they go, and the tags chain the cascade further.
        case everyRule
        /// ``authorsOnly``.
        case authorOnly
    }

    /// The removal of an author whose 61 posts cascade, their row ids in several ranges (every
    /// seventh post of the first write is another author's, and ten were written later): the
    /// index and the view drop every removed post in the same transaction, the connection's cache
    /// forgets each, the changeset lists each, and the other author's posts stay. The removed
    /// posts' titles are free again in the unique index.
    @Test(arguments: Edges.allCases)
    func aCascadeOfManySourcesReachesEveryExtensionTheChangesetAndTheCache(_ edges: Edges) async throws {
        let relationship = edges == .everyRule ? F.posts.databaseExtension : Self.authorsOnly.databaseExtension
        let database = try Database.temporary(
            extensions: [relationship, Self.byTitle.databaseExtension, Self.byAuthor.databaseExtension])
        let connection = try database.newConnection()
        func post(_ index: Int, author: String) -> RPost {
            RPost(
                id: String(format: "p%03d", index), authorID: author,
                tagIDs: author == "ada" ? ["ada-only", "shared"] : ["shared"], title: "title \(index)")
        }
        let first = (0..<60).map { post($0, author: $0 % 7 == 3 ? "bob" : "ada") }
        let later = [post(99, author: "bob")] + (100..<110).map { post($0, author: "ada") }
        try await connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([RUser(id: "ada"), RUser(id: "bob")])
            try tx.write([RTag(id: "ada-only"), RTag(id: "shared")])
            try tx.write(first)
        }
        try await connection.write { (tx: ReadWriteTransaction) throws -> Void in try tx.write(later) }
        let all = first + later
        let adas = Set(all.filter { $0.authorID == "ada" }.map(\.id))
        let bobs = Set(all.filter { $0.authorID == "bob" }.map(\.id))
        #expect(adas.count == 61 && bobs.count == 10)
        // Ada's posts are in the connection's cache.
        let cached = try await connection.read { (tx: ReadTransaction) throws -> Int in
            try tx.read(RPost.self, keys: adas.sorted()).count
        }
        #expect(cached == adas.count)

        var iterator = database.changes.makeAsyncIterator()
        try await connection.write { (tx: ReadWriteTransaction) throws -> Void in
            #expect(try tx.remove(RUser.self, key: "ada"))
            // In the same transaction, through the cache, the index and the view.
            for key in adas.sorted() {
                #expect(try tx.read(RPost.self, key: key) == nil, "\(key) read after its removal")
            }
            #expect(Set(try Self.byTitle.query.keys(tx)) == bobs)
            #expect(try Self.byAuthor.read(tx).count(in: "ada") == 0)
            #expect(Set(try Self.byAuthor.read(tx).keys(in: "bob")) == bobs)
        }
        let changeset = try #require(await iterator.next())
        #expect(changeset.removedKeys[RPost.collection] == adas)
        #expect(changeset.removedKeys[RUser.collection] == ["ada"])
        // The tags' rule: the tag of ada's posts alone went with the last of them.
        #expect(changeset.removedKeys[RTag.collection] == (edges == .everyRule ? ["ada-only"] : nil))

        try await connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(Set(try tx.readAll(RPost.self).map(\.id)) == bobs)
            #expect(Set(try Self.byTitle.query.keys(tx)) == bobs)
            #expect(try Self.byAuthor.read(tx).groups() == ["bob"])
            let tagsLeft: Set<String> = edges == .everyRule ? ["shared"] : ["ada-only", "shared"]
            #expect(Set(try tx.readAll(RTag.self).map(\.id)) == tagsLeft)
            if edges == .everyRule {
                #expect(try F.posts.sources(pointingTo: "ada", edge: "author").count(tx) == 0)
                #expect(Set(try F.posts.sources(pointingTo: "shared", edge: "tags").keys(tx)) == bobs)
            } else {
                #expect(try Self.authorsOnly.sources(pointingTo: "ada", edge: "author").count(tx) == 0)
                #expect(Set(try Self.authorsOnly.sources(pointingTo: "bob", edge: "author").keys(tx)) == bobs)
            }
        }
        let titles = all.filter { adas.contains($0.id) }.map(\.title)
        try await connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(titles.enumerated().map { RPost(id: "q\($0.offset)", title: $0.element) })
        }
    }

    /// A batch that names a node twice (by its row id, from two destinations of one batch) and
    /// a node that an earlier batch removed (by its key, from a destination-side rule): each is
    /// removed once, and the changeset lists every removal.
    ///
    /// Removing `z` takes `a`, `b` and `y` (their `next` is `z`), one batch; `a` owns `y`, which
    /// is queued again by key, and `x` goes with `a` and with `b`: the next batch names `y`, gone,
    /// and `x` twice. `k` stays.
    @Test func aNodeQueuedTwiceOrAlreadyGoneIsRemovedOnce() async throws {
        let database = try Database.temporary(
            extensions: [F.nodes.databaseExtension, Self.nodeIndex.databaseExtension, Self.nodeView.databaseExtension])
        let connection = try database.newConnection()
        try await connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([
                RNode(id: "a", next: ["z"], owned: ["y"]), RNode(id: "b", next: ["z"]),
                RNode(id: "x", next: ["a", "b"]), RNode(id: "y", next: ["z"]), RNode(id: "k"), RNode(id: "z"),
            ])
        }
        var iterator = database.changes.makeAsyncIterator()
        try await connection.write { (tx: ReadWriteTransaction) throws -> Void in
            #expect(try tx.remove(RNode.self, key: "z"))
        }
        let changeset = try #require(await iterator.next())
        #expect(changeset.removedKeys[RNode.collection] == ["z", "a", "b", "x", "y"])
        // The view hears of each removal once: x, queued by a and by b, leaves it once.
        let removedRows = changeset.viewChanges[Self.nodeView.name]?.rowChanges.filter { $0.kind == .removed }
        #expect(removedRows?.map(\.key).sorted() == ["a", "b", "x", "y", "z"])
        try await connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try tx.readAll(RNode.self).map(\.id) == ["k"])
            #expect(try Self.nodeIndex.query.keys(tx) == ["k"])
        }
    }

    /// An index of every node, to see which the removals reach.
    static let nodeIndex = SecondaryIndex<RNode>("r_batch_nodes", columns: [.column("id") { $0.id }])
    /// A view of every node, to see how often the removals reach it.
    static let nodeView = View<RNode>("r_batch_node_view", grouping: { _, _ in "all" }, sortedBy: [.ascending(\.id)])
}
