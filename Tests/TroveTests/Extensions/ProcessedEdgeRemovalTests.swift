import Foundation
import Testing
import Trove

/// Removing a manual edge applies the edge's rules only when asked, as if one end had been
/// removed (YapDatabase's processed edge removal): the destination that loses its last source goes
/// with its own cascade, the source that loses its last destination goes, and nothing goes when
/// another edge still holds it or when no rule is asked for.
@Suite struct ProcessedEdgeRemovalTests {
    static let folders = Relationships<RAlbum>(
        "processed_files", edges: [.manual("files", to: RTag.self, rules: .deleteDestinationWhenAllSourcesDeleted)])
    static let owners = Relationships<RAlbum>(
        "processed_owners", edges: [.manual("owners", to: RUser.self, rules: .deleteSourceWhenAllDestinationsDeleted)])

    @Test func asIfTheSourceWentRemovesADestinationWithNoSourceLeft() throws {
        let database = try Database.temporary(extensions: [Self.folders.databaseExtension])
        let connection = try database.newConnection()
        try connection.write { tx in
            try tx.write([RAlbum(id: "a", photoIDs: []), RAlbum(id: "b", photoIDs: [])])
            try tx.write([RTag(id: "shared"), RTag(id: "own")])
            try Self.folders.addEdge("files", from: "a", to: "shared", in: tx)
            try Self.folders.addEdge("files", from: "b", to: "shared", in: tx)
            try Self.folders.addEdge("files", from: "a", to: "own", in: tx)
        }
        try connection.write { tx in
            // Without a rule asked for, the destination stays.
            #expect(try Self.folders.removeEdge("files", from: "a", to: "own", in: tx))
            #expect(try tx.read(RTag.self, key: "own") != nil)
            try Self.folders.addEdge("files", from: "a", to: "own", in: tx)
            // As if the source went: "own" has no source left and goes; "shared" still has "b".
            #expect(try Self.folders.removeEdge("files", from: "a", to: "own", applyingRulesAsIfRemoved: .source, in: tx))
            #expect(try tx.read(RTag.self, key: "own") == nil)
            #expect(try Self.folders.removeEdge("files", from: "a", to: "shared", applyingRulesAsIfRemoved: .source, in: tx))
            #expect(try tx.read(RTag.self, key: "shared") != nil)
            #expect(try Self.folders.removeEdge("files", from: "b", to: "shared", applyingRulesAsIfRemoved: .source, in: tx))
            #expect(try tx.read(RTag.self, key: "shared") == nil)
            // The sources themselves stay.
            #expect(try tx.readAll(RAlbum.self).count == 2)
        }
    }

    @Test func asIfTheDestinationWentRemovesASourceWithNoDestinationLeft() throws {
        let database = try Database.temporary(extensions: [Self.owners.databaseExtension])
        let connection = try database.newConnection()
        func write(_ body: (ReadWriteTransaction) throws -> Void) throws { try connection.write(body) }
        try write { tx in
            try tx.write(RAlbum(id: "a", photoIDs: []))
            try tx.write([RUser(id: "u1"), RUser(id: "u2")])
            try Self.owners.addEdge("owners", from: "a", to: "u1", in: tx)
            try Self.owners.addEdge("owners", from: "a", to: "u2", in: tx)
        }
        try write { tx in
            let first = try Self.owners.removeEdge(
                "owners", from: "a", to: "u1", applyingRulesAsIfRemoved: RelationshipNotice.Removed.destination, in: tx)
            #expect(first)
            #expect(try tx.read(RAlbum.self, key: "a") != nil)
            let last = try Self.owners.removeEdge(
                "owners", from: "a", to: "u2", applyingRulesAsIfRemoved: RelationshipNotice.Removed.destination, in: tx)
            #expect(last)
            #expect(try tx.read(RAlbum.self, key: "a") == nil)
            // The destinations were not removed: the rules acted as if they had been.
            #expect(try tx.readAll(RUser.self).count == 2)
        }
    }
}
