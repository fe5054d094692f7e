import Foundation
import Testing
import Trove

@Suite("Relationships")
struct RelationshipTests {
    typealias F = RelationshipFixtures

    private func open(_ extensions: [DatabaseExtension] = RelationshipFixtures.all) throws -> (Database, Connection) {
        let database = try Database.temporary(extensions: extensions)
        return (database, try database.newConnection())
    }

    @Test func deleteSourceWhenDestinationDeletedRemovesThePosts() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RUser(id: "ada"))
            try tx.write(RUser(id: "bob"))
            try tx.write([RPost(id: "p1", authorID: "ada"), RPost(id: "p2", authorID: "ada"), RPost(id: "p3", authorID: "bob")])
        }
        let keys = try connection.read { tx in try F.posts.sources(pointingTo: "ada", edge: "author").keys(tx) }
        #expect(keys == ["p1", "p2"])
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            _ = try tx.remove(RUser.self, key: "ada")
            // In the same transaction the posts are gone.
            #expect(try tx.read(RPost.self, key: "p1") == nil)
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try tx.readAll(RPost.self).map(\.id) == ["p3"])
            #expect(try F.posts.sources(pointingTo: "ada", edge: "author").count(tx) == 0)
        }
    }

    @Test func changingTheKeyPropertyMovesTheEdge() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([RUser(id: "ada"), RUser(id: "bob")])
            try tx.write(RPost(id: "p1", authorID: "ada"))
            try tx.write(RPost(id: "p1", authorID: "bob"))
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try F.posts.destinations(of: "p1", edge: "author", as: RUser.self).keys(tx) == ["bob"])
            #expect(try F.posts.sources(pointingTo: "bob", edge: "author").items(tx).map(\.id) == ["p1"])
        }
        try connection.write { tx in _ = try tx.remove(RUser.self, key: "ada") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.read(RPost.self, key: "p1") != nil) }
        try connection.write { tx in _ = try tx.remove(RUser.self, key: "bob") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.read(RPost.self, key: "p1") == nil) }
    }

    @Test func untypedWritesAreFollowedToo() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RUser(id: "ada"))
            let data = try JSONEncoder().encode(RPost(id: "p1", authorID: "ada"))
            try tx.setData(data, forKey: "p1", in: RPost.collection)
        }
        try connection.write { tx in _ = try tx.remove(RUser.self, key: "ada") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.read(RPost.self, key: "p1") == nil) }
    }

    @Test func deleteDestinationWhenSourceDeleted() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([RTag(id: "avatar1"), RTag(id: "other")])
            try tx.write(RUser(id: "ada", avatarID: "avatar1"))
        }
        try connection.write { tx in _ = try tx.remove(RUser.self, key: "ada") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.readAll(RTag.self).map(\.id) == ["other"]) }
    }

    @Test func deleteDestinationWhenAllSourcesDeleted() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([RTag(id: "swift"), RTag(id: "c")])
            try tx.write([RPost(id: "p1", tagIDs: ["swift", "c"]), RPost(id: "p2", tagIDs: ["swift"])])
        }
        try connection.write { tx in _ = try tx.remove(RPost.self, key: "p1") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.readAll(RTag.self).map(\.id) == ["swift"]) }
        try connection.write { tx in _ = try tx.remove(RPost.self, key: "p2") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.readAll(RTag.self).isEmpty) }
    }

    @Test func deleteSourceWhenAllDestinationsDeleted() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([RTag(id: "a"), RTag(id: "b")])
            try tx.write(RAlbum(id: "trip", photoIDs: ["a", "b", "never-stored"]))
        }
        try connection.write { tx in _ = try tx.remove(RTag.self, key: "a") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.read(RAlbum.self, key: "trip") != nil) }
        try connection.write { tx in _ = try tx.remove(RTag.self, key: "b") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.read(RAlbum.self, key: "trip") == nil) }
    }

    @Test func notifySourceCallsTheCallbackAndFillsTheChangeset() async throws {
        let (database, connection) = try open()
        try await connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RUser(id: "ada"))
            try tx.write(RNote(id: "n1", aboutID: "ada"))
        }
        var iterator = database.changes.makeAsyncIterator()
        try await connection.write { tx in _ = try tx.remove(RUser.self, key: "ada") }
        let changeset = try #require(await iterator.next())
        #expect(
            changeset.relationshipNotices == [
                RelationshipNotice(
                    relationship: "r_note_edges", edge: "about", removed: .destination,
                    source: ItemAddress(collection: RNote.collection, key: "n1"),
                    destination: ItemAddress(collection: RUser.collection, key: "ada"))
            ])
        try await connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.read(RNote.self, key: "n1") == RNote(id: "n1", aboutID: nil)) }
    }

    @Test func notifyDestinationRecordsANotice() throws {
        let (_, connection) = try open([F.userNotices.databaseExtension])
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RTag(id: "pic"))
            try tx.write(RUser(id: "ada", avatarID: "pic"))
        }
        try connection.write { tx in _ = try tx.remove(RUser.self, key: "ada") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.read(RTag.self, key: "pic") != nil) }
    }

    @Test func cascadesAreTransitiveAndEndOnCycles() throws {
        let (_, connection) = try open()
        // a <- b <- c <- a (each goes with its `next`), and d owned by c.
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([
                RNode(id: "a", next: ["c"]), RNode(id: "b", next: ["a"]), RNode(id: "c", next: ["b"], owned: ["d"]),
                RNode(id: "d"), RNode(id: "e"),
            ])
        }
        try connection.write { tx in _ = try tx.remove(RNode.self, key: "a") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.readAll(RNode.self).map(\.id) == ["e"]) }
    }

    @Test func longChainsCascadeWithoutDeepRecursion() throws {
        let (_, connection) = try open()
        let count = 20_000
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write((0..<count).map { RNode(id: "n\($0)", next: $0 == 0 ? [] : ["n\($0 - 1)"]) })
        }
        try connection.write { tx in _ = try tx.remove(RNode.self, key: "n0") }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.count(in: RNode.collection) == 0) }
    }

    @Test func manualEdges() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([RPost(id: "p1"), RPost(id: "p2")])
            try F.posts.addEdge("related", from: "p1", to: "p2", in: tx)
            try F.posts.addEdge("related", from: "p1", to: "p3", in: tx)
            // A write of the source keeps its manual edges.
            try tx.write(RPost(id: "p1", title: "changed"))
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try F.posts.destinations(of: "p1", edge: "related", as: RPost.self).keys(tx) == ["p2", "p3"])
            #expect(try F.posts.destinations(of: "p1", edge: "related", as: RPost.self).items(tx).map(\.id) == ["p2"])
            #expect(try F.posts.destinations(of: "p1", edge: "related", as: RPost.self).count(tx) == 2)
        }
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            #expect(try F.posts.removeEdge("related", from: "p1", to: "p3", in: tx))
            #expect(try !F.posts.removeEdge("related", from: "p1", to: "p3", in: tx))
            #expect(throws: TroveError.self) { try F.posts.addEdge("author", from: "p1", to: "p2", in: tx) }
            #expect(throws: TroveError.self) { try F.posts.addEdge("related", from: "nope", to: "p2", in: tx) }
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try F.posts.destinations(of: "p1", edge: "related", as: RPost.self).keys(tx) == ["p2"])
        }
    }

    @Test func removingACollectionCascades() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([RUser(id: "ada"), RUser(id: "bob", avatarID: "pic")])
            try tx.write([RTag(id: "pic"), RTag(id: "t")])
            try tx.write([RPost(id: "p1", authorID: "ada", tagIDs: ["t"]), RPost(id: "p2", authorID: "zed")])
        }
        // Users as a whole: their posts go (deleteSource), their avatars go (deleteDestination).
        try connection.write { tx in _ = try tx.removeAll(RUser.self) }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try tx.readAll(RPost.self).map(\.id) == ["p2"])
            #expect(try tx.readAll(RTag.self).map(\.id) == [])  // pic with bob, t with its last post
        }
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([RTag(id: "t2")])
            try tx.write(RPost(id: "p3", tagIDs: ["t2"]))
            _ = try tx.removeAll(RPost.self)
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.readAll(RTag.self).isEmpty) }
    }

    @Test func removingEverythingClearsTheEdges() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RUser(id: "ada"))
            try tx.write(RPost(id: "p1", authorID: "ada"))
            _ = try tx.removeAllItems()
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try F.posts.sources(pointingTo: "ada", edge: "author").count(tx) == 0) }
        // A post written again after everything went is linked again.
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RPost(id: "p1", authorID: "ada"))
            try tx.write(RUser(id: "ada"))
            _ = try tx.remove(RUser.self, key: "ada")
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try tx.count(in: RPost.collection) == 0) }
    }

    @Test func rollbackLeavesEdgesAndItemsAsTheyWere() throws {
        let (_, connection) = try open()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RUser(id: "ada"))
            try tx.write([RPost(id: "p1", authorID: "ada"), RPost(id: "p2", authorID: "ada")])
        }
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try connection.write { (tx: ReadWriteTransaction) throws -> Void in
                _ = try tx.remove(RUser.self, key: "ada")
                try tx.write(RPost(id: "p3", authorID: "ada"))
                throw Abort()
            }
        }
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try tx.read(RUser.self, key: "ada") != nil)
            #expect(try tx.readAll(RPost.self).map(\.id) == ["p1", "p2"])
            #expect(try F.posts.sources(pointingTo: "ada", edge: "author").keys(tx) == ["p1", "p2"])
        }
    }

    @Test func aCascadedDeleteLeavesTheIndexInTheSameTransaction() throws {
        let byTitle = SecondaryIndex<RPost>("r_posts_by_title", columns: [.column("title") { $0.title }])
        let (_, connection) = try open(RelationshipFixtures.all + [byTitle.databaseExtension])
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RUser(id: "ada"))
            try tx.write([RPost(id: "p1", authorID: "ada", title: "hello"), RPost(id: "p2", title: "hello")])
            #expect(try byTitle.query.filter(.column("title", equals: "hello")).count(tx) == 2)
            _ = try tx.remove(RUser.self, key: "ada")
            #expect(try byTitle.query.filter(.column("title", equals: "hello")).keys(tx) == ["p2"])
        }
    }

    @Test func registeringFillsTheEdgesOfStoredItems() throws {
        let database = try Database.temporary(extensions: [])
        let connection = try database.newConnection()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RUser(id: "ada"))
            try tx.write(RPost(id: "p1", authorID: "ada"))
        }
        #expect(try database.register(F.posts.databaseExtension) == .created)
        try connection.read { (tx: ReadTransaction) throws -> Void in #expect(try F.posts.sources(pointingTo: "ada", edge: "author").keys(tx) == ["p1"]) }
    }

    /// Random graphs of nodes, random removals (one by one, or the whole collection of a
    /// destination model), compared with a brute-force model of the rules.
    @Test(arguments: 0..<40) func cascadesMatchABruteForceModel(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed) &+ 1)
        let (_, connection) = try open()
        let count = Int(random.next() % 30) + 2
        let ids = (0..<count).map { "n\($0)" }
        var nodes: [String: RNode] = [:]
        for id in ids {
            let next = (0..<Int(random.next() % 3)).map { _ in ids[Int(random.next() % UInt64(count))] }
            let owned = (0..<Int(random.next() % 2)).map { _ in ids[Int(random.next() % UInt64(count))] }
            nodes[id] = RNode(id: id, next: next, owned: owned)
        }
        try connection.write { tx in try tx.write(Array(nodes.values)) }
        var alive = Set(ids)
        for _ in 0..<3 {
            let victim = ids[Int(random.next() % UInt64(count))]
            // The model: a worklist of removals.
            var work = [victim]
            while let key = work.popLast() {
                guard alive.remove(key) != nil else { continue }
                for other in alive where nodes[other]!.next.contains(key) { work.append(other) }
                for owned in nodes[key]!.owned where alive.contains(owned) { work.append(owned) }
            }
            try connection.write { tx in _ = try tx.remove(RNode.self, key: victim) }
            let stored = try connection.read { tx in Set(try tx.readAll(RNode.self).map(\.id)) }
            #expect(stored == alive, "seed \(seed), removed \(victim)")
        }
    }
}

/// A small deterministic generator for the model-based tests.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
