/// Relationships: named edges from the items of one model to items of others, kept in the same
/// file and transaction as the items, with delete rules that cascade inside the write
/// transaction that removes an item (YapDatabase's Relationships extension).
///
/// Define the edges of a model once and register them with the database. trove-gen generates
/// this from `// @relationship(...)` annotations:
///
/// ```swift
/// let postEdges = Relationships<Post>("post_edges", edges: [
///     .to("author", User.self, rules: .deleteSourceWhenDestinationDeleted) { $0.authorID },
///     .to("tags", Tag.self, rules: .deleteDestinationWhenAllSourcesDeleted) { $0.tagIDs },
/// ])
/// let database = try Database(path: path, extensions: [postEdges.databaseExtension])
///
/// try connection.write { tx in
///     try tx.remove(User.self, key: ada.id)   // her posts go too, in this transaction
/// }
/// let posts = try connection.read { tx in
///     try postEdges.sources(pointingTo: grace.id, edge: "author", in: tx)
/// }
/// ```
///
/// Every write of a `Post`, typed or untyped, recomputes its edges, so changing `authorID` moves
/// the edge. Edges point at keys: an edge may point at an item that does not exist (yet).
/// Removals that rules decide are ordinary removals: indexes, full-text search and the
/// changeset see them, and they fire the rules of their own edges (a cycle ends: an item is
/// removed once). See <doc:RelationshipsAndDeleteRules>.
public struct Relationships<Source: Persistable>: Sendable {
    /// The name of the extension, unique among the extensions of a file.
    public let name: String
    /// The version of the definition: a new version rebuilds the edges.
    public let version: Int
    /// The edges.
    public let edges: [RelationshipEdge<Source>]
    let implementation: RelationshipsImplementation<Source>

    /// Defines the relationships of the items of `Source`.
    ///
    /// - Parameters:
    ///   - name: The name of the extension: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1). Changing the edges rebuilds them
    ///     at the same version too.
    ///   - edges: The edges, with distinct names.
    public init(_ name: String, version: Int = 1, edges: [RelationshipEdge<Source>]) {
        self.name = name
        self.version = version
        self.edges = edges
        implementation = RelationshipsImplementation(name: name, edges: edges)
    }

    /// The relationships as an extension to register (``Database/register(_:)-(DatabaseExtension)``).
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: implementation)
    }

    // MARK: Manual edges

    /// Adds an edge named `edge`, declared with ``RelationshipEdge/manual(_:to:rules:)``, from
    /// the stored item at `source` to the item at `destination` (which need not exist). The
    /// source counts as updated in the changeset. Adding an edge that exists does nothing more.
    ///
    /// - Parameters:
    ///   - edge: The name of a manual edge.
    ///   - source: The key of the source, which must exist.
    ///   - destination: The key of the destination.
    ///   - transaction: The write transaction.
    /// - Throws: ``TroveError`` when the edge is not a manual edge of this relationship, the
    ///   source does not exist, the extension is not registered or SQLite fails.
    public func addEdge(
        _ edge: String, from source: Source.ID, to destination: some ItemKey, in transaction: ReadWriteTransaction
    ) throws {
        let rowID = try manualEdgeSource(edge, source, in: transaction)
        if let offset = implementation.edgesByName[edge], edges[offset].isFile {
            try implementation.checkFilePath(destination.itemKey, edge: edges[offset], key: source.itemKey)
        }
        let core = transaction.checkedCore
        try implementation.insertEdge(
            source: rowID, edge: edge, destination: destination.itemKey, manual: true,
            in: ExtensionContext(core: core, name: name, implementation: implementation))
        // Again by the source's key, for a rebuild to keep it.
        let statement = try core.sqlite.cachedStatement(implementation.insertManualSQL)
        do {
            defer { statement.reset() }
            try statement.bind(source.itemKey, at: 1)
            try statement.bind(edge, at: 2)
            try statement.bind(destination.itemKey, at: 3)
            try statement.stepToEnd()
        }
        _ = try core.touchRow(key: source.itemKey, collection: Source.collection)
    }

    /// Removes the manual edge named `edge` from `source` to `destination`. The source counts as
    /// updated in the changeset.
    ///
    /// By default no rule applies: rules act on removals of items. With `end`, the edge's rules
    /// apply as if that end had been removed (YapDatabase's processed edge removal): removing the
    /// last edge to a destination whose rule is ``DeleteRules/deleteDestinationWhenAllSourcesDeleted``
    /// `asIf: .source` removes the destination, in the same transaction, with its own cascade.
    ///
    /// ```swift
    /// try folders.removeEdge("files", from: folderID, to: fileID, applyingRulesAsIfRemoved: .source, in: tx)
    /// ```
    ///
    /// - Parameters:
    ///   - edge: The name of a manual edge.
    ///   - source: The key of the source.
    ///   - destination: The key of the destination.
    ///   - end: The end whose removal the rules act as if it happened; `nil` (the default): none.
    ///   - transaction: The write transaction.
    /// - Returns: `true` when there was such an edge.
    /// - Throws: ``TroveError`` when the edge is not a manual edge of this relationship, the
    ///   source does not exist, the extension is not registered or SQLite fails.
    @discardableResult
    public func removeEdge(
        _ edge: String, from source: Source.ID, to destination: some ItemKey,
        applyingRulesAsIfRemoved end: RelationshipNotice.Removed? = nil, in transaction: ReadWriteTransaction
    ) throws -> Bool {
        let rowID = try manualEdgeSource(edge, source, in: transaction)
        let core = transaction.checkedCore
        let statement = try core.sqlite.cachedStatement(implementation.deleteSQL)
        do {
            defer { statement.reset() }
            try statement.bind(rowID, at: 1)
            try statement.bind(edge, at: 2)
            try statement.bind(destination.itemKey, at: 3)
            try statement.stepToEnd()
        }
        guard core.sqlite.changes > 0 else { return false }
        let manual = try core.sqlite.cachedStatement(implementation.deleteManualSQL)
        do {
            defer { manual.reset() }
            try manual.bind(source.itemKey, at: 1)
            try manual.bind(edge, at: 2)
            try manual.bind(destination.itemKey, at: 3)
            try manual.stepToEnd()
        }
        _ = try core.touchRow(key: source.itemKey, collection: Source.collection)
        if let end, let offset = implementation.edgesByName[edge] {
            try implementation.applyRules(
                ofRemovedEdge: edges[offset], source: (rowID, source.itemKey), destinationKey: destination.itemKey,
                asIf: end, in: ExtensionContext(core: core, name: name, implementation: implementation))
        }
        return true
    }

    /// Adds the manual edge `edge` from `source` to `destination`, as the synchronous
    /// `addEdge(_:from:to:in:)` does, in a write transaction of any engine (a Trove file's, or a
    /// PostgreSQL store's).
    ///
    /// - Parameters:
    ///   - edge: The name of a manual edge.
    ///   - source: The key of the source, which must exist.
    ///   - destination: The key of the destination.
    ///   - transaction: The write transaction.
    /// - Throws: ``TroveError`` when the edge is not a manual edge of this relationship, the
    ///   source does not exist, the extension is not kept, or the engine fails.
    public func addEdge(
        _ edge: String, from source: Source.ID, to destination: some ItemKey, in transaction: some TransactionWriting
    ) async throws {
        _ = try await transaction.changeManualEdge(
            self, edge: edge, from: source, to: destination.itemKey, adding: true, applyingRulesAsIfRemoved: nil)
    }

    /// Removes the manual edge `edge` from `source` to `destination`, as the synchronous
    /// `removeEdge(_:from:to:applyingRulesAsIfRemoved:in:)` does, in a write transaction of any
    /// engine. A PostgreSQL store refuses to apply the rules (`end`).
    ///
    /// - Parameters:
    ///   - edge: The name of a manual edge.
    ///   - source: The key of the source.
    ///   - destination: The key of the destination.
    ///   - end: The end whose removal the rules act as if it happened; `nil` (the default): none.
    ///   - transaction: The write transaction.
    /// - Returns: `true` when there was such an edge.
    /// - Throws: As the asynchronous `addEdge(_:from:to:in:)`.
    @discardableResult
    public func removeEdge(
        _ edge: String, from source: Source.ID, to destination: some ItemKey,
        applyingRulesAsIfRemoved end: RelationshipNotice.Removed? = nil, in transaction: some TransactionWriting
    ) async throws -> Bool {
        try await transaction.changeManualEdge(
            self, edge: edge, from: source, to: destination.itemKey, adding: false, applyingRulesAsIfRemoved: end)
    }

    /// What the edges are kept from, for another engine to check it keeps these relationships.
    package var fingerprint: String { implementation.fingerprint }

    // MARK: Running

    /// The row id of `source`, after checking that `edge` is a manual edge and the extension is
    /// queryable.
    private func manualEdgeSource(_ edge: String, _ source: Source.ID, in transaction: ReadWriteTransaction) throws
        -> Int64
    {
        let core = transaction.checkedCore
        try core.checkQueryable(name, fingerprint: implementation.fingerprint)
        guard let offset = implementation.edgesByName[edge], edges[offset].isManual else {
            throw TroveError.noManualEdge(edge, of: name, collection: Source.collection, key: source.itemKey)
        }
        guard let rowID = try core.selectRowID(key: source.itemKey, collection: Source.collection) else {
            throw TroveError.noManualEdgeSource(edge, of: name, collection: Source.collection, key: source.itemKey)
        }
        return rowID
    }
}

extension TroveError {
    /// The error of a manual edge's change naming an edge that is not a manual edge of the
    /// relationships `relationships`, on every engine.
    package static func noManualEdge(_ edge: String, of relationships: String, collection: String, key: String)
        -> TroveError
    {
        TroveError(
            code: .extensionFailed,
            message:
                "The relationship '\(relationships)' has no manual edge named '\(edge)': declare it with .manual(\"\(edge)\", to:) to add or remove edges of it by hand.",
            collection: collection, key: key, extensionName: relationships)
    }

    /// The error of a manual edge's change from an item that does not exist, on every engine.
    package static func noManualEdgeSource(_ edge: String, of relationships: String, collection: String, key: String)
        -> TroveError
    {
        TroveError(
            code: .extensionFailed,
            message: "The relationship '\(relationships)' cannot add or remove an edge '\(edge)' of an item that does not exist.",
            collection: collection, key: key, extensionName: relationships)
    }
}
