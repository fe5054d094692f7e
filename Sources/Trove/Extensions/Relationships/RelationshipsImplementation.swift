/// How a ``Relationships`` keeps its table of edges and applies its delete rules.
///
/// ## The table
///
/// `trove_ext_<name>` holds one row per edge, `(src, edge, dst_key, manual)`, without a rowid:
///
/// - `src`: the row id of the source in `trove_items`. Sources always exist: the removal of a
///   source removes its edges in the same transaction.
/// - `edge`: the edge's name, which gives its destination collection and its rules (both come
///   from the definition, and are in its fingerprint: changing them rebuilds the table).
/// - `dst_key`: the key of the destination in that collection. A key, not a row id: an edge may
///   point at an item that does not exist yet, or any more, as the property that describes it
///   does; the edge holds while the property holds.
/// - `manual`: 1 for an edge added by hand, which writes of the source leave alone.
///
/// An index on `(edge, dst_key)` finds the sources of a destination.
///
/// `trove_ext_<name>_manual` holds the manual edges again, `(src_key, edge, dst_key)`, by the
/// key of the source: the edges that no item describes, so that a rebuild (a new version or
/// definition, a stale copy) recomputes the property edges from the items and keeps these
/// (``tablesKeptByRebuild(name:storedFingerprint:)``). A rebuild drops the manual edges whose
/// source no longer exists or whose name is no longer a manual edge of the definition.
///
/// `trove_ext_<name>_files`, only when the definition has edges to files, holds the removals of
/// files that committed transactions decided and that may not have been performed yet
/// (`(edge, path, device, inode, modified)`; see `FileEdges.swift`). A rebuild keeps it.
///
/// The format is in the fingerprint, and a rebuild climbs from the stored one: `v1` had no
/// `_manual` table (its manual edges are taken from its edge table, which the rebuild keeps
/// for that); `v2` keeps `_manual`.
///
/// ## The rules
///
/// The extension follows the source collection and every destination collection. A removal of
/// a source removes its edges and applies the destination-side rules; a removal of a
/// destination applies the source-side rules and leaves the edges (they mirror the sources'
/// properties). The removals that rules decide are queued on the connection and run through the
/// write funnel (``ConnectionCore/runCascade()``), so that each is an ordinary removal.
struct RelationshipsImplementation<Source: Persistable>: ExtensionImplementation, RelationshipStatements {
    let name: String
    let edges: [RelationshipEdge<Source>]
    let table: String
    let fingerprint: String
    /// The edges by name.
    let edgesByName: [String: Int]
    /// The collections the destinations are in.
    let destinationCollections: Set<String>
    /// Whether the removal of a source needs its edges read before they go: for a rule that acts
    /// on it, or for manual edges to remove by the source's key too. Otherwise they only go.
    let readsEdgesOfRemovedSources: Bool

    /// The table of the manual edges, by the key of their source.
    let manualTable: String
    /// Whether an edge points at files: only then is there a ``filesTable``.
    let hasFileEdges: Bool
    /// The table of the removals of files decided by committed transactions.
    let filesTable: String
    let insertFileRemovalSQL: String
    let selectFileRemovalsSQL: String
    let deleteFileRemovalSQL: String
    let deleteAllFileRemovalsSQL: String
    private let createSQL: String
    let insertSQL: String
    let deleteSQL: String
    let insertManualSQL: String
    let deleteManualSQL: String
    private let deleteManualOfSourceSQL: String
    private let deleteAllManualSQL: String
    private let deletePropertyEdgesSQL: String
    private let deleteAllSQL: String
    private let deleteEdgesOfSourcesSQL: String
    private let deletePropertyEdgesToDestinationSQL: String
    private let selectEdgesOfSourcesSQL: String
    private let selectSourcesSQL: String
    let countSourcesSQL: String
    /// Whether any edge of a name (`?1`) points at a destination (`?2`).
    let selectAnySourceSQL: String
    private let selectLiveDestinationSQL: String
    let selectDestinationKeysSQL: String
    let selectSourceKeysSQL: String
    let countDestinationsSQL: String

    init(name: String, edges: [RelationshipEdge<Source>]) {
        self.name = name
        self.edges = edges
        table = "trove_ext_\(name)"
        fingerprint =
            "\(Self.format) \(Source.collection): "
            + edges.map {
                "\($0.name) -> \($0.fileFolder.map { "files in \($0)" } ?? $0.destinationCollection) \($0.rules.rawValue)\($0.isManual ? " manual" : "")"
            }
            .joined(separator: ", ")
        var byName: [String: Int] = [:]
        for (offset, edge) in edges.enumerated() where byName[edge.name] == nil { byName[edge.name] = offset }
        edgesByName = byName
        destinationCollections = Set(edges.filter { !$0.isFile }.map(\.destinationCollection))
        readsEdgesOfRemovedSources = edges.contains { $0.rules.actOnSourceRemoval || $0.isManual }
        manualTable = "trove_ext_\(name)_manual"
        hasFileEdges = edges.contains(where: \.isFile)
        filesTable = "trove_ext_\(name)_files"
        let quoted = "\"\(table)\""
        let manualQuoted = "\"\(manualTable)\""
        let filesQuoted = "\"\(filesTable)\""
        // IF NOT EXISTS: a rebuild may keep the tables (see `tablesKeptByRebuild`).
        createSQL = """
            CREATE TABLE IF NOT EXISTS \(quoted) (
                src INTEGER NOT NULL, edge TEXT NOT NULL, dst_key TEXT NOT NULL, manual INTEGER NOT NULL,
                PRIMARY KEY (src, edge, dst_key, manual)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS "\(table)_dst" ON \(quoted) (edge, dst_key);
            CREATE TABLE IF NOT EXISTS \(manualQuoted) (
                src_key TEXT NOT NULL, edge TEXT NOT NULL, dst_key TEXT NOT NULL,
                PRIMARY KEY (src_key, edge, dst_key)) WITHOUT ROWID;
            """
            + (hasFileEdges
                ? """

                CREATE TABLE IF NOT EXISTS \(filesQuoted) (
                    edge TEXT NOT NULL, path TEXT NOT NULL, device INTEGER NOT NULL, inode INTEGER NOT NULL,
                    modified INTEGER NOT NULL, PRIMARY KEY (edge, path)) WITHOUT ROWID;
                """ : "")
        insertFileRemovalSQL =
            "INSERT OR REPLACE INTO \(filesQuoted) (edge, path, device, inode, modified) VALUES (?1, ?2, ?3, ?4, ?5)"
        selectFileRemovalsSQL = "SELECT edge, path, device, inode, modified FROM \(filesQuoted)"
        deleteFileRemovalSQL = "DELETE FROM \(filesQuoted) WHERE edge = ?1 AND path = ?2"
        deleteAllFileRemovalsSQL = "DELETE FROM \(filesQuoted)"
        insertManualSQL = "INSERT OR IGNORE INTO \(manualQuoted) (src_key, edge, dst_key) VALUES (?1, ?2, ?3)"
        deleteManualSQL = "DELETE FROM \(manualQuoted) WHERE src_key = ?1 AND edge = ?2 AND dst_key = ?3"
        deleteManualOfSourceSQL = "DELETE FROM \(manualQuoted) WHERE src_key = ?1"
        deleteAllManualSQL = "DELETE FROM \(manualQuoted)"
        insertSQL = "INSERT OR IGNORE INTO \(quoted) (src, edge, dst_key, manual) VALUES (?1, ?2, ?3, ?4)"
        deleteSQL = "DELETE FROM \(quoted) WHERE src = ?1 AND edge = ?2 AND dst_key = ?3 AND manual = 1"
        deletePropertyEdgesSQL = "DELETE FROM \(quoted) WHERE src = ?1 AND manual = 0"
        deleteAllSQL = "DELETE FROM \(quoted)"
        // The edges of the removed sources whose row ids are in a range (see `RowIDRanges`).
        deleteEdgesOfSourcesSQL = "DELETE FROM \(quoted) WHERE src >= ?1 AND src <= ?2"
        // The property edges of one name to one destination, found through the index on
        // (edge, dst_key): each row's entry in the primary key is then found by its integer source
        // first, where finding a source's entries in that index compares two texts per step.
        deletePropertyEdgesToDestinationSQL =
            "DELETE FROM \(quoted) WHERE edge = ?1 AND dst_key = ?2 AND manual = 0"
        selectEdgesOfSourcesSQL = "SELECT src, edge, dst_key, manual FROM \(quoted) WHERE src >= ?1 AND src <= ?2"
        // In the order of the index on (edge, dst_key), which ends with the primary key: a source
        // with a manual and a property edge to the destination comes twice in a row, and is taken
        // once (no temporary B-tree for a DISTINCT).
        selectSourcesSQL =
            "SELECT e.src, t.key FROM \(quoted) AS e JOIN trove_items AS t ON t.rowid = e.src WHERE e.edge = ?1 AND e.dst_key = ?2 ORDER BY e.src"
        countSourcesSQL = "SELECT count(DISTINCT src) FROM \(quoted) WHERE edge = ?1 AND dst_key = ?2"
        // Whether any edge of a name points at a destination: the first entry of the index, where
        // a count of distinct sources fills a temporary B-tree.
        selectAnySourceSQL = "SELECT 1 FROM \(quoted) WHERE edge = ?1 AND dst_key = ?2 LIMIT 1"
        selectLiveDestinationSQL =
            "SELECT 1 FROM \(quoted) AS e JOIN trove_items AS t ON t.collection = ?3 AND t.key = e.dst_key WHERE e.src = ?1 AND e.edge = ?2 LIMIT 1"
        selectDestinationKeysSQL =
            "SELECT DISTINCT e.dst_key FROM \(quoted) AS e JOIN trove_items AS t ON t.rowid = e.src WHERE t.collection = ?1 AND t.key = ?2 AND e.edge = ?3 ORDER BY e.dst_key"
        selectSourceKeysSQL =
            "SELECT DISTINCT t.key FROM \(quoted) AS e JOIN trove_items AS t ON t.rowid = e.src WHERE e.edge = ?1 AND e.dst_key = ?2 ORDER BY t.key"
        countDestinationsSQL =
            "SELECT count(DISTINCT e.dst_key) FROM \(quoted) AS e JOIN trove_items AS t ON t.rowid = e.src WHERE t.collection = ?1 AND t.key = ?2 AND e.edge = ?3"
    }

    var kind: String { "relationships" }
    var collection: String { Source.collection }
    var needsRemovedRows: Bool { true }

    func follows(_ collection: String) -> Bool {
        collection == Source.collection || destinationCollections.contains(collection)
    }

    /// The format of the tables, first in the fingerprint.
    static var format: String { "relationships v2" }

    func tableNames(name: String) -> [String] {
        hasFileEdges ? [table, manualTable, filesTable] : [table, manualTable]
    }

    /// The manual edges, from the stored format: `v2` keeps its `_manual` table; `v1` kept them
    /// in its edge table only, which ``populate(name:in:progress:)`` moves them out of.
    func tablesKeptByRebuild(name: String, storedFingerprint: String) -> [String] {
        if storedFingerprint.hasPrefix(Self.format + " ") { return [manualTable, filesTable] }
        if storedFingerprint.hasPrefix("relationships v1 ") { return [table] }
        return []
    }

    func create(name: String, in context: ExtensionContext) throws {
        try validate()
        try context.sqlite.execute(createSQL)
    }

    /// Recomputes the property edges from the items, and puts back the manual edges that a
    /// rebuild kept and that still hold: their source exists and their name is a manual edge.
    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        let quoted = "\"\(table)\""
        let manualQuoted = "\"\(manualTable)\""
        let sqlite = context.sqlite
        // A kept edge table (format v1) hands its manual edges over to the manual table.
        do {
            let statement = try sqlite.makeStatement(
                """
                INSERT OR IGNORE INTO \(manualQuoted) (src_key, edge, dst_key)
                SELECT t.key, e.edge, e.dst_key FROM \(quoted) AS e JOIN trove_items AS t ON t.rowid = e.src
                WHERE e.manual = 1 AND t.collection = ?1
                """)
            try statement.bind(Source.collection, at: 1)
            try statement.stepToEnd()
        }
        try sqlite.execute("DELETE FROM \(quoted)")
        // Manual edges of a name the definition no longer declares manual, or of a source gone.
        var names: [String] = []
        do {
            let statement = try sqlite.makeStatement("SELECT DISTINCT edge FROM \(manualQuoted)")
            while try statement.step() { names.append(statement.string(at: 0)) }
        }
        for edge in names where edgesByName[edge].map({ !edges[$0].isManual }) ?? true {
            let statement = try sqlite.makeStatement("DELETE FROM \(manualQuoted) WHERE edge = ?1")
            try statement.bind(edge, at: 1)
            try statement.stepToEnd()
        }
        do {
            let statement = try sqlite.makeStatement(
                """
                DELETE FROM \(manualQuoted) WHERE NOT EXISTS
                (SELECT 1 FROM trove_items AS t WHERE t.collection = ?1 AND t.key = \(manualQuoted).src_key)
                """)
            try statement.bind(Source.collection, at: 1)
            try statement.stepToEnd()
        }
        try ExtensionItems<Source>.forEachStored(name: name, in: context, progress: progress) { rowID, key, item in
            try storeEdges(of: item, rowID: rowID, key: key, replacing: false, in: context)
        }
        let statement = try sqlite.makeStatement(
            """
            INSERT OR IGNORE INTO \(quoted) (src, edge, dst_key, manual)
            SELECT t.rowid, m.edge, m.dst_key, 1 FROM \(manualQuoted) AS m
            JOIN trove_items AS t ON t.collection = ?1 AND t.key = m.src_key
            """)
        try statement.bind(Source.collection, at: 1)
        try statement.stepToEnd()
    }

    /// Performs the removals of files that a process stopped before performing.
    func recover(name: String, in context: ExtensionContext) throws {
        try settleRecordedFileRemovals(in: context)
    }

    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        let isSource = event.collection == Source.collection
        switch event.kind {
        case .touched:
            return
        case .inserted, .dataUpdated, .metadataUpdated:
            guard isSource else { return }
            // A source that does not decode keeps the edges it had: its keys cannot be read, and
            // taking its edges away would run delete rules for an item that was not removed.
            guard let item = try ExtensionItems<Source>.resolveReadable(event, name: name, in: context) else {
                return
            }
            try storeEdges(of: item, rowID: event.rowID, key: event.key, replacing: event.kind != .inserted, in: context)
        case .removed:
            try applyRemovals(
                [RemovedRow(rowID: event.rowID, key: event.key, collection: event.collection)], name: name, in: context)
        }
    }

    /// Removed sources lose their edges, as a batch; the rules of removed sources and
    /// destinations are queued, then the queue runs (unless it is running: it picks them up).
    func applyRemovals(_ rows: [RemovedRow], name: String, in context: ExtensionContext) throws {
        guard let collection = rows.first?.collection else { return }
        if collection == Source.collection {
            try sourcesRemoved(rows, in: context)
        }
        if destinationCollections.contains(collection) {
            for row in rows {
                try destinationRemoved(key: row.key, collection: collection, in: context)
            }
        }
        try context.core.runCascade()
    }

    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try context.sqlite.executeCached(deleteAllSQL)
        try context.sqlite.executeCached(deleteAllManualSQL)
    }

    func removeAll(rows: [RemovedRow]?, ofCollection removed: String?, name: String, in context: ExtensionContext)
        throws
    {
        // Everything went: nothing is left to cascade to or to notify, but files to remove.
        guard let removed else {
            try queueEveryFile(in: context)
            return try removeAll(rows: rows, name: name, in: context)
        }
        if removed == Source.collection {
            // Every source went: the destination-side rules of every edge apply.
            var pending: [(edge: RelationshipEdge<Source>, source: String, destination: String)] = []
            let statement = try context.sqlite.makeStatement(
                "SELECT e.edge, e.dst_key, e.src FROM \"\(table)\" AS e")
            while try statement.step() {
                guard let offset = edgesByName[statement.string(at: 0)], edges[offset].rules.actOnSourceRemoval
                else { continue }
                pending.append((edges[offset], String(statement.int64(at: 2)), statement.string(at: 1)))
            }
            let keys = Dictionary(
                (rows ?? []).map { (String($0.rowID), $0.key) }, uniquingKeysWith: { first, _ in first })
            try context.sqlite.executeCached(deleteAllSQL)
            try context.sqlite.executeCached(deleteAllManualSQL)
            for (edge, rowID, destination) in pending {
                try destinationSideRules(
                    edge, sourceKey: keys[rowID] ?? "", destinationKey: destination, sourcesLeft: 0, in: context)
            }
        }
        if destinationCollections.contains(removed) {
            for row in rows ?? [] {
                try destinationRemoved(key: row.key, collection: removed, in: context)
            }
        }
        try context.core.runCascade()
    }

    // MARK: Edges

    /// Stores the property edges of `item`, at `key` (after removing the old ones when `replacing`).
    private func storeEdges(of item: Source, rowID: Int64, key: String, replacing: Bool, in context: ExtensionContext)
        throws
    {
        if replacing {
            let statement = try context.sqlite.cachedStatement(deletePropertyEdgesSQL)
            defer { statement.reset() }
            try statement.bind(rowID, at: 1)
            try statement.stepToEnd()
        }
        var offset = 0
        while offset < edges.count {
            let edge = edges[offset]
            offset += 1
            guard let destinations = edge.destinations else { continue }
            for destination in destinations(item) {
                if edge.isFile { try checkFilePath(destination, edge: edge, key: key) }
                try insertEdge(source: rowID, edge: edge.name, destination: destination, manual: false, in: context)
            }
        }
    }

    func insertEdge(source: Int64, edge: String, destination: String, manual: Bool, in context: ExtensionContext)
        throws
    {
        let statement = try context.sqlite.cachedStatement(insertSQL)
        defer { statement.reset() }
        try statement.bind(source, at: 1)
        try statement.bind(edge, at: 2)
        try statement.bind(destination, at: 3)
        try statement.bind(Int64(manual ? 1 : 0), at: 4)
        try statement.stepToEnd()
    }

    // MARK: Rules

    /// Sources went (`rows`, of the source collection): their edges go, by ranges of consecutive
    /// row ids (one statement for the sources written together), and the rules that act on a
    /// source's removal are queued, source after source.
    private func sourcesRemoved(_ rows: [RemovedRow], in context: ExtensionContext) throws {
        let ranges = RowIDRanges.of(rows.lazy.map(\.rowID))
        // The edges that go, by source, when a rule or a manual edge needs them.
        var removedEdges: [Int64: [(edge: String, destination: String)]] = [:]
        var sourcesWithManualEdges: Set<Int64> = []
        if readsEdgesOfRemovedSources {
            for range in ranges {
                let statement = try context.sqlite.cachedStatement(selectEdgesOfSourcesSQL)
                defer { statement.reset() }
                try statement.bind(range.lowerBound, at: 1)
                try statement.bind(range.upperBound, at: 2)
                while try statement.step() {
                    let source = statement.int64(at: 0)
                    removedEdges[source, default: []].append((statement.string(at: 1), statement.string(at: 2)))
                    if statement.int64(at: 3) != 0 { sourcesWithManualEdges.insert(source) }
                }
            }
            guard !removedEdges.isEmpty else { return }
        }
        for range in ranges {
            let statement = try context.sqlite.cachedStatement(deleteEdgesOfSourcesSQL)
            defer { statement.reset() }
            try statement.bind(range.lowerBound, at: 1)
            try statement.bind(range.upperBound, at: 2)
            try statement.stepToEnd()
        }
        guard readsEdgesOfRemovedSources else { return }
        for row in rows {
            guard let edgesOfRow = removedEdges[row.rowID] else { continue }
            if sourcesWithManualEdges.contains(row.rowID) {
                let statement = try context.sqlite.cachedStatement(deleteManualOfSourceSQL)
                defer { statement.reset() }
                try statement.bind(row.key, at: 1)
                try statement.stepToEnd()
            }
            for (name, destination) in edgesOfRow {
                guard let offset = edgesByName[name], edges[offset].rules.actOnSourceRemoval else { continue }
                let edge = edges[offset]
                let left =
                    edge.rules.countsSourcesLeft
                    ? try countSources(edge: name, destination: destination, in: context) : 0
                try destinationSideRules(
                    edge, sourceKey: row.key, destinationKey: destination, sourcesLeft: left, in: context)
            }
        }
    }

    /// Queues what `edge`'s rules do to its destination once its source went.
    private func destinationSideRules(
        _ edge: RelationshipEdge<Source>, sourceKey: String, destinationKey: String, sourcesLeft: Int,
        in context: ExtensionContext
    ) throws {
        if edge.isFile {
            if edge.rules.removesDestination(sourcesLeft: sourcesLeft) {
                queueFileRemoval(edge, path: destinationKey, in: context)
            }
            return
        }
        let destination = ItemAddress(collection: edge.destinationCollection, key: destinationKey)
        if edge.rules.removesDestination(sourcesLeft: sourcesLeft) {
            context.core.cascade.removals.append((destination.collection, RowRemoval(key: destinationKey, rowID: nil)))
        }
        if edge.rules.contains(.notifyDestinationWhenSourceDeleted) {
            let notice = RelationshipNotice(
                relationship: name, edge: edge.name, removed: .source,
                source: ItemAddress(collection: Source.collection, key: sourceKey), destination: destination)
            context.core.cascade.notices.append((notice, edge.notifyDestination))
        }
    }

    /// A destination went: the rules that act on a destination's removal are queued for its
    /// sources. The edges stay: they are the sources' properties.
    private func destinationRemoved(key: String, collection: String, in context: ExtensionContext) throws {
        var offset = 0
        while offset < edges.count {
            let edge = edges[offset]
            offset += 1
            guard !edge.isFile, edge.destinationCollection == collection, edge.rules.actOnDestinationRemoval else {
                continue
            }
            var sources: [(rowID: Int64, key: String)] = []
            do {
                let statement = try context.sqlite.cachedStatement(selectSourcesSQL)
                defer { statement.reset() }
                try statement.bind(edge.name, at: 1)
                try statement.bind(key, at: 2)
                while try statement.step() {
                    let rowID = statement.int64(at: 0)
                    // The same source again, by a manual edge beside a property edge.
                    if sources.last?.rowID == rowID { continue }
                    sources.append((rowID, statement.string(at: 1)))
                }
            }
            guard !sources.isEmpty else { continue }
            if edge.rules.sourceRemoval == .always, !edge.isManual, !edge.rules.actOnSourceRemoval {
                // Every source goes, and nothing its removal decides reads this edge: its rows go
                // now, all at once from the destination's side, and the sources' removal finds
                // them gone (a third cheaper per edge than by each source).
                let statement = try context.sqlite.cachedStatement(deletePropertyEdgesToDestinationSQL)
                defer { statement.reset() }
                try statement.bind(edge.name, at: 1)
                try statement.bind(key, at: 2)
                try statement.stepToEnd()
            }
            let destination = ItemAddress(collection: collection, key: key)
            for source in sources {
                try sourceSideRules(edge, source: source, destination: destination, in: context)
            }
        }
    }

    /// Queues what `edge`'s rules do to `source` once its destination went (or its edge to it,
    /// removed as if the destination went).
    private func sourceSideRules(
        _ edge: RelationshipEdge<Source>, source: (rowID: Int64, key: String), destination: ItemAddress,
        in context: ExtensionContext
    ) throws {
        let cascade = context.core.cascade
        let removal = (Source.collection, RowRemoval(key: source.key, rowID: source.rowID))
        switch edge.rules.sourceRemoval {
        case .always:
            cascade.removals.append(removal)
        case .whenNoDestinationLeft:
            if try !hasLiveDestination(source: source.rowID, edge: edge, in: context) {
                cascade.removals.append(removal)
            }
        case .never:
            break
        }
        if edge.rules.contains(.notifySourceWhenDestinationDeleted) {
            let notice = RelationshipNotice(
                relationship: name, edge: edge.name, removed: .destination,
                source: ItemAddress(collection: Source.collection, key: source.key), destination: destination)
            cascade.notices.append((notice, edge.notifySource))
        }
    }

    /// Applies `edge`'s rules to the removal of its row from `source` (its row id and key) to
    /// `destinationKey`, as if `end` had been removed, then runs what they queue.
    func applyRules(
        ofRemovedEdge edge: RelationshipEdge<Source>, source: (rowID: Int64, key: String), destinationKey: String,
        asIf end: RelationshipNotice.Removed, in context: ExtensionContext
    ) throws {
        switch end {
        case .source:
            guard edge.rules.actOnSourceRemoval else { return }
            let left =
                edge.rules.countsSourcesLeft
                ? try countSources(edge: edge.name, destination: destinationKey, in: context) : 0
            try destinationSideRules(
                edge, sourceKey: source.key, destinationKey: destinationKey, sourcesLeft: left, in: context)
        case .destination:
            guard edge.rules.actOnDestinationRemoval else { return }
            try sourceSideRules(
                edge, source: source,
                destination: ItemAddress(collection: edge.destinationCollection, key: destinationKey), in: context)
        }
        try context.core.runCascade()
    }

    /// The number of sources whose edges named `edge` still point at `destination`, counted up
    /// to 1: the rules ask only whether any is left (``DeleteRules/removesDestination(sourcesLeft:)``),
    /// and the first entry of the index answers that, where a count of distinct sources fills a
    /// temporary B-tree.
    private func countSources(edge: String, destination: String, in context: ExtensionContext) throws -> Int {
        let statement = try context.sqlite.cachedStatement(selectAnySourceSQL)
        defer { statement.reset() }
        try statement.bind(edge, at: 1)
        try statement.bind(destination, at: 2)
        return try statement.step() ? 1 : 0
    }

    /// Whether one destination of `source`'s edges named like `edge` still exists.
    private func hasLiveDestination(source: Int64, edge: RelationshipEdge<Source>, in context: ExtensionContext) throws
        -> Bool
    {
        let statement = try context.sqlite.cachedStatement(selectLiveDestinationSQL)
        defer { statement.reset() }
        try statement.bind(source, at: 1)
        try statement.bind(edge.name, at: 2)
        try statement.bind(edge.destinationCollection, at: 3)
        return try statement.step()
    }

    /// Throws when the edges cannot be told apart.
    func validate() throws {
        var seen: Set<String> = []
        let fileRules: DeleteRules = [.deleteDestinationWhenSourceDeleted, .deleteDestinationWhenAllSourcesDeleted]
        for edge in edges {
            if let folder = edge.fileFolder {
                let problem: String? =
                    if folder.isEmpty || folder.utf8.contains(0) {
                        "has no folder"
                    } else if !fileRules.isSuperset(of: edge.rules) {
                        "has the rules \(edge.rules.subtracting(fileRules)), which act on items: only \(fileRules) apply to files"
                    } else {
                        nil
                    }
                if let problem {
                    throw TroveError(
                        code: .extensionFailed,
                        message: "The edge to files '\(edge.name)' of the relationship '\(name)' \(problem).",
                        collection: Source.collection, extensionName: name)
                }
            }
            guard !edge.name.isEmpty, seen.insert(edge.name).inserted else {
                throw TroveError(
                    code: .extensionFailed,
                    message:
                        "The relationship '\(name)' has \(edge.name.isEmpty ? "an edge without a name" : "two edges named '\(edge.name)'").",
                    collection: Source.collection, extensionName: name)
            }
        }
    }
}
