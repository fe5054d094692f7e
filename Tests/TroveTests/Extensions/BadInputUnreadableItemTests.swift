import Foundation
import Testing
import Trove
import TroveTestSupport

/// An item whose bytes do not decode (written by another tool, a bug, a bad disk) never stops
/// the database from opening or the other items from being written: every kind of extension
/// leaves it out, it is listed by `unreadableItems()`, reading it throws `corruptData` naming it,
/// and writing it again or removing it takes it off the list.
@Suite("Bad input: unreadable items")
struct BadInputUnreadableItemTests {
    /// Bytes that no coder of these models decodes (JSON models: not JSON; the index's models
    /// are Codable).
    private static let garbage = Data([0xFF, 0x00, 0x13, 0x37])

    private func withFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder + "/unreadable.trove")
    }

    private static let members = (0..<20).map { Member(id: "m\($0)", age: $0 % 5, city: "c\($0 % 3)", score: Double($0)) }
    private static let view = View<Member>(
        "members_by_city", grouping: { member, _ in member.city }, sortedBy: [.ascending(\.score)])
    private static let extensions = [MemberIndexes.members.databaseExtension, view.databaseExtension]

    /// Opened with extensions over a collection holding a bad item: opens, the others are
    /// indexed and in the view, the bad one is listed and reading it names it.
    @Test func anUndecodableItemDoesNotStopTheDatabaseFromOpening() throws {
        try withFolder { path in
            try Database(path: path).newConnection().write { tx in
                try tx.write(Self.members)
                try tx.setData(Self.garbage, forKey: "m7", in: Member.collection)
            }
            let database = try Database(path: path, extensions: Self.extensions)
            let connection = try database.newConnection()
            let unreadable = try connection.read { tx in try tx.unreadableItems() }
            #expect(unreadable.map(\.key) == ["m7"])
            #expect(unreadable.first?.collection == "members")
            #expect(unreadable.first?.extensionNames == ["members", "members_by_city"])
            #expect(try ageKeys(2, connection) == ["m12", "m17", "m2"])
            #expect(try connection.read { tx in try Self.view.read(tx).keys(in: "c1") } == ["m1", "m4", "m10", "m13", "m16", "m19"])

            let error = try #require(throws: TroveError.self) { try connection.read(Member.self, key: "m7") }
            #expect(error.code == .corruptData)
            #expect(error.collection == "members" && error.key == "m7")
            #expect(internalsShown(in: error.description).isEmpty)

            // Written again with good bytes: off the list, in the extensions.
            try connection.write(Member(id: "m7", age: 2, city: "c1", score: 7))
            #expect(try connection.read { tx in try tx.unreadableItems() }.isEmpty)
            #expect(try ageKeys(2, connection) == ["m12", "m17", "m2", "m7"])
            #expect(try connection.read { tx in try Self.view.read(tx).keys(in: "c1") }.contains("m7"))
        }
    }

    /// An untyped write of bytes that do not decode is stored, leaves the item out of every
    /// extension (its earlier index row and view row go), and is listed; removing it takes it
    /// off the list. The writes of other items in the same transaction are unaffected.
    @Test func anUndecodableWriteLeavesTheItemOutAndTheTransactionCommits() throws {
        let database = try makeTemporaryDatabase(extensions: Self.extensions)
        let connection = try database.newConnection()
        try connection.write(Self.members)
        try connection.write { tx in
            try tx.setData(Self.garbage, forKey: "m2", in: Member.collection)
            try tx.write(Member(id: "m20", age: 2, city: "c2", score: 20))
        }
        #expect(try ageKeys(2, connection) == ["m12", "m17", "m20", "m7"])
        #expect(try connection.read { tx in try Self.view.read(tx).keys(in: "c2") } == ["m5", "m8", "m11", "m14", "m17", "m20"])
        let listed = try connection.read { tx in try tx.unreadableItems() }
        #expect(listed.map(\.key) == ["m2"])
        #expect(internalsShown(in: listed.description).isEmpty)
        try connection.write { tx in _ = try tx.remove(Member.self, key: "m2") }
        #expect(try connection.read { tx in try tx.unreadableItems() }.isEmpty)
    }

    /// Full-text search and relationships leave an undecodable item out too; a relationship's
    /// source that stops decoding keeps its edges (no delete rule runs for an item still stored).
    @Test func searchAndRelationshipsLeaveUndecodableItemsOut() throws {
        try withFolder { path in
            try Database(path: path).newConnection().write { tx in
                try tx.write([Article(id: "a1", title: "sqlite notes"), Article(id: "a2", title: "sqlite tips")])
                try tx.setData(Self.garbage, forKey: "a3", in: Article.collection)
                try tx.write(RUser(id: "u1"))
                try tx.write([RPost(id: "p1", authorID: "u1"), RPost(id: "p2", authorID: "u1")])
                try tx.setData(Self.garbage, forKey: "p3", in: RPost.collection)
            }
            let database = try Database(
                path: path,
                extensions: [ArticleSearches.articles.databaseExtension, RelationshipFixtures.posts.databaseExtension])
            let connection = try database.newConnection()
            #expect(try connection.read { tx in try tx.unreadableItems() }.map(\.key) == ["a3", "p3"])
            #expect(try connection.read { tx in try ArticleSearches.articles.query(for: .raw("sqlite")).keys(tx) }.sorted() == ["a1", "a2"])
            #expect(
                try connection.read { tx in
                    try RelationshipFixtures.posts.sources(pointingTo: "u1", edge: "author").keys(tx)
                }.sorted() == ["p1", "p2"])
            // p1 stops decoding: its edge stays, and removing its author still removes it.
            try connection.write { tx in try tx.setData(Self.garbage, forKey: "p1", in: RPost.collection) }
            #expect(
                try connection.read { tx in
                    try RelationshipFixtures.posts.sources(pointingTo: "u1", edge: "author").keys(tx)
                }.sorted() == ["p1", "p2"])
            try connection.write { tx in _ = try tx.remove(RUser.self, key: "u1") }
            #expect(try connection.read { tx in try tx.keys(of: RPost.self) } == ["p3"])
            #expect(try connection.read { tx in try tx.unreadableItems() }.map(\.key) == ["a3", "p3"])
        }
    }

    /// The list is the file's: another instance sees it, and a rebuild finds the items again.
    @Test func theListIsInTheFileAndARebuildFindsTheItemsAgain() throws {
        try withFolder { path in
            let first = try Database(path: path, extensions: Self.extensions)
            try first.newConnection().write { tx in
                try tx.write(Self.members)
                try tx.setData(Self.garbage, forKey: "m3", in: Member.collection)
            }
            let second = try Database(path: path)
            #expect(try second.newConnection().read { tx in try tx.unreadableItems() }.map(\.key) == ["m3"])
            let rebuilt = SecondaryIndex<Member>("members", version: 2, columns: [.column("age") { $0.age }])
            try second.register(rebuilt.databaseExtension)
            let listed = try second.newConnection().read { tx in try tx.unreadableItems() }
            #expect(listed.map(\.extensionNames) == [["members", "members_by_city"]])
            try second.unregister("members_by_city")
            #expect(try second.newConnection().read { tx in try tx.unreadableItems() }.map(\.extensionNames) == [["members"]])
        }
    }

    private func ageKeys(_ age: Int, _ connection: Connection) throws -> [String] {
        try connection.read { tx in
            try MemberIndexes.members.query.filter(.column("age", equals: age)).keys(tx).sorted()
        }
    }
}
