/// What a ``SearchResultsView`` keeps beside its pages: its current query, and the snippet of
/// each of its rows. In the file for a view whose pages are there (two tables,
/// `trove_ext_<name>_query` and `trove_ext_<name>_snippets`), in the pages' own versions for an
/// in-memory view (``ViewMemoryState/search``), so that the query and the snippets are read at the
/// same snapshot as the rows.
protocol SearchResultsSource {
    /// The current query, or `nil` when none was set (the view has no rows).
    func storedQuery() throws -> SearchQuery?
    /// The snippet of the row `rowID`, or `nil` when it has none.
    func snippet(ofRow rowID: Int64) throws -> String?
}

/// The side data of a ``SearchResultsView`` as a write transaction changes it.
protocol SearchResultsStore: SearchResultsSource {
    /// Sets the current query (`nil`: none).
    func setQuery(_ query: SearchQuery?) throws
    /// Sets the snippet of the row `rowID` (`nil`: forgets it).
    func setSnippet(_ snippet: String?, ofRow rowID: Int64) throws
    /// Forgets every snippet.
    func deleteAllSnippets() throws
}

/// A query as it is stored: how it was built and its text, from which the same ``SearchQuery``
/// is made again (its FTS5 expression and its form, which another engine reads).
enum StoredSearchQuery {
    /// The kind and text of `query`.
    static func encode(_ query: SearchQuery) -> (kind: String, text: String) {
        switch query.form {
        case .raw: ("raw", query.expression ?? "")
        case .words(let words, let prefix): (prefix ? "prefixes" : "allWords", words.joined(separator: " "))
        case .phrase(let phrase): ("phrase", phrase)
        case .nothing: ("nothing", "")
        }
    }

    /// The query stored as `kind` and `text`.
    static func decode(kind: String, text: String) -> SearchQuery {
        switch kind {
        case "raw": .raw(text)
        case "prefixes": .prefixes(of: text)
        case "allWords": .allWords(of: text)
        case "phrase": .phrase(text)
        default: .prefixes(of: "")
        }
    }
}

/// The side data of an in-memory search results view, in its ``ViewMemoryState``.
struct SearchResultsMemory: Sendable {
    var query: SearchQuery?
    var snippets = ViewShardedMap<String>()
}

extension ViewMemoryState: SearchResultsSource {
    func storedQuery() -> SearchQuery? {
        search?.query
    }

    func snippet(ofRow rowID: Int64) -> String? {
        search?.snippets[rowID]
    }
}

extension ViewMemoryPages: SearchResultsStore {
    func storedQuery() -> SearchQuery? {
        state.storedQuery()
    }

    func snippet(ofRow rowID: Int64) -> String? {
        state.snippet(ofRow: rowID)
    }

    func setQuery(_ query: SearchQuery?) {
        updateSearch { $0.query = query }
    }

    func setSnippet(_ snippet: String?, ofRow rowID: Int64) {
        guard snippet != nil || state.search?.snippets[rowID] != nil else { return }
        updateSearch { $0.snippets[rowID] = snippet }
    }

    func deleteAllSnippets() {
        updateSearch { $0.snippets.removeAll() }
    }
}

/// The tables of a search results view whose pages are in the file, and their statements.
struct SearchResultsTables: Sendable {
    let queryTable: String
    let snippetsTable: String
    let createSQL: String
    let selectQuerySQL: String
    let upsertQuerySQL: String
    let deleteQuerySQL: String
    let selectSnippetSQL: String
    let upsertSnippetSQL: String
    let deleteSnippetSQL: String
    let deleteAllSnippetsSQL: String

    init(name: String) {
        queryTable = "trove_ext_\(name)_query"
        snippetsTable = "trove_ext_\(name)_snippets"
        let query = "\"\(queryTable)\""
        let snippets = "\"\(snippetsTable)\""
        // The query table is kept by a rebuild: it may exist already.
        createSQL = """
            CREATE TABLE IF NOT EXISTS \(query) (id INTEGER PRIMARY KEY CHECK (id = 1), kind TEXT NOT NULL, \
            text TEXT NOT NULL); \
            CREATE TABLE \(snippets) (rowid INTEGER PRIMARY KEY, snippet TEXT NOT NULL);
            """
        selectQuerySQL = "SELECT kind, text FROM \(query) WHERE id = 1"
        upsertQuerySQL =
            "INSERT INTO \(query) (id, kind, text) VALUES (1, ?1, ?2) ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, text = excluded.text"
        deleteQuerySQL = "DELETE FROM \(query)"
        selectSnippetSQL = "SELECT snippet FROM \(snippets) WHERE rowid = ?1"
        upsertSnippetSQL =
            "INSERT INTO \(snippets) (rowid, snippet) VALUES (?1, ?2) ON CONFLICT (rowid) DO UPDATE SET snippet = excluded.snippet"
        deleteSnippetSQL = "DELETE FROM \(snippets) WHERE rowid = ?1"
        deleteAllSnippetsSQL = "DELETE FROM \(snippets)"
    }

    var tableNames: [String] { [queryTable, snippetsTable] }
}

/// The side data of a search results view in the file, read and written on one connection.
struct SQLiteSearchResults: SearchResultsStore {
    let tables: SearchResultsTables
    let sqlite: SQLiteConnection

    func storedQuery() throws -> SearchQuery? {
        let statement = try sqlite.cachedStatement(tables.selectQuerySQL)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return StoredSearchQuery.decode(kind: statement.string(at: 0), text: statement.string(at: 1))
    }

    func snippet(ofRow rowID: Int64) throws -> String? {
        let statement = try sqlite.cachedStatement(tables.selectSnippetSQL)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        return try statement.step() ? statement.string(at: 0) : nil
    }

    func setQuery(_ query: SearchQuery?) throws {
        let statement = try sqlite.cachedStatement(query == nil ? tables.deleteQuerySQL : tables.upsertQuerySQL)
        defer { statement.reset() }
        if let query {
            let (kind, text) = StoredSearchQuery.encode(query)
            try statement.bind(kind, at: 1)
            try statement.bind(text, at: 2)
        }
        try statement.stepToEnd()
    }

    func setSnippet(_ snippet: String?, ofRow rowID: Int64) throws {
        let statement = try sqlite.cachedStatement(snippet == nil ? tables.deleteSnippetSQL : tables.upsertSnippetSQL)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        if let snippet { try statement.bind(snippet, at: 2) }
        try statement.stepToEnd()
    }

    func deleteAllSnippets() throws {
        try sqlite.executeCached(tables.deleteAllSnippetsSQL)
    }
}

// Explicit non-conformance to Sendable: it holds a connection's SQLite handle.
@available(*, unavailable)
extension SQLiteSearchResults: Sendable {}
