import Foundation
import Testing
@_spi(TroveGenerated) import Trove
import TroveSync
import TroveSyncServer
import TroveTestSupport

/// A node of a tree whose children go with their parent (`.deleteSourceWhenDestinationDeleted`):
/// what a delete rule does across replicas.
struct TreeNode: Persistable, Equatable {
    typealias Coder = MessageCoder<TreeNode>
    static let collection = "tree"

    var id: String
    var parent: String?
    var title: String

    /// The edge from a child to its parent.
    static let edges = Relationships<TreeNode>(
        "tree_edges", edges: [.to("parent", TreeNode.self, rules: .deleteSourceWhenDestinationDeleted, key: { $0.parent })])
}

extension TreeNode: BinaryMessage {
    static func encodeMessage(_ value: TreeNode, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encodeIfPresent(value.parent, field: FieldNumber.of("parent"))
        try writer.encode(value.title, field: FieldNumber.of("title"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> TreeNode {
        var id: String?
        var parent: String?
        var title: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("parent"): parent = try reader.decode(String.self, from: header, field: "parent")
            case FieldNumber.of("title"): title = try reader.decode(String.self, from: header, field: "title")
            default: try reader.skip(header)
            }
        }
        return TreeNode(id: try reader.required(id, field: "id"), parent: parent, title: try reader.required(title, field: "title"))
    }
}

/// Delete rules across replicas: a removal that cascades on one replica reaches the others, and
/// so does a cascade that a pulled removal fires on a replica with children the first never saw.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct SyncDeleteRuleTests {
    @Test func aCascadeReachesEveryReplicaWithTheChildrenMadeOfflineElsewhere() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await LoopbackSyncServer.start()
        defer { Task { await server.dispose() } }
        func replica(_ name: String) throws -> (Database, TroveSync) {
            let database = try Database(path: "\(folder)/\(name).trove", extensions: [TreeNode.edges.databaseExtension])
            return (database, try TroveSync(database: database, server: server.url, credentials: .none, collections: [TreeNode.self]))
        }
        let (first, firstSync) = try replica("first")
        let (second, secondSync) = try replica("second")
        try await first.write { tx in
            try tx.write(TreeNode(id: "root", parent: nil, title: "root"))
            try tx.write(TreeNode(id: "c1", parent: "root", title: "one"))
            try tx.write(TreeNode(id: "c2", parent: "root", title: "two"))
        }
        try await firstSync.sync()
        try await secondSync.sync()
        let arrived = try await second.read { tx in try tx.keys(in: TreeNode.collection).sorted() }
        #expect(arrived == ["c1", "c2", "root"])

        // Offline: the second adds a child; the first removes the root, which takes its children.
        try await second.write { tx in try tx.write(TreeNode(id: "c3", parent: "root", title: "three")) }
        try await first.write { tx in _ = try tx.remove(TreeNode.self, key: "root") }
        let afterCascade = try await first.read { tx in try tx.keys(in: TreeNode.collection) }
        #expect(afterCascade.isEmpty)

        try await firstSync.sync()
        try await secondSync.sync()   // the root's removal takes "c3" here too, a local removal
        try await secondSync.sync()
        try await firstSync.sync()
        for (name, database) in [("first", first), ("second", second)] {
            let keys = try await database.read { tx in try tx.keys(in: TreeNode.collection).sorted() }
            #expect(keys.isEmpty, "\(name) still holds \(keys)")
        }
        let onServer = try await server.server.storage.items(of: "default").presentItems(of: TreeNode.collection)
        #expect(onServer.isEmpty, "the server still holds \(onServer.keys.sorted())")
    }
}
