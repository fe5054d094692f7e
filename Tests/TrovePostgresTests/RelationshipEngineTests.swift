import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// A node of a random graph, with one edge of each delete rule.
struct CascadeNode: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<CascadeNode>
    static let collection = "cascade_nodes"
    var id: String
    /// `.deleteSourceWhenDestinationDeleted`: this node goes when one of these goes.
    var next: [String] = []
    /// `.deleteDestinationWhenSourceDeleted`: these go when this node goes.
    var owned: [String] = []
    /// `.deleteDestinationWhenAllSourcesDeleted`: a tag goes when its last node goes.
    var tags: [String] = []
    /// `.deleteSourceWhenAllDestinationsDeleted`: this node goes when none of these is left.
    var parts: [String] = []
    /// `.notifySourceWhenDestinationDeleted`: this node hears when one of these goes, and moves
    /// it to ``lost``.
    var watches: [String] = []
    /// The watched nodes that went.
    var lost: [String] = []
}

extension CascadeNode: RelationshipNotifiable {
    /// A watched node went: it moves from `watches` to `lost`.
    func relatedItemRemoved(_ notice: RelationshipNotice) -> RelationshipReaction<CascadeNode> {
        var node = self
        node.watches.removeAll { $0 == notice.destination.key }
        node.lost.append(notice.destination.key)
        return .write(node)
    }
}

/// A tag of nodes.
struct CascadeTag: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<CascadeTag>
    static let collection = "cascade_tags"
    var id: String
    /// The nodes of this tag that went (`.notifyDestinationWhenSourceDeleted`).
    var heard: [String] = []
}

extension CascadeTag: RelationshipNotifiable {
    /// A node of the tag went: the tag notes it.
    func relatedItemRemoved(_ notice: RelationshipNotice) -> RelationshipReaction<CascadeTag> {
        var tag = self
        tag.heard.append(notice.source.key)
        return .write(tag)
    }
}

/// The relationships of the random graphs: the six delete rules.
let cascadeEdges = Relationships<CascadeNode>(
    "cascade_edges",
    edges: [
        .to("next", CascadeNode.self, rules: .deleteSourceWhenDestinationDeleted, keys: { $0.next }),
        .to("owned", CascadeNode.self, rules: .deleteDestinationWhenSourceDeleted, keys: { $0.owned }),
        .to(
            "tags", CascadeTag.self, rules: [.deleteDestinationWhenAllSourcesDeleted, .notifyDestinationWhenSourceDeleted],
            keys: { $0.tags }),
        .to("parts", CascadeNode.self, rules: .deleteSourceWhenAllDestinationsDeleted, keys: { $0.parts }),
        .to("watches", CascadeNode.self, rules: .notifySourceWhenDestinationDeleted, keys: { $0.watches }),
    ])

/// Manual edges from tags to nodes: a node goes with a tag that links it.
let tagLinks = Relationships<CascadeTag>(
    "tag_links", edges: [.manual("links", to: CascadeNode.self, rules: .deleteDestinationWhenSourceDeleted)])

/// The engines the extension suites run on: PostgreSQL only when a server is configured.
enum TestEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static let available: [TestEngine] = allCases.filter { $0 == .sqlite || TestServer.isConfigured }
}

/// Relationships on both engines, written once against `some AsyncDatabaseWriter`: random graphs
/// and removals against a brute-force model of the six delete rules, traversals against the
/// model's edges, and on PostgreSQL two instances sharing one schema.
struct RelationshipEngineTests {
    /// Runs `body` with a fresh place of `engine` that keeps `cascadeEdges`.
    func withPlace(
        _ engine: TestEngine, _ body: (any AsyncDatabaseWriter) async throws -> Void
    ) async throws {
        let extensions = [cascadeEdges.databaseExtension, tagLinks.databaseExtension]
        switch engine {
        case .sqlite:
            try await body(try Database.temporary(extensions: extensions))
        case .postgres:
            try await TestServer.withStore(extensions: extensions) { try await body($0) }
        }
    }

    /// A random graph of 2 to 31 nodes and 5 tags.
    static func randomGraph(_ random: inout SeededGenerator) -> [String: CascadeNode] {
        let count = Int.random(in: 2...31, using: &random)
        let ids = (0..<count).map { "n\($0)" }
        func some(_ range: ClosedRange<Int>, of keys: [String]) -> [String] {
            (0..<Int.random(in: range, using: &random)).map { _ in keys.randomElement(using: &random)! }
        }
        var nodes: [String: CascadeNode] = [:]
        for id in ids {
            nodes[id] = CascadeNode(
                id: id, next: some(0...2, of: ids),
                owned: Int.random(in: 0..<10, using: &random) < 3 ? some(1...1, of: ids) : [],
                tags: some(0...2, of: (0..<5).map { "t\($0)" }), parts: some(0...2, of: ids),
                watches: Array(Set(some(0...2, of: ids))).sorted())
        }
        return nodes
    }

    /// What is left after removals: the brute-force model of the rules, a worklist of removals
    /// over the graph as written, then the notices to the items left.
    struct Model {
        let nodes: [String: CascadeNode]
        var aliveNodes: Set<String>
        var aliveTags: Set<String>
        /// What each node still watches, and the watched nodes it heard went.
        var watches: [String: Set<String>] = [:]
        var lost: [String: Set<String>] = [:]
        /// The nodes each tag heard went.
        var heard: [String: Set<String>] = [:]

        init(nodes: [String: CascadeNode], aliveNodes: Set<String>, aliveTags: Set<String>) {
            self.nodes = nodes
            self.aliveNodes = aliveNodes
            self.aliveTags = aliveTags
            watches = nodes.mapValues { Set($0.watches) }
        }

        /// Removes `key` (a node or a tag) and everything the rules remove with it, then tells
        /// the items left: a node of each watched node that went, a tag of each of its nodes.
        mutating func remove(_ key: String, isTag: Bool) {
            let before = aliveNodes
            cascade(key, isTag: isTag)
            let removed = before.subtracting(aliveNodes)
            for node in aliveNodes {
                let gone = watches[node, default: []].intersection(removed)
                watches[node, default: []].subtract(gone)
                lost[node, default: []].formUnion(gone)
            }
            for node in removed {
                for tag in nodes[node]!.tags where aliveTags.contains(tag) { heard[tag, default: []].insert(node) }
            }
        }

        /// Removes `key` and everything the delete rules remove with it.
        private mutating func cascade(_ key: String, isTag: Bool) {
            var work: [(key: String, isTag: Bool)] = [(key, isTag)]
            while let (key, isTag) = work.popLast() {
                if isTag {
                    // No rule acts when a tag goes.
                    aliveTags.remove(key)
                    continue
                }
                guard aliveNodes.remove(key) != nil, let node = nodes[key] else { continue }
                // As a source: its owned nodes go; a tag goes with its last node.
                for owned in node.owned { work.append((owned, false)) }
                for tag in Set(node.tags) where !aliveNodes.contains(where: { nodes[$0]!.tags.contains(tag) }) {
                    work.append((tag, true))
                }
                // As a destination: a node whose `next` points at it goes; a node whose `parts`
                // has no node left goes.
                for other in aliveNodes where nodes[other]!.next.contains(key) { work.append((other, false)) }
                for other in aliveNodes where nodes[other]!.parts.contains(key) {
                    if !nodes[other]!.parts.contains(where: aliveNodes.contains) { work.append((other, false)) }
                }
            }
        }

        /// Removes every node, as `removeAll(CascadeNode.self)` does: every tag of a node goes too.
        mutating func removeAllNodes() {
            for key in aliveNodes { aliveTags.subtract(nodes[key]!.tags) }
            aliveNodes.removeAll()
        }
    }

    @Test(arguments: TestEngine.available, 0..<40)
    func cascadesMatchABruteForceModel(_ engine: TestEngine, seed: Int) async throws {
        try await withPlace(engine) { db in try await cascades(db, engine: engine, seed: seed) }
    }

    func cascades(_ db: some AsyncDatabaseWriter, engine: TestEngine, seed: Int) async throws {
        var random = SeededGenerator(seed: UInt64(seed) &+ 7)
        let nodes = Self.randomGraph(&random)
        let tags = (0..<5).map { CascadeTag(id: "t\($0)") }
        try await db.write { tx in
            try await tx.write(Array(nodes.values))
            try await tx.write(tags)
        }
        var model = Model(nodes: nodes, aliveNodes: Set(nodes.keys), aliveTags: Set(tags.map(\.id)))
        let ids = nodes.keys.sorted()
        for step in 0..<4 {
            let label = "\(engine.rawValue), seed \(seed), step \(step)"
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                _ = try await db.removeAll(CascadeNode.self)
                model.removeAllNodes()
            case 1, 2:
                let tag = "t\(Int.random(in: 0..<5, using: &random))"
                _ = try await db.remove(CascadeTag.self, key: tag)
                model.remove(tag, isTag: true)
            case 3, 4, 5:
                // Several nodes in one call: one batch, whose cascades run together, against the
                // model's removals one after the other.
                let victims = (0..<Int.random(in: 2...4, using: &random)).map { _ in ids.randomElement(using: &random)! }
                _ = try await db.remove(CascadeNode.self, keys: victims)
                for victim in victims { model.remove(victim, isTag: false) }
            default:
                let victim = ids.randomElement(using: &random)!
                _ = try await db.remove(CascadeNode.self, key: victim)
                model.remove(victim, isTag: false)
            }
            #expect(Set(try await db.keys(of: CascadeNode.self)) == model.aliveNodes, "\(label)")
            #expect(Set(try await db.keys(of: CascadeTag.self)) == model.aliveTags, "\(label)")
            // The notify rules: what each item left was told.
            for node in try await db.readAll(CascadeNode.self) {
                #expect(Set(node.watches) == model.watches[node.id] ?? [], "\(label): \(node.id) watches")
                #expect(Set(node.lost) == model.lost[node.id] ?? [], "\(label): \(node.id) lost")
            }
            for tag in try await db.readAll(CascadeTag.self) {
                #expect(Set(tag.heard) == model.heard[tag.id] ?? [], "\(label): \(tag.id) heard")
            }
            try await checkTraversals(db, model, label: label, random: &random)
        }
    }

    /// Traversals from a few nodes, each way, against the model's edges.
    func checkTraversals(
        _ db: some AsyncDatabaseWriter, _ model: Model, label: String, random: inout SeededGenerator
    ) async throws {
        for key in model.nodes.keys.sorted().shuffled(using: &random).prefix(3) {
            let node = model.nodes[key]!
            let pointing = model.aliveNodes.filter { model.nodes[$0]!.next.contains(key) }.sorted()
            let sources = cascadeEdges.sources(pointingTo: key, edge: "next")
            #expect(try await sources.keys(in: db) == pointing, "\(label): sources of \(key)")
            #expect(try await sources.count(in: db) == pointing.count, "\(label)")
            #expect(try await sources.limit(1).keys(in: db) == Array(pointing.prefix(1)), "\(label)")
            // An edge whose rule keeps a source while one of its destinations is left holds after
            // its own destination went.
            let partOf = model.aliveNodes.filter { model.nodes[$0]!.parts.contains(key) }.sorted()
            #expect(
                try await cascadeEdges.sources(pointingTo: key, edge: "parts").keys(in: db) == partOf,
                "\(label): sources of \(key) by parts")
            // Destinations are keys (the edge holds while its source does), items those that exist.
            let tags = model.aliveNodes.contains(key) ? Array(Set(node.tags)).sorted() : []
            let destinations = cascadeEdges.destinations(of: key, edge: "tags", as: CascadeTag.self)
            #expect(try await destinations.keys(in: db) == tags, "\(label): tags of \(key)")
            #expect(try await destinations.count(in: db) == tags.count, "\(label)")
            #expect(
                try await destinations.items(in: db).map(\.id) == tags.filter(model.aliveTags.contains),
                "\(label): tags of \(key) that exist")
        }
    }

    /// A chain of 2,000 nodes, each removed by the removal of the one before: the cascade is a
    /// loop, not a recursion, on both engines.
    @Test(arguments: TestEngine.available)
    func longChainsCascade(_ engine: TestEngine) async throws {
        try await withPlace(engine) { db in try await longChain(db) }
    }

    func longChain(_ db: some AsyncDatabaseWriter) async throws {
        let count = 2_000
        try await db.write((0..<count).map { CascadeNode(id: "n\($0)", next: $0 == 0 ? [] : ["n\($0 - 1)"]) })
        #expect(try await db.remove(CascadeNode.self, key: "n0"))
        #expect(try await db.count(of: CascadeNode.self) == 0)
    }

    /// A write that moves an edge moves what the rules act on: the old destination no longer
    /// takes the source with it, the new one does.
    @Test(arguments: TestEngine.available)
    func rewritingASourceMovesItsEdges(_ engine: TestEngine) async throws {
        try await withPlace(engine) { db in try await movedEdges(db) }
    }

    func movedEdges(_ db: some AsyncDatabaseWriter) async throws {
        try await db.write { tx in
            try await tx.write([CascadeNode(id: "a"), CascadeNode(id: "b"), CascadeNode(id: "c", next: ["a"])])
            try await tx.write(CascadeNode(id: "c", next: ["b"]))
        }
        #expect(try await cascadeEdges.sources(pointingTo: "a", edge: "next").keys(in: db) == [])
        _ = try await db.remove(CascadeNode.self, key: "a")
        #expect(try await db.keys(of: CascadeNode.self) == ["b", "c"])
        _ = try await db.remove(CascadeNode.self, key: "b")
        #expect(try await db.keys(of: CascadeNode.self) == [])
    }

    /// Manual edges, added and removed by hand in a transaction of either engine: a rewrite of
    /// their source keeps them, their rules act, and a change of an edge that is not manual, or
    /// of a source that does not exist, is refused.
    @Test(arguments: TestEngine.available)
    func manualEdgesAreKeptAndFollowTheirRules(_ engine: TestEngine) async throws {
        try await withPlace(engine) { db in try await manualEdges(db) }
    }

    func manualEdges<DB: AsyncDatabaseWriter>(_ db: DB) async throws {
        try await db.write([CascadeNode(id: "a"), CascadeNode(id: "b"), CascadeNode(id: "c")])
        try await db.write(CascadeTag(id: "t"))
        try await db.write { (tx: DB.WritingTransaction) in
            try await tagLinks.addEdge("links", from: "t", to: "a", in: tx)
            try await tagLinks.addEdge("links", from: "t", to: "b", in: tx)
            try await tagLinks.addEdge("links", from: "t", to: "b", in: tx)
        }
        let links = tagLinks.destinations(of: "t", edge: "links", as: CascadeNode.self)
        #expect(try await links.keys(in: db) == ["a", "b"])
        // A rewrite of the tag keeps its manual edges.
        try await db.write(CascadeTag(id: "t", heard: ["rewritten"]))
        #expect(try await links.keys(in: db) == ["a", "b"])
        #expect(try await db.write { (tx: DB.WritingTransaction) in try await tagLinks.removeEdge("links", from: "t", to: "b", in: tx) })
        #expect(try await !db.write { (tx: DB.WritingTransaction) in try await tagLinks.removeEdge("links", from: "t", to: "b", in: tx) })
        #expect(try await links.keys(in: db) == ["a"])
        let notManual = await #expect(throws: TroveError.self) {
            try await db.write { (tx: DB.WritingTransaction) in try await tagLinks.addEdge("nope", from: "t", to: "a", in: tx) }
        }
        #expect(notManual?.message.contains("no manual edge named 'nope'") == true, "\(String(describing: notManual))")
        let noSource = await #expect(throws: TroveError.self) {
            try await db.write { (tx: DB.WritingTransaction) in try await tagLinks.addEdge("links", from: "gone", to: "a", in: tx) }
        }
        #expect(noSource?.message.contains("does not exist") == true, "\(String(describing: noSource))")
        // The tag goes, and the node it links goes with it; the other stays.
        _ = try await db.remove(CascadeTag.self, key: "t")
        #expect(try await db.keys(of: CascadeNode.self) == ["b", "c"])
    }

    /// A transaction that throws after a cascade leaves everything as it was.
    @Test(arguments: TestEngine.available)
    func aRolledBackCascadeLeavesEverything(_ engine: TestEngine) async throws {
        try await withPlace(engine) { db in try await rolledBack(db) }
    }

    func rolledBack<DB: AsyncDatabaseWriter>(_ db: DB) async throws {
        try await db.write([CascadeNode(id: "a"), CascadeNode(id: "b", next: ["a"])])
        await #expect(throws: Abort.self) {
            try await db.write { (tx: DB.WritingTransaction) async throws -> Void in
                _ = try await tx.remove(CascadeNode.self, key: "a")
                #expect(try await tx.count(of: CascadeNode.self) == 0)
                throw Abort()
            }
        }
        #expect(try await db.keys(of: CascadeNode.self) == ["a", "b"])
        #expect(try await cascadeEdges.sources(pointingTo: "a", edge: "next").keys(in: db) == ["b"])
    }
}

/// The error that rolls a transaction back in the tests.
private struct Abort: Error {}

/// Relationships across two instances of a PostgreSQL store on one schema.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct RelationshipTwoInstanceTests {
    /// A new version of relationships rebuilds their edges from the items and keeps the manual
    /// edges, as a Trove file does.
    @Test func aRebuildKeepsTheManualEdges() async throws {
        let schema = TestServer.freshSchema()
        let first = try await TestServer.openStore(schema: schema, extensions: [tagLinks.databaseExtension])
        do {
            try await first.write([CascadeNode(id: "a"), CascadeNode(id: "b")])
            try await first.write(CascadeTag(id: "t"))
            try await first.write { tx in try await tagLinks.addEdge("links", from: "t", to: "a", in: tx) }
            let second = Relationships<CascadeTag>("tag_links", version: 2, edges: tagLinks.edges)
            let rebuilt = try await TestServer.openStore(schema: schema, extensions: [second.databaseExtension])
            defer { rebuilt.close() }
            #expect(try await second.destinations(of: "t", edge: "links", as: CascadeNode.self).keys(in: rebuilt) == ["a"])
            _ = try await rebuilt.remove(CascadeTag.self, key: "t")
            #expect(try await rebuilt.keys(of: CascadeNode.self) == ["b"])
            await TestServer.dispose(first)
        } catch {
            await TestServer.dispose(first)
            throw error
        }
    }

    /// A cascade started by one instance is seen whole by the other.
    @Test func aCascadeOfOneInstanceIsSeenWholeByTheOther() async throws {
        try await TestServer.withTwoStores(extensions: [cascadeEdges.databaseExtension]) { first, second in
            try await cascadeSeenWhole(first, second)
        }
    }

    func cascadeSeenWhole(_ first: PostgresStore, _ second: PostgresStore) async throws {
        // 100 parents, each with 10 children that go with it.
        let parents = (0..<100).map { CascadeNode(id: String(format: "p%03d", $0)) }
        let children = (0..<1_000).map { CascadeNode(id: String(format: "c%04d", $0), next: [String(format: "p%03d", $0 / 10)]) }
        try await first.write { tx in
            try await tx.write(parents)
            try await tx.write(children)
        }
        #expect(try await second.count(of: CascadeNode.self) == 1_100)
        #expect(try await cascadeEdges.sources(pointingTo: "p007", edge: "next").count(in: second) == 10)
        _ = try await second.write { tx in try await tx.remove(CascadeNode.self, keys: parents.prefix(50).map(\.id)) }
        // Half the parents went, with their 500 children, in one commit the other instance sees whole.
        #expect(try await first.count(of: CascadeNode.self) == 550)
        #expect(try await cascadeEdges.sources(pointingTo: "p007", edge: "next").count(in: first) == 0)
        #expect(try await cascadeEdges.sources(pointingTo: "p077", edge: "next").count(in: first) == 10)
    }

    /// Two instances removing at once, with cascades that meet: the server's serialization
    /// failures run a body again, cascade included, never half; the result is the model's.
    @Test func concurrentCascadesOfTwoInstancesMatchTheModel() async throws {
        try await TestServer.withTwoStores(extensions: [cascadeEdges.databaseExtension]) { first, second in
            try await concurrentCascades(first, second)
        }
    }

    func concurrentCascades(_ first: PostgresStore, _ second: PostgresStore) async throws {
        for seed in 0..<8 {
            var random = SeededGenerator(seed: UInt64(seed) &+ 101)
            let nodes = RelationshipEngineTests.randomGraph(&random)
            let tags = (0..<5).map { CascadeTag(id: "t\($0)") }
            try await first.write { tx in
                _ = try await tx.removeAll(CascadeNode.self)
                _ = try await tx.removeAll(CascadeTag.self)
                try await tx.write(Array(nodes.values))
                try await tx.write(tags)
            }
            var model = RelationshipEngineTests.Model(
                nodes: nodes, aliveNodes: Set(nodes.keys), aliveTags: Set(tags.map(\.id)))
            let ids = nodes.keys.sorted()
            let victims = (0..<2).map { _ in ids.randomElement(using: &random)! }
            async let one: Bool = first.write { tx in try await tx.remove(CascadeNode.self, key: victims[0]) }
            async let other: Bool = second.write { tx in try await tx.remove(CascadeNode.self, key: victims[1]) }
            _ = try await (one, other)
            for victim in victims { model.remove(victim, isTag: false) }
            #expect(Set(try await first.keys(of: CascadeNode.self)) == model.aliveNodes, "seed \(seed): \(victims)")
            #expect(Set(try await second.keys(of: CascadeTag.self)) == model.aliveTags, "seed \(seed): \(victims)")
        }
    }
}
