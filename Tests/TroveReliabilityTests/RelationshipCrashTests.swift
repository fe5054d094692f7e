import Foundation
import Testing
import Trove
import TroveTestSupport

/// A cascade of delete rules runs inside the write transaction that removes the first item: a
/// process killed in the middle of a big cascade leaves nothing half-deleted, and the edges
/// agree with the items.
@Suite(.serialized)
struct RelationshipCrashTests {
    /// The graph of `trove-crash-writer cascade` (`Tests/trove-crash-writer/CascadeGraph.swift`).
    static let spines = 1_000
    static let fanout = 10
    static let items = spines * (fanout + 1)
    /// Parent edges of the leaves, and the edge of each spine node but the first to the one before.
    static let edges = spines * fanout + spines - 1

    @Test func killedMidCascadeLeavesEverythingOrNothing() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/cascade.trove"
        let build = try CrashWriterProcess(
            mode: "cascade-build", path: path, extra: ["\(Self.spines)", "\(Self.fanout)"])
        try #require(build.waitForExit() == 0, "the build failed: \(build.errors)")
        #expect(build.lines == ["built \(Self.items)"])
        try expectGraph(at: path, items: Self.items, edges: Self.edges, "built")

        for round in 0..<2 {
            let child = try CrashWriterProcess(mode: "cascade", path: path)
            // Killed when half of the spine is gone, inside the cascade's transaction.
            let midway = child.waitForLine(timeout: .seconds(60)) { $0 == "cascade \(Self.spines / 2)" }
            if let problem = child.sigkill() {
                Issue.record("round \(round): \(problem)")
                return
            }
            #expect(midway, "round \(round): the cascade never got halfway: \(child.lines) \(child.errors)")
            #expect(!child.lines.contains("committed"), "round \(round): the cascade committed before the kill")
            // Nothing of the killed transaction is in the file: every item and every edge is there.
            try expectGraph(at: path, items: Self.items, edges: Self.edges, "round \(round)")
        }

        // The same cascade, not killed, removes everything: items and edges.
        let finish = try CrashWriterProcess(mode: "cascade", path: path)
        #expect(finish.waitForExit() == 0, "\(finish.errors)")
        #expect(finish.lines.last == "committed")
        try expectGraph(at: path, items: 0, edges: 0, "after the cascade")
        Soak.report("relationship crash: 2 cascades of \(Self.items) items killed halfway, none half-deleted")
    }

    /// Checks the file as SQLite sees it: sound, `items` nodes and `edges` edges, every edge from
    /// an item that exists and, as the graph was built, to one that exists.
    private func expectGraph(at path: String, items: Int, edges: Int, _ context: String) throws {
        #expect(try integrityCheck(path: path) == ["ok"], "\(context)")
        let raw = try RawDatabase(path: path)
        func count(_ sql: String) throws -> Int { Int((try raw.rows(sql).first?.first ?? nil) ?? "") ?? -1 }
        #expect(try count("SELECT count(*) FROM trove_items WHERE collection = 'cascade'") == items, "\(context)")
        #expect(try count("SELECT count(*) FROM trove_ext_cascade_edges") == edges, "\(context)")
        let dangling = try count(
            "SELECT count(*) FROM trove_ext_cascade_edges AS e LEFT JOIN trove_items AS t ON t.rowid = e.src "
                + "WHERE t.rowid IS NULL OR t.collection != 'cascade'")
        #expect(dangling == 0, "\(context): edges from items that are gone")
        let missing = try count(
            "SELECT count(*) FROM trove_ext_cascade_edges AS e LEFT JOIN trove_items AS t "
                + "ON t.collection = 'cascade' AND t.key = e.dst_key WHERE t.rowid IS NULL")
        #expect(missing == 0, "\(context): edges to items that are gone (a spine node gone, its leaves not)")
    }
}
