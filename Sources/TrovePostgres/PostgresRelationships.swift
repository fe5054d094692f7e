import NIOCore
import PostgresNIO
import Trove

/// Relationships that a ``PostgresStore`` keeps: the same `Relationships` definition a Trove file
/// uses (generated from `// @relationship` annotations, brought by `models:`), its edges in a table
/// of their own, and its delete rules applied inside the transaction that removes an item.
///
/// ## The table
///
/// `edges_<name> (src_key, edge, dst_key)` holds one row per edge of each stored source, keyed by
/// all three; an index on `(edge, dst_key)` finds the sources of a destination. The writes of
/// sources replace their edges in one statement per batch, held back until the transaction's next
/// statement or its commit, as the rows of items are; the removal of a source removes them. An
/// edge points at a key: its destination need not exist.
///
/// ## The rules
///
/// What each rule decides is Trove's (`DeleteRules`, the same code as on a Trove file); this type
/// reads what the decisions need from its table (the edges of the removed sources, the sources
/// left of their destinations, whether a source has a destination left), a statement for all the
/// items removed together, and queues the removals on the transaction
/// (``PostgresReadWriteTransaction/queueRemoval(_:)``), which runs them in waves of ordinary
/// removals, each firing the rules of its own edges, until none is left: cascades are transitive,
/// end on cycles (an item already gone is skipped), and belong to the transaction, so a
/// serialization failure that runs the body again runs them again, never half.
///
/// Notify rules queue a `RelationshipNotice` for each notified item; once the removals are done,
/// the transaction delivers them (`RelationshipNotifier`, the same code as on a Trove file) and
/// does what each item answers. Manual edges are kept in the same table, changed only by
/// `addEdge` and `removeEdge` (a write of a source replaces only the edges read from its
/// properties), and kept by a rebuild.
struct PostgresRelationships: Sendable {
    /// One edge of the definition, as the rules need it.
    struct Edge: Sendable {
        var name: String
        var destinationCollection: String
        var rules: DeleteRules
        /// Whether the edge is added and removed by hand (`addEdge`, `removeEdge`), not read from
        /// the sources' properties.
        var isManual: Bool
        /// Tells the source of a removed destination (a notify rule).
        var notifySource: RelationshipNotifier
        /// Tells the destination of a removed source (a notify rule).
        var notifyDestination: RelationshipNotifier
    }

    let name: String
    let version: Int
    let fingerprint: String
    /// The collection of the sources.
    let collection: String
    let edges: [Edge]
    /// The edges by name.
    let edgesByName: [String: Edge]
    /// The edges of an item of the source type, as (edge, destination key); `nil` for another type.
    let edgesOfItem: @Sendable (any Sendable) -> [(edge: String, key: String)]?
    /// The edges of a stored source, decoded.
    let edgesOfRow: @Sendable (PostgresReadTransaction, ByteBuffer, ByteBuffer?, String) throws -> [(edge: String, key: String)]

    /// The PostgreSQL form of `definition`, whose edges are all read from the sources'
    /// properties and have no notify rule (checked by the caller).
    init<Definition: RelationshipsDefinition>(_ definition: Definition) {
        typealias Source = Definition.Source
        name = definition.name
        version = definition.version
        fingerprint = "relationships " + definition.fingerprint
        collection = Source.collection
        edges = definition.edges.map {
            Edge(
                name: $0.name, destinationCollection: $0.destinationCollection, rules: $0.rules,
                isManual: $0.isManual, notifySource: $0.notifySource, notifyDestination: $0.notifyDestination)
        }
        edgesByName = Dictionary(edges.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let readers = definition.edges.compactMap { edge in edge.destinations.map { (edge.name, $0) } }
        @Sendable func edgesOf(_ source: Source) -> [(edge: String, key: String)] {
            var result: [(edge: String, key: String)] = []
            for (edge, destinations) in readers {
                for key in destinations(source) { result.append((edge, key)) }
            }
            return result
        }
        edgesOfItem = { item in (item as? Source).map(edgesOf) }
        edgesOfRow = { transaction, data, metadata, key in
            edgesOf(try transaction.decodeItem(Source.self, data: data, metadata: metadata, key: key))
        }
    }

    func table(_ names: PostgresNames) -> String { names.edgeTable(name) }

    /// The names of the edges read from the sources' properties, which a write of a source replaces.
    var propertyEdges: [String] { edges.filter { !$0.isManual }.map(\.name) }

    /// The names of the manual edges, which only `addEdge` and `removeEdge` change.
    var manualEdges: [String] { edges.filter(\.isManual).map(\.name) }

    /// Whether a rule of some edge acts when a source goes.
    var actsOnSourceRemoval: Bool { edges.contains { $0.rules.actOnSourceRemoval } }

    /// Replaces the edges of each source of `sources` (by key) with the edges given for it, in
    /// one statement: the edges that are no longer there go, the new ones come, the others stay.
    func replaceEdges(of sources: [String: [(edge: String, key: String)]], in transaction: PostgresReadWriteTransaction)
        async throws
    {
        let table = table(transaction.names)
        var keys: [String] = []
        var sourceKeys: [String] = []
        var edgeNames: [String] = []
        var destinations: [String] = []
        for (key, edges) in sources {
            keys.append(key)
            for (edge, destination) in edges {
                sourceKeys.append(key)
                edgeNames.append(edge)
                destinations.append(destination)
            }
        }
        let sql = """
            WITH new (src_key, edge, dst_key) AS (SELECT * FROM unnest($2::text[], $3::text[], $4::text[])),
            gone AS (
                DELETE FROM \(table) WHERE src_key = ANY($1) AND edge = ANY($5)
                AND (src_key, edge, dst_key) NOT IN (SELECT src_key, edge, dst_key FROM new))
            INSERT INTO \(table) (src_key, edge, dst_key) SELECT DISTINCT src_key, edge, dst_key FROM new
            ON CONFLICT DO NOTHING
            """
        _ = try await transaction.query(
            sql, keys, sourceKeys, edgeNames, destinations, propertyEdges, collection: collection,
            key: keys.count == 1 ? keys[0] : nil)
    }

    // MARK: Rules

    /// An edge of a source that went.
    typealias LostEdge = (source: String, edge: String, destination: String)

    /// Sources went: their edges go, and what the rules decide for their destinations is queued.
    private func sourcesRemoved(keys: [String], in transaction: PostgresReadWriteTransaction) async throws {
        let table = table(transaction.names)
        guard actsOnSourceRemoval else {
            // No rule acts when a source goes: its edges go, and nothing comes back.
            _ = try await transaction.query(
                "DELETE FROM \(table) WHERE src_key = ANY($1)", keys, collection: collection,
                key: keys.count == 1 ? keys[0] : nil)
            return
        }
        var removed: [LostEdge] = []
        for try await row in try await transaction.query(
            "DELETE FROM \(table) WHERE src_key = ANY($1) RETURNING src_key, edge, dst_key", keys,
            collection: collection, key: keys.count == 1 ? keys[0] : nil
        ).decode((String, String, String).self) {
            removed.append(row)
        }
        try await destinationsLost(removed, in: transaction)
    }

    /// Queues what the rules decide for the destinations of `removed`, the edges of sources that
    /// went: the sources left of each destination are counted in one statement.
    private func destinationsLost(_ removed: [LostEdge], in transaction: PostgresReadWriteTransaction) async throws {
        var seen: Set<[String]> = []
        var lost: [(edge: Edge, key: String)] = []
        for (source, name, key) in removed {
            guard let edge = edgesByName[name], edge.rules.actOnSourceRemoval else { continue }
            if edge.rules.contains(.notifyDestinationWhenSourceDeleted) {
                transaction.queueNotice(
                    RelationshipNotice(
                        relationship: self.name, edge: name, removed: .source,
                        source: ItemAddress(collection: collection, key: source),
                        destination: ItemAddress(collection: edge.destinationCollection, key: key)),
                    to: edge.notifyDestination)
            }
            if seen.insert([name, key]).inserted { lost.append((edge, key)) }
        }
        var left: [[String]: Int] = [:]
        let counted = lost.filter(\.edge.rules.countsSourcesLeft)
        if !counted.isEmpty {
            let sql = """
                SELECT u.edge, u.dst_key, (SELECT count(DISTINCT e.src_key) FROM \(table(transaction.names)) AS e
                WHERE e.edge = u.edge AND e.dst_key = u.dst_key)
                FROM unnest($1::text[], $2::text[]) AS u (edge, dst_key)
                """
            for try await (edge, key, count) in try await transaction.query(
                sql, counted.map(\.edge.name), counted.map(\.key), collection: collection
            ).decode((String, String, Int64).self) {
                left[[edge, key]] = Int(count)
            }
        }
        for (edge, key) in lost where edge.rules.removesDestination(sourcesLeft: left[[edge.name, key]] ?? 0) {
            transaction.queueRemoval(CacheKey(collection: edge.destinationCollection, key: key))
        }
    }

    /// Destinations went: what the rules decide for the sources that point at them is queued, in
    /// one statement per edge (and one more for an edge that notifies its sources). The edges
    /// stay: they are the sources' properties.
    private func destinationsRemoved(
        keys: [String], collection removed: String, in transaction: PostgresReadWriteTransaction
    ) async throws {
        let table = table(transaction.names)
        for edge in edges where edge.destinationCollection == removed {
            if edge.rules.contains(.notifySourceWhenDestinationDeleted) {
                for try await (source, destination) in try await transaction.query(
                    "SELECT src_key, dst_key FROM \(table) WHERE edge = $1 AND dst_key = ANY($2) ORDER BY src_key, dst_key",
                    edge.name, keys, collection: collection
                ).decode((String, String).self) {
                    transaction.queueNotice(
                        RelationshipNotice(
                            relationship: name, edge: edge.name, removed: .destination,
                            source: ItemAddress(collection: collection, key: source),
                            destination: ItemAddress(collection: removed, key: destination)),
                        to: edge.notifySource)
                }
            }
            let sql: String
            switch edge.rules.sourceRemoval {
            case .never:
                continue
            case .always:
                sql = "SELECT DISTINCT src_key FROM \(table) WHERE edge = $1 AND dst_key = ANY($2)"
            case .whenNoDestinationLeft:
                sql = """
                    SELECT DISTINCT s.src_key FROM \(table) AS s WHERE s.edge = $1 AND s.dst_key = ANY($2)
                    AND NOT EXISTS (SELECT 1 FROM \(table) AS e JOIN \(transaction.names.items) AS i
                    ON i.collection = $3 AND i.key = e.dst_key WHERE e.src_key = s.src_key AND e.edge = $1)
                    """
            }
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(edge.name)
            bindings.append(keys)
            if edge.rules.sourceRemoval == .whenNoDestinationLeft { bindings.append(removed) }
            for try await source in try await transaction.run(
                PostgresQuery(unsafeSQL: sql, binds: bindings), collection: collection
            ).decode(String.self) {
                transaction.queueRemoval(CacheKey(collection: collection, key: source))
            }
        }
    }
}

extension PostgresRelationships: PostgresHoldingBack {
    var followedRemovals: Set<String> {
        Set(edges.filter(\.rules.actOnDestinationRemoval).map(\.destinationCollection)).union([collection])
    }

    /// Makes the table again, keeping the manual edges whose names are still manual edges (a
    /// rebuild recomputes the edges read from the sources and keeps those added by hand, as on a
    /// Trove file).
    func makeTables(in transaction: PostgresReadWriteTransaction) async throws {
        let table = table(transaction.names)
        var manual: [LostEdge] = []
        var exists = false
        if !manualEdges.isEmpty {
            for try await found in try await transaction.query("SELECT to_regclass($1) IS NOT NULL", table)
                .decode(Bool.self)
            {
                exists = found
            }
        }
        if exists {
            for try await row in try await transaction.query(
                "SELECT src_key, edge, dst_key FROM \(table) WHERE edge = ANY($1)", manualEdges, collection: collection
            ).decode((String, String, String).self) {
                manual.append(row)
            }
        }
        _ = try await transaction.query("DROP TABLE IF EXISTS \(table)")
        _ = try await transaction.query(
            """
            CREATE TABLE \(table) (
                src_key text COLLATE "C" NOT NULL, edge text NOT NULL, dst_key text COLLATE "C" NOT NULL,
                PRIMARY KEY (src_key, edge, dst_key)
            )
            """)
        _ = try await transaction.query("CREATE INDEX ON \(table) (edge, dst_key)")
        if !manual.isEmpty {
            _ = try await transaction.query(
                "INSERT INTO \(table) (src_key, edge, dst_key) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])",
                manual.map(\.source), manual.map(\.edge), manual.map(\.destination), collection: collection)
        }
    }

    /// Adds or removes the manual edge `edge` from the stored item at `source` to `destination`;
    /// the source counts as changed, as on a Trove file.
    ///
    /// - Returns: Whether an edge was removed (`true` for an addition).
    func changeManualEdge(
        _ edge: String, from source: String, to destination: String, adding: Bool,
        in transaction: PostgresReadWriteTransaction
    ) async throws -> Bool {
        guard edgesByName[edge]?.isManual == true else {
            throw TroveError.noManualEdge(edge, of: name, collection: collection, key: source)
        }
        var exists = false
        for try await _ in try await transaction.query(
            "SELECT 1 FROM \(transaction.names.items) WHERE collection = $1 AND key = $2", collection, source,
            collection: collection, key: source)
        {
            exists = true
        }
        guard exists else { throw TroveError.noManualEdgeSource(edge, of: name, collection: collection, key: source) }
        let table = table(transaction.names)
        let sql =
            adding
            ? "INSERT INTO \(table) (src_key, edge, dst_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1"
            : "DELETE FROM \(table) WHERE src_key = $1 AND edge = $2 AND dst_key = $3 RETURNING 1"
        var changed = false
        for try await _ in try await transaction.query(sql, source, edge, destination, collection: collection, key: source) {
            changed = true
        }
        if changed { transaction.noteTouched(CacheKey(collection: collection, key: source)) }
        return adding || changed
    }

    /// The edges of a source written.
    func heldRow(of item: any Sendable) -> (any Sendable)? { edgesOfItem(item) }

    /// The edges of a stored source.
    func heldRow(key: String, data: ByteBuffer, metadata: ByteBuffer?, in transaction: PostgresReadWriteTransaction)
        throws -> any Sendable
    {
        try edgesOfRow(transaction, data, metadata, key)
    }

    /// Replaces the edges of the sources written, in one statement.
    func sendHeldBack(_ rows: [String: any Sendable], in transaction: PostgresReadWriteTransaction) async throws {
        try await replaceEdges(of: rows.compactMapValues { $0 as? [(edge: String, key: String)] }, in: transaction)
    }

    func removed(keys: [String], collection removed: String, in transaction: PostgresReadWriteTransaction) async throws {
        if removed == collection {
            try await sourcesRemoved(keys: keys, in: transaction)
        }
        try await destinationsRemoved(keys: keys, collection: removed, in: transaction)
    }

    func needsRemovedKeys(of removed: String) -> Bool {
        edges.contains { $0.destinationCollection == removed && $0.rules.actOnDestinationRemoval }
    }

    func removedAll(of removed: String, keys: [String], in transaction: PostgresReadWriteTransaction) async throws {
        if removed == collection {
            // Every source went: every edge goes, and the destination-side rules of each apply.
            var edges: [LostEdge] = []
            for try await row in try await transaction.query(
                "DELETE FROM \(table(transaction.names)) RETURNING src_key, edge, dst_key", collection: collection
            ).decode((String, String, String).self) {
                edges.append(row)
            }
            try await destinationsLost(edges, in: transaction)
        }
        if !keys.isEmpty {
            try await destinationsRemoved(keys: keys, collection: removed, in: transaction)
        }
    }
}
