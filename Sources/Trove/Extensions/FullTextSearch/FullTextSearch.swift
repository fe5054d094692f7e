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
/// let hits = try await database.read { tx in
///     try messageSearch.query(tx, for: .prefixes(of: userInput))
///         .snippets(of: "body", before: "<b>", after: "</b>")
///         .limit(20)
///         .hits()
/// }
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

/// How a ``FullTextSearch`` splits text into tokens: the FTS5 tokenizer of its table. Items and
/// queries go through the same tokenizer.
public enum FullTextTokenizer: Sendable, Hashable {
    /// FTS5's `unicode61`: tokens are runs of Unicode letters and digits, folded to lower case;
    /// everything else separates them. With `removeDiacritics` 1 or 2 (the default), accents are
    /// removed too, so `cafe` finds `Café` (2 also handles the combining forms that 1 misses;
    /// 0 keeps them). Text without separators between words (Chinese, Japanese) is one token
    /// per run: use ``trigram`` for it.
    case unicode61(removeDiacritics: Int = 2)
    /// FTS5's `porter` stemmer over `unicode61` (diacritics removed): English words are reduced
    /// to their stem, so `running` finds `runs` and `run`.
    case porter
    /// FTS5's `trigram`: every run of three characters is a token, so any substring of three
    /// characters or more is found, in any script (`京都市` in `東京都市`), case-insensitively.
    /// A query word shorter than three characters matches nothing; accents are not folded.
    case trigram

    /// The `tokenize` argument of the FTS5 table.
    var sql: String {
        switch self {
        case .unicode61(let removeDiacritics): "unicode61 remove_diacritics \(removeDiacritics)"
        case .porter: "porter unicode61 remove_diacritics 2"
        case .trigram: "trigram"
        }
    }
}

/// A column of a ``FullTextSearch``: its name, its weight in the ranking, and how to get its
/// text from an item (and the item's metadata, which `Item.metadata` holds).
///
/// ```swift
/// let columns: [SearchColumn<Message>] = [
///     .column("subject", weight: 10) { $0.subject },
///     .column("body") { $0.body },
///     .column("tags") { $0.tags },
///     .column("note") { $0.metadata?.note },
/// ]
/// ```
public struct SearchColumn<Item: Persistable>: Sendable {
    /// The name of the column, which column filters of a raw query (`subject: swift`) and
    /// snippets name: ASCII letters, digits and underscores.
    public let name: String
    /// The weight of a match in this column in the bm25 ranking: a match in a column of weight
    /// 10 counts as much as ten in a column of weight 1.
    public let weight: Double
    let text: @Sendable (Item) -> String?

    /// A column whose text `text` gets from each item; `nil` is no text.
    ///
    /// - Parameters:
    ///   - name: The name of the column: ASCII letters, digits and underscores, not starting
    ///     with a digit, and none of `rowid`, `rank` and the name of the search.
    ///   - weight: The weight of the column in the ranking (default 1), finite.
    ///   - text: The text of the column for an item, with its metadata in `Item.metadata`.
    /// - Returns: The column.
    public static func column(
        _ name: String, weight: Double = 1, _ text: @escaping @Sendable (Item) -> String?
    ) -> SearchColumn {
        SearchColumn(name: name, weight: weight, text: text)
    }

    /// A column whose texts `texts` gets from each item, joined with newlines (a word never
    /// spans two elements).
    ///
    /// - Parameters:
    ///   - name: The name of the column, as for a column of one text.
    ///   - weight: The weight of the column in the ranking (default 1), finite.
    ///   - texts: The texts of the column for an item.
    /// - Returns: The column.
    @_disfavoredOverload
    public static func column(
        _ name: String, weight: Double = 1, _ texts: @escaping @Sendable (Item) -> [String]
    ) -> SearchColumn {
        SearchColumn(name: name, weight: weight, text: { texts($0).joined(separator: "\n") })
    }
}
