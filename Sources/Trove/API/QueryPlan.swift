/// What a query selects, as the engine that runs it reads it: which extension, and the clauses.
///
/// Apps never build one: each query type (``IndexQuery``, ``FullTextQuery``,
/// ``RelationshipQuery``, ``SpatialQuery``) describes itself with one, and the engine behind a
/// transaction runs it (SQLite's ``ReadTransaction`` here, PostgreSQL's in TrovePostgres, each in
/// its own SQL dialect). An engine that cannot run a kind of query refuses it with an error naming
/// it, never skips it. A query of an extension of your own makes its plan with
/// ``init(extension:keys:)``.
public struct QueryPlan<Item: Persistable>: Sendable {
    /// The extension a query reads, with its clauses.
    @usableFromInline
    package enum Source: Sendable {
        /// A query of a secondary index.
        case index(SecondaryIndex<Item>, IndexQueryClauses)
        /// A full-text search.
        case search(FullTextSearch<Item>, FullTextClauses)
        /// A traversal of relationships' edges to the items of `Item`.
        case edges(RelationshipTraversal)
        /// The rows of a group of a view.
        case view(ViewRowsRead<Item>)
        /// A query of an extension written on the public protocol, which reads its keys.
        case extensionKeys(ExtensionKeysRead)
    }

    @usableFromInline package var source: Source

    @inlinable
    package init(_ source: Source) {
        self.source = source
    }

    /// The plan of the first result only: at most one, after the same offset.
    @inlinable
    package var first: Self {
        var copy = self
        switch source {
        case .index(let index, let clauses):
            copy.source = .index(index, clauses.first)
        case .search(let search, var clauses):
            clauses.limit = min(clauses.limit ?? 1, 1)
            copy.source = .search(search, clauses)
        case .edges(var traversal):
            traversal.limit = min(traversal.limit ?? 1, 1)
            copy.source = .edges(traversal)
        case .view(var read):
            let lower = read.range?.lowerBound ?? 0
            read.range = lower..<min(read.range?.upperBound ?? Int.max, lower + 1)
            copy.source = .view(read)
        case .extensionKeys(var read):
            read.limit = min(read.limit ?? 1, 1)
            copy.source = .extensionKeys(read)
        }
        return copy
    }

    /// What kind of query this is, in words, for the error of an engine that cannot run it.
    package var kind: String {
        switch source {
        case .index(let index, _): "a query of the index '\(index.name)'"
        case .search(let search, _): "the full-text search '\(search.name)'"
        case .edges(let traversal): "a traversal of the relationships '\(traversal.extensionName)'"
        case .view(let read): "a read of the view '\(read.viewName)'"
        case .extensionKeys(let read): "a query of the extension '\(read.extensionName)'"
        }
    }
}

extension QueryPlan {
    /// The plan of a query of an extension of your own (see ``ExtensionImplementation``), which
    /// makes the query an ``ItemQuery`` with every terminal: `keys` reads, in a SQLite
    /// transaction, the stored keys (``ItemKey/itemKey``) of the items the query selects, in its
    /// order, at most `limit` of them when `limit` is not `nil` (the `first` terminals pass 1),
    /// usually with ``ReadTransaction/extensionTables(named:)``.
    ///
    /// ```swift
    /// struct RecentNotes: ItemQuery {
    ///     var plan: QueryPlan<Note> {
    ///         QueryPlan(extension: "recent_notes") { tx, limit in
    ///             var keys: [String] = []
    ///             try tx.extensionTables(named: "recent_notes").select(
    ///                 "SELECT key FROM trove_ext_recent_notes ORDER BY at DESC LIMIT ?", [.integer(Int64(limit ?? -1))]
    ///             ) { keys.append($0.string(at: 0)) }
    ///             return keys
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The `items` terminals read the items of these keys through the connection's cache, in that
    /// order (a key with no item is skipped); `keys` converts them to `Item.ID`; `count` counts
    /// them. Another engine (PostgreSQL) refuses the query with an error naming the extension.
    ///
    /// - Parameters:
    ///   - name: The name of the extension the query reads, for errors.
    ///   - keys: Reads the stored keys of the selected items, in order, at most `limit`.
    public init(
        extension name: String,
        keys: @escaping @Sendable (_ transaction: ReadTransaction, _ limit: Int?) throws -> [String]
    ) {
        self.init(.extensionKeys(ExtensionKeysRead(extensionName: name, limit: nil, read: keys)))
    }

    /// The plan of a query of an extension of your own that finds the row ids of the items it
    /// selects (``WriteEvent/rowID``, which its tables keep) beside their keys, as
    /// ``init(extension:keys:)`` describes otherwise.
    ///
    /// The `items` terminals then read the rows by their ids in one statement per thousand, in
    /// order, through the connection's cache, instead of one lookup by key per item: what a
    /// spatial index's query does.
    ///
    /// - Parameters:
    ///   - name: The name of the extension the query reads, for errors.
    ///   - matches: Reads the row ids and stored keys of the selected items, in order, at most
    ///     `limit`. Each row id must be that of a stored item of `Item`'s collection in the
    ///     transaction: a row id without an item fails the terminal with
    ///     ``TroveError/Code/corruptDatabase``.
    public init(
        extension name: String,
        matches: @escaping @Sendable (_ transaction: ReadTransaction, _ limit: Int?) throws -> [ExtensionMatch]
    ) {
        self.init(.extensionKeys(ExtensionKeysRead(extensionName: name, limit: nil, matches: matches)))
    }
}

/// An item that a query of an extension selects: its row id (``WriteEvent/rowID``) and its key
/// (see ``QueryPlan/init(extension:matches:)``).
public struct ExtensionMatch: Sendable, Hashable {
    /// The row id of the item.
    public var rowID: Int64
    /// The stored key of the item.
    public var key: String

    /// A match from its row id and key.
    ///
    /// - Parameters:
    ///   - rowID: The row id of the item, as ``WriteEvent/rowID`` gave it.
    ///   - key: The stored key of the item.
    public init(rowID: Int64, key: String) {
        self.rowID = rowID
        self.key = key
    }
}

/// A query of an extension of your own, as its plan holds it (see
/// ``QueryPlan/init(extension:keys:)``).
@usableFromInline
package struct ExtensionKeysRead: Sendable {
    /// The name of the extension.
    @usableFromInline package let extensionName: String
    /// The most keys to read, or `nil`: what the `first` terminals set.
    @usableFromInline package var limit: Int?
    /// Reads the keys.
    @usableFromInline let read: @Sendable (ReadTransaction, Int?) throws -> [String]
    /// Reads the row ids and keys, when the query finds them (``QueryPlan/init(extension:matches:)``).
    @usableFromInline let readMatches: (@Sendable (ReadTransaction, Int?) throws -> [ExtensionMatch])?

    @usableFromInline
    init(extensionName: String, limit: Int?, read: @escaping @Sendable (ReadTransaction, Int?) throws -> [String]) {
        self.extensionName = extensionName
        self.limit = limit
        self.read = read
        readMatches = nil
    }

    @usableFromInline
    init(
        extensionName: String, limit: Int?,
        matches: @escaping @Sendable (ReadTransaction, Int?) throws -> [ExtensionMatch]
    ) {
        self.extensionName = extensionName
        self.limit = limit
        read = { transaction, limit in try matches(transaction, limit).map(\.key) }
        readMatches = matches
    }

    /// The items of the query, read in `transaction`: by their row ids in one statement per
    /// chunk when the query finds them, else each by its key.
    ///
    /// - Throws: What the query throws; ``TroveError/Code/corruptDatabase`` for a row id without
    ///   an item.
    @inlinable
    func items<Item: Persistable>(of type: Item.Type, in transaction: ReadTransaction) throws -> [Item] {
        guard let readMatches else {
            return try transaction.read(Item.self, keys: ids(of: Item.self, in: transaction))
        }
        let rowIDs = try readMatches(transaction, limit).map(\.rowID)
        return try transaction.decodedItems(Item.self) {
            try transaction.readItemRows(
                rowIDs: rowIDs, collection: Item.collection, withMetadata: Item.Metadata.self != NoMetadata.self,
                missing: { offset in
                    TroveError(
                        code: .corruptDatabase,
                        message:
                            "The extension '\(extensionName)' selected a row where no item is stored (result \(offset + 1) of its query): rebuild it with a new version.",
                        collection: Item.collection, extensionName: extensionName)
                },
                cached: $0, decodeData: $1, decodeMetadata: $2, decoded: $3)
        }
    }

    /// The keys of the query, read in `transaction`, as `Item.ID`s.
    ///
    /// - Throws: What the query throws; ``TroveError/Code/invalidKey`` for a key that is not an
    ///   `Item.ID`.
    @inlinable
    func ids<Item: Persistable>(of type: Item.Type, in transaction: ReadTransaction) throws -> [Item.ID] {
        try read(transaction, limit).map { key in
            guard let id = Item.ID(itemKey: key) else {
                throw TroveError(
                    code: .invalidKey,
                    message:
                        "The extension '\(extensionName)' gave the key '\(key)', which is not a valid \(Item.ID.self).",
                    collection: Item.collection, key: key, extensionName: extensionName)
            }
            return id
        }
    }
}
