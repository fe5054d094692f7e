/// What a traversal of relationships' edges reads: the edges named `edge` of one extension, from
/// a source to its destinations or from a destination back to its sources. Not generic, the same
/// for every engine.
@usableFromInline
package struct RelationshipTraversal: Sendable {
    /// Which way the edges are followed.
    package enum Direction: Sendable, Hashable {
        /// From the source at this key to its destinations.
        case destinations(ofSource: String)
        /// From the destination at this key back to its sources.
        case sources(pointingTo: String)
    }

    /// The name of the relationships extension.
    package var extensionName: String
    /// The extension's definition, which must be the registered one.
    package var fingerprint: String
    /// The collection of the sources.
    package var sourceCollection: String
    /// The edge followed.
    package var edge: String
    /// Every edge of the extension, for the error of an unknown one.
    package var knownEdges: [String]
    /// Which way, from which key.
    package var direction: Direction
    /// At most this many results, when set.
    @usableFromInline package var limit: Int?
    /// The statements of the extension (SQLite).
    let implementation: any RelationshipStatements
}

/// The statements with which SQLite follows the edges of one relationships extension.
protocol RelationshipStatements: Sendable {
    /// The distinct destination keys of the edges named `?3` of the source at key `?2` of
    /// collection `?1`, by key.
    var selectDestinationKeysSQL: String { get }
    /// Their number.
    var countDestinationsSQL: String { get }
    /// The distinct keys of the sources whose edges named `?1` point at key `?2`.
    var selectSourceKeysSQL: String { get }
    /// Their number.
    var countSourcesSQL: String { get }
}

/// A traversal of relationships, as a value: the destinations of a source's edges (a post's
/// author, its tags) or the sources whose edges point at an item (a user's posts). Its terminals
/// (``ItemQuery``) return the items that exist, in the order of their keys; `keys` and `count`
/// also count edges to keys where no item is stored.
///
/// ```swift
/// let author = try await post.author.first(in: database)        // generated from `// @relationship`
/// let posts = try Post.relationships.sources(pointingTo: ada.id, edge: "author").items(in: database)
/// ```
public struct RelationshipQuery<Item: Persistable>: ItemQuery {
    @usableFromInline var traversal: RelationshipTraversal

    init(traversal: RelationshipTraversal) {
        self.traversal = traversal
    }

    /// The traversal limited to `limit` results.
    ///
    /// - Parameter limit: The largest number of results (a negative number counts as 0).
    /// - Returns: The limited traversal.
    public func limit(_ limit: Int) -> Self {
        var copy = self
        copy.traversal.limit = max(0, limit)
        return copy
    }

    /// What the traversal reads, for the engine that runs it.
    @inlinable
    public var plan: QueryPlan<Item> {
        QueryPlan(.edges(traversal))
    }
}

extension Relationships {
    /// The destinations of `source`'s edges named `edge`, as a query.
    ///
    /// ```swift
    /// let tags = try Post.relationships.destinations(of: post.id, edge: "tags", as: Tag.self).items(in: db)
    /// ```
    ///
    /// - Parameters:
    ///   - source: The key of the source.
    ///   - edge: The name of the edge; a name the relationships do not have makes the query throw
    ///     ``TroveError/Code/extensionFailed``, listing the edges.
    ///   - type: The model of the destinations.
    /// - Returns: The query.
    public func destinations<Destination: Persistable>(
        of source: Source.ID, edge: String, as type: Destination.Type = Destination.self
    ) -> RelationshipQuery<Destination> {
        RelationshipQuery(traversal: traversal(edge, .destinations(ofSource: source.itemKey)))
    }

    /// The sources whose edges named `edge` point at `destination` (a user's posts), as a query.
    ///
    /// - Parameters:
    ///   - destination: The key of the destination.
    ///   - edge: The name of the edge; an unknown name makes the query throw
    ///     ``TroveError/Code/extensionFailed``.
    /// - Returns: The query.
    public func sources(pointingTo destination: some ItemKey, edge: String) -> RelationshipQuery<Source> {
        RelationshipQuery(traversal: traversal(edge, .sources(pointingTo: destination.itemKey)))
    }

    private func traversal(_ edge: String, _ direction: RelationshipTraversal.Direction) -> RelationshipTraversal {
        RelationshipTraversal(
            extensionName: name, fingerprint: implementation.fingerprint, sourceCollection: Source.collection,
            edge: edge, knownEdges: edges.map(\.name), direction: direction, limit: nil,
            implementation: implementation)
    }
}

// What every engine does with the keys its table of edges gives for a traversal, written once.
extension RelationshipTraversal {
    /// Throws the error of an edge the relationships do not have, listing those they have.
    package func checkEdge() throws {
        guard !knownEdges.contains(edge) else { return }
        let known = knownEdges.map { "'\($0)'" }.joined(separator: ", ")
        throw TroveError(
            code: .extensionFailed,
            message:
                "The relationship '\(extensionName)' has no edge named '\(edge)'; its edges are \(known.isEmpty ? "none" : known).",
            collection: sourceCollection, extensionName: extensionName)
    }

    /// `keys` (distinct) in the order of `Item`'s keys, at most ``limit`` of them.
    package func ordered<Item: Persistable>(_ keys: [String], of type: Item.Type) -> [String] {
        var keys = keys
        keys.sort(by: ItemKeyOrder(of: Item.ID.self).precedes)
        if let limit, keys.count > limit {
            keys.removeSubrange(limit...)
        }
        return keys
    }

    /// `keys` as `Item`'s keys, or the error of one that is not.
    package func ids<Item: Persistable>(_ keys: [String], of type: Item.Type) throws -> [Item.ID] {
        try keys.map { key in
            guard let id = Item.ID(itemKey: key) else {
                throw TroveError(
                    code: .invalidKey, message: "The key '\(key)' is not a valid \(Item.ID.self).",
                    collection: Item.collection, key: key, extensionName: extensionName)
            }
            return id
        }
    }

    /// A count of distinct keys, after the limit.
    package func limited(_ count: Int) -> Int {
        limit.map { min($0, count) } ?? count
    }

    /// The traversal without its limit: the items terminal reads keys until it has `limit`
    /// items that exist.
    package var unlimited: Self {
        var copy = self
        copy.limit = nil
        return copy
    }
}

extension ReadTransaction {
    /// The keys a traversal reaches, distinct, in the order of `Item`'s keys, limited.
    func traversalKeys<Item: Persistable>(_ traversal: RelationshipTraversal, of type: Item.Type) throws -> [String] {
        let statements = traversal.implementation
        let sql: String
        switch traversal.direction {
        case .destinations: sql = statements.selectDestinationKeysSQL
        case .sources: sql = statements.selectSourceKeysSQL
        }
        var keys: [String] = []
        try runTraversal(traversal, sql) { keys.append($0.string(at: 0)) }
        return traversal.ordered(keys, of: Item.self)
    }

    /// The keys a traversal reaches, as `Item`'s keys.
    @usableFromInline
    func traversalIDs<Item: Persistable>(_ traversal: RelationshipTraversal, of type: Item.Type) throws -> [Item.ID] {
        try traversal.ids(traversalKeys(traversal, of: Item.self), of: Item.self)
    }

    /// The number of distinct keys a traversal reaches (after its limit).
    @usableFromInline
    func traversalCount(_ traversal: RelationshipTraversal) throws -> Int {
        let statements = traversal.implementation
        let sql: String
        switch traversal.direction {
        case .destinations: sql = statements.countDestinationsSQL
        case .sources: sql = statements.countSourcesSQL
        }
        var count = 0
        try runTraversal(traversal, sql) { count = Int($0.int64(at: 0)) }
        return traversal.limited(count)
    }

    /// The items a traversal reaches that exist, in the order of their keys.
    @usableFromInline
    func traversalItems<Item: Persistable>(_ traversal: RelationshipTraversal, of type: Item.Type) throws -> [Item] {
        let keys = try traversalKeys(traversal.unlimited, of: Item.self).compactMap { Item.ID(itemKey: $0) }
        var items: [Item] = []
        for key in keys {
            if let limit = traversal.limit, items.count >= limit { break }
            if let item = try read(Item.self, key: key) { items.append(item) }
        }
        return items
    }

    private func runTraversal(_ traversal: RelationshipTraversal, _ sql: String, row: (Statement) throws -> Void)
        throws
    {
        try traversal.checkEdge()
        let core = checkedCore
        recorder?.recordIndex(traversal.extensionName, of: traversal.sourceCollection)
        try core.checkQueryable(traversal.extensionName, fingerprint: traversal.fingerprint)
        let statement = try core.sqlite.cachedStatement(sql)
        defer { statement.reset() }
        switch traversal.direction {
        case .destinations(let source):
            try statement.bind(traversal.sourceCollection, at: 1)
            try statement.bind(source, at: 2)
            try statement.bind(traversal.edge, at: 3)
        case .sources(let destination):
            try statement.bind(traversal.edge, at: 1)
            try statement.bind(destination, at: 2)
        }
        while try statement.step() {
            try row(statement)
        }
    }
}
