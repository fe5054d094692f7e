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
    /// try messageSearch.query(tx, for: .prefixes(of: input))
    ///     .filter(messagesByState, .column("unread", equals: true))
    ///     .hits()
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
    /// - Returns: The search; ``hits()`` returns the snippets in ``SearchHit/snippet``.
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
    /// - Returns: The search; ``hits()`` returns the text in ``SearchHit/snippet``.
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
            var item = transaction.cachedItem(at: cacheKey) as? Item
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

/// One result of a ``FullTextQuery``.
public struct SearchHit<Item: Persistable>: Sendable {
    /// The key of the item.
    public let key: Item.ID
    /// The item.
    public let item: Item
    /// The bm25 score of the item with the columns' weights: lower is better (SQLite's bm25 is
    /// negative, the best match the most negative).
    public let score: Double
    /// The snippet or highlighted text asked for with ``FullTextQuery/snippets(of:before:after:ellipsis:tokens:)``
    /// or ``FullTextQuery/highlights(of:before:after:)``; `nil` when none was, or when the
    /// column has no text.
    public let snippet: String?
}

/// Builds and runs the SQL of the searches of one ``FullTextSearch``, for every item type.
final class FullTextSearchPlanner: Sendable {
    /// What a search selects.
    enum Selection: Hashable {
        case items, keys, count
    }

    let name: String
    /// The collection of the items, which a search records as read when an observation runs it.
    let collection: String
    let fingerprint: String
    let columnNames: [String]
    /// The table, quoted.
    private let table: String
    /// `bm25(table, w1, w2, ...)`.
    private let rank: String

    init(name: String, collection: String, table: String, fingerprint: String, columnNames: [String], weights: [Double]) {
        self.name = name
        self.collection = collection
        self.table = "\"\(table)\""
        self.fingerprint = fingerprint
        self.columnNames = columnNames
        // Weights that are not finite are refused at registration, and `checkQueryable` refuses a
        // search that is not registered: "1" only keeps the SQL valid until then.
        let literals = weights.map { $0.isFinite ? "\($0)" : "1" }
        rank = "bm25(\(self.table)\(literals.map { ", " + $0 }.joined()))"
    }

    /// Runs `clauses` and calls `row` with each result row: for items, the key, data, metadata,
    /// score and excerpt; for keys, the key; for a count, the count.
    func run(
        _ clauses: FullTextClauses, selecting selection: Selection, in transaction: ReadTransaction,
        row: (Statement) throws -> Void
    ) throws {
        let core = transaction.checkedCore
        // The collection as a whole: any change to it may change the search's result.
        transaction.recorder?.recordIndex(name, of: collection)
        try core.database.checkQueryable(name, fingerprint: fingerprint)
        for filter in clauses.indexFilters {
            transaction.recorder?.recordIndex(filter.index.name, of: collection)
            try core.database.checkQueryable(filter.index.name, fingerprint: filter.index.fingerprint)
        }
        guard let expression = clauses.query.expression else {
            if selection == .count {
                let zero = try core.sqlite.cachedStatement("SELECT 0")
                defer { zero.reset() }
                while try zero.step() { try row(zero) }
            }
            return
        }
        guard !expression.utf8.contains(0) else {
            // FTS5 would read the query up to the NUL only, and search for something else.
            throw TroveError(
                code: .invalidSearchQuery,
                message: "The query '\(expression)' of the full-text search '\(name)' holds a NUL character, which FTS5 cannot read.",
                collection: collection, extensionName: name)
        }
        let excerptColumn = try clauses.excerpt.map { excerpt in
            guard let index = columnNames.firstIndex(of: excerpt.column) else {
                throw TroveError(
                    code: .extensionFailed,
                    message:
                        "The full-text search '\(name)' has no column '\(excerpt.column)'; its columns are \(columnNames.map { "'\($0)'" }.joined(separator: ", ")).",
                    field: excerpt.column, extensionName: name)
            }
            return index
        }
        let sql = try makeSQL(clauses, selecting: selection, excerptColumn: excerptColumn)
        // A statement per shape is kept, but not one per length of an IN list.
        let hasList = clauses.indexFilters.contains { filter in
            filter.conditions.contains { if case .oneOf = $0.predicate { true } else { false } }
        }
        let statement = try hasList ? core.sqlite.makeStatement(sql) : core.sqlite.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(expression, at: 1)
        var parameter: Int32 = 1
        if selection == .items, let excerpt = clauses.excerpt {
            try statement.bind(excerpt.before, at: 2)
            try statement.bind(excerpt.after, at: 3)
            parameter = 3
            if case .snippet(let ellipsis, _) = excerpt.kind {
                try statement.bind(ellipsis, at: 4)
                parameter = 4
            }
        }
        for filter in clauses.indexFilters {
            for value in IndexQueryPlanner.values(of: filter.conditions) {
                parameter += 1
                try statement.bind(value, at: parameter)
            }
        }
        if clauses.limit != nil || clauses.offset != 0 {
            try statement.bind(Int64(clauses.limit ?? -1), at: parameter + 1)
            try statement.bind(Int64(clauses.offset), at: parameter + 2)
        }
        do {
            while try statement.step() {
                try row(statement)
            }
        } catch let error as TroveError where error.sql == sql && error.sqliteResultCode == 1 {  // SQLITE_ERROR
            // A prepared search fails while it runs only when FTS5 cannot parse the query (or
            // finds a column filter naming no column).
            throw TroveError(
                code: .invalidSearchQuery,
                message:
                    "The query '\(expression)' of the full-text search '\(name)' is not valid FTS5 syntax: \(error.sqliteMessage ?? "SQLite refused it").",
                collection: collection, extensionName: name, sql: sql, sqliteResultCode: error.sqliteResultCode,
                underlyingError: error)
        }
    }

    /// The SQL of a search, with `?1` the query, then the excerpt's texts, then the values of
    /// the index filters, then limit and offset.
    private func makeSQL(_ clauses: FullTextClauses, selecting selection: Selection, excerptColumn: Int?) throws
        -> String
    {
        var parameterCount = 1
        var excerpt = "NULL"
        if selection == .items, let kind = clauses.excerpt?.kind, let excerptColumn {
            switch kind {
            case .snippet(_, let tokens):
                excerpt = "snippet(\(table), \(excerptColumn), ?2, ?3, ?4, \(tokens))"
                parameterCount = 4
            case .highlight:
                excerpt = "highlight(\(table), \(excerptColumn), ?2, ?3)"
                parameterCount = 3
            }
        }
        // Each index filter joins the index's table on the row id.
        var joins = ""
        var predicates = ""
        for (offset, filter) in clauses.indexFilters.enumerated() {
            let alias = "i\(offset)"
            joins += " JOIN \(filter.index.table) AS \(alias) ON \(alias).rowid = \(table).rowid"
            for predicate in try filter.index.predicates(
                of: filter.conditions, alias: alias, parameterCount: &parameterCount)
            {
                predicates += " AND \(predicate)"
            }
        }
        let limitClause =
            clauses.limit == nil && clauses.offset == 0
            ? "" : " LIMIT ?\(parameterCount + 1) OFFSET ?\(parameterCount + 2)"
        let from =
            " FROM \(table) JOIN trove_items AS t ON t.rowid = \(table).rowid\(joins) WHERE \(table) MATCH ?1\(predicates)"
        let order = " ORDER BY \(rank), t.key"
        switch selection {
        case .items:
            return "SELECT t.key, t.data, t.metadata, \(rank), \(excerpt)\(from)\(order)\(limitClause)"
        case .keys:
            return "SELECT t.key\(from)\(order)\(limitClause)"
        case .count where limitClause.isEmpty:
            return "SELECT count(*) FROM \(table)\(joins) WHERE \(table) MATCH ?1\(predicates)"
        case .count:
            return "SELECT count(*) FROM (SELECT 1\(from)\(order)\(limitClause))"
        }
    }
}
