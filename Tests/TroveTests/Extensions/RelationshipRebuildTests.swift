import Foundation
import Testing
import Trove
import TroveTestSupport

/// A rebuild of a relationship (a new version or definition, a stale copy, an older format)
/// recomputes the property edges from the items and keeps the manual edges that still hold.
@Suite("Relationship rebuilds")
struct RelationshipRebuildTests {
    /// The posts' relationships at `version`: the author edge from the property, and the manual
    /// "related" edge with `rules` (or no "related" edge at all).
    static func posts(version: Int, related rules: DeleteRules?) -> Relationships<RPost> {
        var edges: [RelationshipEdge<RPost>] = [
            .to("author", RUser.self, rules: .deleteSourceWhenDestinationDeleted) { $0.authorID }
        ]
        if let rules { edges.append(.manual("related", to: RPost.self, rules: rules)) }
        return Relationships<RPost>("r_post_edges", version: version, edges: edges)
    }

    private func withFolder(_ body: (String) throws -> Void) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder + "/relationships.trove")
    }

    private func related(_ relationships: Relationships<RPost>, of source: String, in connection: Connection) throws
        -> [String]
    {
        try connection.read { tx in try relationships.destinations(of: source, edge: "related", as: RPost.self).keys(tx) }
    }

    /// A manual edge added at version 1 is there at version 2, with the rule of version 2; the
    /// edges of a source removed before the rebuild are not; a version that drops the manual
    /// edge drops its edges for good.
    @Test func manualEdgesSurviveANewVersionWithItsRules() throws {
        let v1 = Self.posts(version: 1, related: DeleteRules.none)
        let database = try Database.temporary(extensions: [v1.databaseExtension])
        let connection = try database.newConnection()
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write(RUser(id: "ada"))
            try tx.write([RPost(id: "p1", authorID: "ada"), RPost(id: "p2"), RPost(id: "p3")])
            try v1.addEdge("related", from: "p1", to: "p2", in: tx)
            try v1.addEdge("related", from: "p1", to: "later", in: tx)
            try v1.addEdge("related", from: "p3", to: "p2", in: tx)
        }
        try connection.write { tx in _ = try tx.remove(RPost.self, key: "p3") }

        let v2 = Self.posts(version: 2, related: .deleteSourceWhenDestinationDeleted)
        #expect(try database.register(v2.databaseExtension) == .rebuilt)
        #expect(try related(v2, of: "p1", in: connection) == ["later", "p2"])
        try connection.read { (tx: ReadTransaction) throws -> Void in
            #expect(try v2.sources(pointingTo: "p2", edge: "related").keys(tx) == ["p1"], "p3 went before")
            #expect(try v2.sources(pointingTo: "ada", edge: "author").keys(tx) == ["p1"], "recomputed")
        }
        // The rule of version 2 applies to the kept edge: p1 goes with p2.
        try connection.write { tx in _ = try tx.remove(RPost.self, key: "p2") }
        #expect(try connection.read { tx in try tx.read(RPost.self, key: "p1") } == nil)

        // A version without the manual edge drops its edges; declaring it again finds none.
        try connection.write { (tx: ReadWriteTransaction) throws -> Void in
            try tx.write([RPost(id: "p4"), RPost(id: "p5")])
            try v2.addEdge("related", from: "p4", to: "p5", in: tx)
        }
        #expect(try database.register(Self.posts(version: 3, related: nil).databaseExtension) == .rebuilt)
        let v4 = Self.posts(version: 4, related: DeleteRules.none)
        #expect(try database.register(v4.databaseExtension) == .rebuilt)
        #expect(try related(v4, of: "p4", in: connection) == [])
    }

    /// Another instance removes a source without maintaining the relationship, and a new item
    /// takes its row id: the rebuild keeps the manual edges of the sources still there, and
    /// gives none of the removed source's to the newcomer.
    @Test func aStaleRebuildKeepsTheManualEdgesOfTheSourcesThatExist() throws {
        try withFolder { path in
            let v1 = Self.posts(version: 1, related: DeleteRules.none)
            let maintaining = try Database(path: path, extensions: [v1.databaseExtension])
            let connection = try maintaining.newConnection()
            try connection.write { (tx: ReadWriteTransaction) throws -> Void in
                try tx.write([RPost(id: "p1"), RPost(id: "p2"), RPost(id: "p3")])
                try v1.addEdge("related", from: "p1", to: "p2", in: tx)
                try v1.addEdge("related", from: "p3", to: "p1", in: tx)
            }
            let other = try Database(path: path)
            try other.newConnection().write { (tx: ReadWriteTransaction) throws -> Void in
                _ = try tx.remove(RPost.self, key: "p3")
                try tx.write(RPost(id: "p4"))  // the row id p3 had
            }
            try connection.write(RTag(id: "unrelated"))  // rebuilds the stale relationship
            #expect(try related(v1, of: "p1", in: connection) == ["p2"])
            #expect(try related(v1, of: "p4", in: connection) == [])
            try connection.read { (tx: ReadTransaction) throws -> Void in
                #expect(try v1.sources(pointingTo: "p1", edge: "related").keys(tx) == [])
            }
        }
    }

    /// A file of the first format, whose manual edges were only in the edge table: the rebuild
    /// to the current format keeps them.
    @Test func aRebuildFromTheFirstFormatKeepsItsManualEdges() throws {
        try withFolder { path in
            let v1 = Self.posts(version: 1, related: DeleteRules.none)
            do {
                let database = try Database(path: path, extensions: [v1.databaseExtension])
                try database.newConnection().write { (tx: ReadWriteTransaction) throws -> Void in
                    try tx.write([RUser(id: "ada"), RUser(id: "bob")])
                    try tx.write([RPost(id: "p1", authorID: "ada"), RPost(id: "p2", authorID: "bob")])
                    try v1.addEdge("related", from: "p1", to: "p2", in: tx)
                }
            }
            // What the first format left: no table of manual edges, and its name in the fingerprint.
            try executeRawSQL(
                path: path,
                """
                DROP TABLE trove_ext_r_post_edges_manual;
                UPDATE trove_extensions SET tables = 'trove_ext_r_post_edges',
                    fingerprint = replace(fingerprint, 'relationships v2 ', 'relationships v1 ')
                WHERE name = 'r_post_edges';
                """)
            let database = try Database(path: path)
            #expect(try database.register(v1.databaseExtension) == .rebuilt)
            let connection = try database.newConnection()
            #expect(try related(v1, of: "p1", in: connection) == ["p2"])
            try connection.read { (tx: ReadTransaction) throws -> Void in
                #expect(try v1.sources(pointingTo: "bob", edge: "author").keys(tx) == ["p2"])
            }
            // And the next rebuild, from the current format, too.
            let v2 = Self.posts(version: 2, related: DeleteRules.none)
            #expect(try database.register(v2.databaseExtension) == .rebuilt)
            #expect(try related(v2, of: "p1", in: connection) == ["p2"])
        }
    }
}
