/// The clauses of a search: the query, the text to return with each hit, limit and offset.
@usableFromInline
package struct FullTextClauses: Sendable {
    package var query: SearchQuery
    package var excerpt: FullTextExcerpt?
    package var indexFilters: [FullTextIndexFilter] = []
    @usableFromInline package var limit: Int?
    package var offset = 0

    init(query: SearchQuery) {
        self.query = query
    }
}

/// Conditions on a secondary index of the same items, which every hit must meet.
package struct FullTextIndexFilter: Sendable {
    let index: IndexQueryPlanner
    /// The name of the index.
    package var indexName: String { index.name }
    package let conditions: [IndexQueryClauses.Condition]
}

/// The text a search returns with each hit: a snippet or the highlighted text of a column.
package struct FullTextExcerpt: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case snippet(ellipsis: String, tokens: Int)
        case highlight
    }

    package var kind: Kind
    package var column: String
    package var before: String
    package var after: String
}

/// A search of a ``FullTextSearch``, as a value: the matching items, best first (by bm25 with
/// the columns' weights, then by key), returned by its terminals (``ItemQuery``) as items, keys
/// or a count, or as hits with a score and a snippet.
///
/// ```swift
/// let search = Message.search(for: .prefixes(of: "swi"))
///     .snippets(of: "body", before: "[", after: "]")
///     .limit(20, offset: 40)
/// for hit in try await search.hits(in: database) { print(hit.key, hit.snippet ?? "") }
/// ```
///
/// A query without words (``SearchQuery/prefixes(of:)`` of empty input) matches nothing. Items
/// come through the connection's cache like any other read.
public struct FullTextQuery<Item: Persistable>: ItemQuery {
    let search: FullTextSearch<Item>
    var clauses: FullTextClauses

    init(search: FullTextSearch<Item>, clauses: FullTextClauses) {
        self.search = search
        self.clauses = clauses
    }

    /// What the search selects, for the engine that runs it.
    public var plan: QueryPlan<Item> {
        QueryPlan(.search(search, clauses))
    }

    /// The search with at most `limit` results, after skipping `offset`.
    ///
    /// - Parameters:
    ///   - limit: The most results (at least 0).
    ///   - offset: The results to skip first (default 0).
    /// - Returns: The limited search.
    public func limit(_ limit: Int, offset: Int = 0) -> Self {
        var copy = self
        copy.clauses.limit = max(0, limit)
        copy.clauses.offset = max(0, offset)
        return copy
    }

    /// The search narrowed to the items that meet `conditions` in `index`, a secondary index of
    /// the same items: "search my unread messages". The ranking stays the search's.
    ///
    /// ```swift
    /// let unread = try messageSearch.query(for: .prefixes(of: input))
    ///     .filter(messagesByState, .column("unread", equals: true))
    ///     .hits(tx)
    /// ```
    ///
    /// - Parameters:
    ///   - index: A secondary index of `Item`, registered on the database.
    ///   - conditions: Conditions on columns of the index: every one must hold.
    /// - Returns: The narrowed search.
    public func filter(_ index: SecondaryIndex<Item>, _ conditions: IndexCondition<Item>...) -> Self {
        var indexClauses = IndexQueryClauses()
        indexClauses.add(conditions)
        var copy = self
        copy.clauses.indexFilters.append(FullTextIndexFilter(index: index.planner, conditions: indexClauses.conditions))
        return copy
    }

    /// The search with a snippet of `column` in each hit (FTS5's `snippet()`): a fragment of at
    /// most `tokens` tokens of the column's text around the matches, each match between `before`
    /// and `after`, with `ellipsis` where the text was cut.
    ///
    /// - Parameters:
    ///   - column: The name of a column of the search.
    ///   - before: The text before each match (default `<b>`).
    ///   - after: The text after each match (default `</b>`).
    ///   - ellipsis: The text where the column's text was cut (default `…`).
    ///   - tokens: The most tokens in the fragment, 1 to 64 (default 16).
    /// - Returns: The search; ``hits(_:)-(ReadTransaction)`` returns the snippets in ``SearchHit/snippet``.
    public func snippets(
        of column: String, before: String = "<b>", after: String = "</b>", ellipsis: String = "…", tokens: Int = 16
    ) -> Self {
        var copy = self
        copy.clauses.excerpt = FullTextExcerpt(
            kind: .snippet(ellipsis: ellipsis, tokens: min(64, max(1, tokens))), column: column, before: before,
            after: after)
        return copy
    }

    /// The search with the whole text of `column` in each hit, every match between `before` and
    /// `after` (FTS5's `highlight()`).
    ///
    /// - Parameters:
    ///   - column: The name of a column of the search.
    ///   - before: The text before each match (default `<b>`).
    ///   - after: The text after each match (default `</b>`).
    /// - Returns: The search; ``hits(_:)-(ReadTransaction)`` returns the text in ``SearchHit/snippet``.
    public func highlights(of column: String, before: String = "<b>", after: String = "</b>") -> Self {
        var copy = self
        copy.clauses.excerpt = FullTextExcerpt(kind: .highlight, column: column, before: before, after: after)
        return copy
    }
}

extension FullTextQuery {
    /// The matching items, best first, with their keys, bm25 scores and the snippet or
    /// highlighted text asked for, read in `transaction`.
    ///
    /// - Parameter transaction: A read (or read-write) transaction of a SQLite database.
    /// - Returns: The hits, best first.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/invalidSearchQuery`` when a raw query
    ///   is not valid FTS5 syntax, ``TroveError/Code/extensionFailed`` when the search is not
    ///   registered, is stale or has no such column, ``TroveError/Code/invalidKey`` for a stored
    ///   key that is not an `Item.ID`, a decoding error, or an SQLite error.
    public func hits(_ transaction: ReadTransaction) throws -> [SearchHit<Item>] {
        try transaction.hits(matching: plan)
    }

    /// The hits, best first, read in `transaction` of any engine.
    ///
    /// - Parameter transaction: A transaction of a SQLite database or of a PostgreSQL store.
    /// - Returns: The hits.
    /// - Throws: What the engine throws.
    public func hits(_ transaction: some TransactionReading) async throws -> [SearchHit<Item>] {
        try await transaction.hits(matching: plan)
    }

    /// The hits, best first, in one read transaction of `database` on the caller's thread.
    ///
    /// - Parameter database: A ``Database`` or a ``Connection``.
    /// - Returns: The hits.
    /// - Throws: What ``hits(_:)-(ReadTransaction)`` throws.
    @_disfavoredOverload
    public func hits(in database: some DatabaseReader) throws -> [SearchHit<Item>] {
        try database.read { try hits($0) }
    }

    /// The hits, best first, in one read transaction of `database`, any engine's.
    ///
    /// - Parameter database: A ``Database``, a ``Connection``, or a PostgreSQL store.
    /// - Returns: The hits.
    /// - Throws: What ``hits(_:)-(TransactionReading)`` throws.
    public func hits(in database: some AsyncDatabaseReader) async throws -> [SearchHit<Item>] {
        try await database.read { tx in try await hits(tx) }
    }
}

extension ReadTransaction {
    /// The hits of a search, decoded through the cache.
    @usableFromInline
    func searchHits<Item: Persistable>(_ search: FullTextSearch<Item>, _ clauses: FullTextClauses) throws
        -> [SearchHit<Item>]
    {
        let transaction = self
        var hits: [SearchHit<Item>] = []
        try search.planner.run(clauses, selecting: .items, in: transaction) { statement in
            let key = statement.string(at: 0)
            guard let id = Item.ID(itemKey: key) else { throw invalidKey(key, of: Item.self) }
            let cacheKey = CacheKey(collection: Item.collection, key: key)
            var item = transaction.cachedItem(at: cacheKey, as: Item.self)
            if item == nil {
                try transaction.decodeRow(
                    of: statement, dataColumn: 1, metadataColumn: Item.Metadata.self != NoMetadata.self ? 2 : nil,
                    collection: Item.collection, key: { key },
                    decodeData: {
                        item = try transaction.decodeStored(Item.Coder.self, from: $0, collection: Item.collection)
                    },
                    decodeMetadata: {
                        item?.metadata = try transaction.decodeStored(
                            Item.MetadataCoder.self, from: $0, collection: Item.collection)
                    })
                if let item { transaction.cacheItem(item, at: cacheKey) }
            }
            guard let item else { return }
            hits.append(
                SearchHit(
                    key: id, item: item, score: statement.double(at: 3),
                    snippet: statement.isNull(at: 4) ? nil : statement.string(at: 4)))
        }
        return hits
    }

    /// The keys of the hits of a search, best first, without decoding anything.
    @usableFromInline
    func searchKeys<Item: Persistable>(_ search: FullTextSearch<Item>, _ clauses: FullTextClauses) throws
        -> [Item.ID]
    {
        var keys: [Item.ID] = []
        try search.planner.run(clauses, selecting: .keys, in: self) { statement in
            let key = statement.string(at: 0)
            guard let id = Item.ID(itemKey: key) else { throw invalidKey(key, of: Item.self) }
            keys.append(id)
        }
        return keys
    }

    /// The number of hits of a search (after limit and offset, when given).
    @usableFromInline
    func searchCount<Item: Persistable>(_ search: FullTextSearch<Item>, _ clauses: FullTextClauses) throws -> Int {
        var count = 0
        try search.planner.run(clauses, selecting: .count, in: self) { count = Int($0.int64(at: 0)) }
        return count
    }

    private func invalidKey<Item: Persistable>(_ key: String, of type: Item.Type) -> TroveError {
        TroveError(
            code: .invalidKey, message: "The stored key '\(key)' is not a valid \(Item.ID.self).",
            collection: Item.collection, key: key)
    }
}
