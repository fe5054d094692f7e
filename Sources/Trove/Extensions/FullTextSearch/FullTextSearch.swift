/// A full-text search of the items of one collection: an SQLite FTS5 table of text extracted
/// from each item, kept in step with every write, queried by ``SearchQuery`` and ranked by
/// bm25 with a weight per column.
///
/// Define it once and register it with the database:
///
/// ```swift
/// let messageSearch = FullTextSearch<Message>("message_search", columns: [
///     .column("subject", weight: 10) { $0.subject },
///     .column("body") { $0.body },
///     .column("tags") { $0.tags },  // a [String]: its elements joined with newlines
/// ])
/// let database = try Database(path: path, extensions: [messageSearch.databaseExtension])
///
/// let hits = try await messageSearch.query(for: .prefixes(of: userInput))
///     .snippets(of: "body", before: "<b>", after: "</b>")
///     .limit(20)
///     .hits(in: database)
/// ```
///
/// ## The table
///
/// One ordinary FTS5 table (`trove_ext_<name>`) holds one row per item, whose rowid is the
/// item's row id in `trove_items`, with one column per ``SearchColumn``. It stores the text it
/// indexes (an FTS5 table with content): an *external-content* table would have to read the
/// text back from the items, which are encoded values and not SQL columns, so `snippet()` and
/// `highlight()` could not work and a removal would have to re-extract the old text to delete
/// its tokens; a *contentless* table cannot delete rows in the SQLite this runs on
/// (`contentless_delete` needs SQLite 3.43). The price is the text stored twice, once in the
/// item and once in the table.
///
/// Every write of the collection, typed or untyped, reaches the table inside the write
/// transaction; an untyped write is decoded with `Item`'s coder. A new ``version``, another
/// ``tokenizer`` or other column names rebuild the table at the next registration; the weights
/// are used by queries only, and changing them rebuilds nothing.
public struct FullTextSearch<Item: Persistable>: Sendable {
    /// The name of the search, unique among the extensions of a file.
    public let name: String
    /// The version of the definition: a new version rebuilds the table.
    public let version: Int
    /// How text is split into tokens, for the items and the queries alike.
    public let tokenizer: FullTextTokenizer
    /// The columns, in the order of the table.
    public let columns: [SearchColumn<Item>]
    let implementation: FullTextSearchImplementation<Item>
    let planner: FullTextSearchPlanner

    /// Defines a full-text search of the items of `Item`.
    ///
    /// - Parameters:
    ///   - name: The name of the search: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1). Changing the tokenizer or the
    ///     column names rebuilds the table at the same version too.
    ///   - tokenizer: How text is split into tokens (default
    ///     ``FullTextTokenizer/unicode61(removeDiacritics:)`` with diacritics removed).
    ///   - columns: The columns, with distinct names, at least one.
    public init(
        _ name: String, version: Int = 1, tokenizer: FullTextTokenizer = .unicode61(),
        columns: [SearchColumn<Item>]
    ) {
        self.name = name
        self.version = version
        self.tokenizer = tokenizer
        self.columns = columns
        implementation = FullTextSearchImplementation(name: name, tokenizer: tokenizer, columns: columns)
        planner = FullTextSearchPlanner(
            name: name, collection: Item.collection, table: implementation.table,
            fingerprint: implementation.fingerprint, columnNames: columns.map(\.name),
            weights: columns.map(\.weight))
    }

    /// The search as an extension to register (``Database/register(_:)-(DatabaseExtension)``).
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: implementation)
    }

    /// A search of the items for `query`, best first, to narrow with `filter`, `limit` and
    /// `snippets`, and to run with its terminals: a value, with no database in it.
    ///
    /// ```swift
    /// let hits = try notes.query(for: .prefixes(of: input)).limit(20).hits(in: database)
    /// ```
    ///
    /// - Parameter query: What to search for: ``SearchQuery/prefixes(of:)`` for what a user types.
    /// - Returns: The search.
    public func query(for query: SearchQuery) -> FullTextQuery<Item> {
        FullTextQuery(search: self, clauses: FullTextClauses(query: query))
    }
}
