/// The hits of a ``FullTextSearch`` kept as a view (YapDatabase's search results view): the
/// items that match the view's current query, in groups and sorted, with a snippet stored beside
/// each row, kept up to date by every write and reporting its row changes as a ``View`` does.
///
/// ```swift
/// let noteSearch = FullTextSearch<Note>("note_search", columns: [.column("text") { $0.text }])
/// let results = SearchResultsView<Note>(
///     "note_results", search: noteSearch, grouping: { note, _ in note.folder }, sortedBy: [.ascending(\.title)])
/// let database = try Database(
///     path: path, extensions: [noteSearch.databaseExtension, results.databaseExtension])
///
/// try database.write { tx in try results.search(for: .prefixes(of: "swi"), in: tx) }
/// let firstHits = try results.rows(in: "work", range: 0..<20).items(in: database)
/// ```
///
/// - The rows are the items that match the **query** (``search(for:in:)``) and that the view's
///   filter and grouping place in a group, sorted by its sort (ties by key), as for a ``View``;
///   or, made ``init(_:version:storage:search:snippet:over:)``, the items of a parent ``View``
///   that match, in the parent's groups and order. No query, or a query without words, gives
///   no row.
/// - The query is the view's state: set in a write transaction, it changes the rows by
///   difference (a row that stays is not reported), and it is kept with the rows: in the file
///   for ``View/Storage/persistent`` (another open of the file sees the same results), with the
///   pages' versions for ``View/Storage/inMemory``. A rebuild (a new version) keeps the query
///   and runs it again.
/// - Every write keeps it current: an item inserted or changed enters, leaves or moves as it
///   matches the query (an FTS5 `MATCH` restricted to the item's row) and belongs to the groups;
///   a removal, or the removal of the collection, takes rows out. The full-text search is updated
///   first: the view reads it, and is registered only with it (see ``databaseExtension``).
/// - Each row has a **snippet** (``snippet(forKey:in:)``), computed by FTS5's `snippet()` when
///   the row enters or its item changes, and when the query changes; see ``SearchSnippet``.
/// - It is read as a ``View`` is, through a ``ViewReader`` (``read(_:)``) or a ``ViewQuery``
///   (``rows(in:range:)``); each commit that changed its rows holds its ``ViewChanges`` in
///   ``Changeset/viewChanges``, which ``ViewMappings`` and
///   ``Database/observe(_:mappings:)-(SearchResultsView<Item>,_)`` turn into sections.
/// - Search as the user types with a ``SearchQueue``: ``search(from:in:)`` and
///   ``Database/search(_:from:)`` run its newest query; a newer one abandons a search under way.
public struct SearchResultsView<Item: Persistable>: Sendable {
    /// The definition the view is stored and read under: a ``View`` with the groups and sort of
    /// the search results view, that no build fills.
    let view: View<Item>
    /// The full-text search whose table the view reads.
    let fullTextSearch: FullTextSearch<Item>
    /// How each row's snippet is made.
    public let snippet: SearchSnippet

    /// The name of the view, unique among the extensions of a file.
    public var name: String { view.name }
    /// The version of the definition: a new version rebuilds the view (with its query).
    public var version: Int { view.version }
    /// Where the rows are kept, and whether they survive from one run to the next.
    public var storage: View<Item>.Storage { view.storage }

    /// Defines a search results view of the items of `Item`, grouped and sorted by criteria.
    ///
    /// - Parameters:
    ///   - name: The name of the view: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1). Change it when a closure changes.
    ///   - storage: Where the rows are kept (default: persistent, in the file).
    ///   - search: The full-text search of `Item` whose hits the view holds; register it too.
    ///   - snippet: How each row's snippet is made (default: ``SearchSnippet/init(column:before:after:ellipsis:tokens:)``
    ///     with its defaults).
    ///   - filter: Whether a matching item belongs to the view (default: every item).
    ///   - grouping: The group of a matching item, or `nil` to leave it out.
    ///   - sortedBy: The order of the items of a group.
    public init(
        _ name: String, version: Int = 1, storage: View<Item>.Storage = .persistent, search: FullTextSearch<Item>,
        snippet: SearchSnippet = SearchSnippet(),
        filter: @escaping @Sendable (Item, Item.Metadata?) -> Bool = { _, _ in true },
        grouping: @escaping @Sendable (Item, Item.Metadata?) -> String?,
        sortedBy: [ViewSort<Item>]
    ) {
        let base = View<Item>(name, version: version, storage: storage, filter: filter, grouping: grouping, sortedBy: sortedBy)
        self.init(name, version: version, storage: storage, search: search, snippet: snippet, base: base)
    }

    /// Defines a search results view of the items of `Item`, sorted by a closure.
    ///
    /// - Parameters:
    ///   - name: The name of the view: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1). Change it when a closure changes.
    ///   - storage: Where the rows are kept (default: persistent, in the file).
    ///   - search: The full-text search of `Item` whose hits the view holds; register it too.
    ///   - snippet: How each row's snippet is made.
    ///   - filter: Whether a matching item belongs to the view (default: every item).
    ///   - grouping: The group of a matching item, or `nil` to leave it out.
    ///   - areInIncreasingOrder: Whether the first item comes before the second in a group.
    public init(
        _ name: String, version: Int = 1, storage: View<Item>.Storage = .persistent, search: FullTextSearch<Item>,
        snippet: SearchSnippet = SearchSnippet(),
        filter: @escaping @Sendable (Item, Item.Metadata?) -> Bool = { _, _ in true },
        grouping: @escaping @Sendable (Item, Item.Metadata?) -> String?,
        areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool
    ) {
        let base = View<Item>(
            name, version: version, storage: storage, filter: filter, grouping: grouping,
            areInIncreasingOrder: areInIncreasingOrder)
        self.init(name, version: version, storage: storage, search: search, snippet: snippet, base: base)
    }

    /// Defines a search results view of the items of `parent` that match: the parent's groups,
    /// in the parent's order (its filter, grouping and sort, as defined now; the parent does not
    /// need to be registered).
    ///
    /// - Parameters:
    ///   - name: The name of the view: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1).
    ///   - storage: Where the rows are kept (default: the parent's storage).
    ///   - search: The full-text search of `Item` whose hits the view holds; register it too.
    ///   - snippet: How each row's snippet is made.
    ///   - parent: The view whose items, groups and order the results keep.
    public init(
        _ name: String, version: Int = 1, storage: View<Item>.Storage? = nil, search: FullTextSearch<Item>,
        snippet: SearchSnippet = SearchSnippet(), over parent: View<Item>
    ) {
        self.init(
            name, version: version, storage: storage ?? parent.storage, search: search, snippet: snippet, base: parent,
            parentFingerprint: "\(parent.name) v\(parent.version) \(parent.fingerprint)")
    }

    private init(
        _ name: String, version: Int, storage: View<Item>.Storage, search: FullTextSearch<Item>,
        snippet: SearchSnippet, base: View<Item>, parentFingerprint: String = ""
    ) {
        var fingerprint =
            "search results v1 \(Item.collection) version \(version) pages \(ViewStorage.maximumPageSize)/\(ViewStorage.minimumPageSize)"
            + " search \(search.name) (\(search.implementation.fingerprint)) snippet \(snippet.fingerprint)"
        if base.keyOrder == .integer { fingerprint += " integer keys" }
        switch storage {
        case .persistent: break
        case .rebuiltAtLaunch: fingerprint += " launch \(View<Item>.launchToken)"
        case .inMemory: fingerprint += " memory \(View<Item>.launchToken)"
        }
        if !parentFingerprint.isEmpty { fingerprint += " of (\(parentFingerprint))" }
        view = View(searchResults: name, version: version, storage: storage, over: base, fingerprint: fingerprint)
        fullTextSearch = search
        self.snippet = snippet
    }

    /// The view as an extension to register (``Database/register(_:)-(DatabaseExtension)``).
    /// Register its full-text search before it or in the same call: registering it without
    /// throws ``TroveError`` with code ``TroveError/Code/extensionFailed``. Unregistering the
    /// full-text search unregisters the view with it.
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: implementation)
    }

    var implementation: SearchResultsImplementation<Item> {
        SearchResultsImplementation(
            pages: ViewImplementation(view: SearchResultsDefinition(view: view, matcher: matcher)), matcher: matcher,
            search: ExtensionDependency(
                name: fullTextSearch.name, fingerprint: fullTextSearch.implementation.fingerprint,
                description: "the full-text search '\(fullTextSearch.name)'"))
    }

    var matcher: SearchResultsMatcher {
        SearchResultsMatcher(
            viewName: view.name, searchName: fullTextSearch.name, collection: Item.collection,
            table: fullTextSearch.implementation.table, snippet: snippet,
            snippetColumn: snippet.column.flatMap { column in fullTextSearch.columns.firstIndex { $0.name == column } },
            tables: view.isInMemory ? nil : SearchResultsTables(name: view.name))
    }

    // MARK: Reading

    /// Reads the rows in `transaction`, from its snapshot, as a ``View`` is read.
    ///
    /// - Parameter transaction: The transaction to read in.
    /// - Returns: The reader.
    public func read(_ transaction: ReadTransaction) -> ViewReader<Item> {
        ViewReader(view: view, transaction: transaction)
    }

    /// The rows of `group` in `range`, clamped to the group's rows (every row by default), as a
    /// query to run with its terminals (see ``View/rows(in:range:)``).
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - range: The indexes of the rows, from 0.
    /// - Returns: The query.
    public func rows(in group: String, range: Range<Int>? = nil) -> ViewQuery<Item> {
        ViewQuery(view: view, group: group, range: range)
    }

    /// The current query of the view at `transaction`'s snapshot, or `nil` when none was set.
    ///
    /// - Parameter transaction: The transaction to read in.
    /// - Returns: The query.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    public func query(in transaction: ReadTransaction) throws -> SearchQuery? {
        try source(in: transaction).storedQuery()
    }

    /// The snippet of the row of the item at `key`, or `nil` when the item is not in the view.
    /// It was made when the row entered the view, when its item last changed, or when the query
    /// last changed (see ``SearchSnippet``): reading it costs one lookup, no search.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - transaction: The transaction to read in.
    /// - Returns: The snippet.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails.
    public func snippet(forKey key: Item.ID, in transaction: ReadTransaction) throws -> String? {
        let source = try source(in: transaction)
        guard let rowID = try transaction.checkedCore.selectRowID(key: key.itemKey, collection: Item.collection) else {
            return nil
        }
        return try source.snippet(ofRow: rowID)
    }

    /// The query and snippets at `transaction`'s snapshot, where the pages are read (see
    /// ``ViewDefinition/pageSource(in:)``): the same checks, the same version of an in-memory
    /// view.
    private func source(in transaction: ReadTransaction) throws -> any SearchResultsSource {
        let pages = try view.pageSource(in: transaction)
        if let memory = pages as? ViewMemoryState {
            return memory
        }
        return SQLiteSearchResults(tables: SearchResultsTables(name: view.name), sqlite: transaction.checkedCore.sqlite)
    }

    // MARK: Searching

    /// Sets the view's query in `transaction`: the rows become the items that match it, by
    /// difference with the rows of the previous query (a row that stays is not reported; its
    /// snippet is made again). The commit reports the rows that left and entered in
    /// ``Changeset/viewChanges``, and keeps the query with the view. Each item whose row entered
    /// or left counts as touched in the changeset (as a ``ManualViewWriter``'s change does):
    /// other views of the collection report its row as updated.
    ///
    /// ```swift
    /// try database.write { tx in try results.search(for: .prefixes(of: typed), in: tx) }
    /// ```
    ///
    /// - Parameters:
    ///   - query: The query; `nil` (or a query without words) empties the view.
    ///   - transaction: The write transaction.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/invalidSearchQuery`` when a raw query
    ///   is not valid FTS5 syntax, ``TroveError/Code/extensionFailed`` when the view is not
    ///   registered, or when SQLite fails.
    /// - Complexity: O(h + r) for h hits and r rows before, plus O(log n) comparisons for each
    ///   row that enters.
    public func search(for query: SearchQuery?, in transaction: ReadWriteTransaction) throws {
        let context = try prepare(transaction)
        try implementation.run(query, name: name, in: context, reportsChanges: true, shouldAbandon: { false })
    }

    /// Takes the newest query of `queue` and sets it as the view's query in `transaction`, as
    /// ``search(for:in:)`` does; abandons it as soon as a newer query is enqueued.
    ///
    /// The search checks the queue between batches of rows, while it reads the hits and while it
    /// changes the rows; a newer query makes it throw ``TroveError`` with code
    /// ``TroveError/Code/cancelled``, which must leave the transaction's closure so that the
    /// transaction rolls back: the view keeps the rows of the last query completed, and the
    /// newer query waits in the queue for the next call. ``Database/search(_:from:)`` does that
    /// for you.
    ///
    /// - Parameters:
    ///   - queue: The queue.
    ///   - transaction: The write transaction.
    /// - Returns: The query set, or `nil` when the queue held none.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/cancelled`` when the search was
    ///   abandoned; what ``search(for:in:)`` throws.
    @discardableResult
    public func search(from queue: SearchQueue, in transaction: ReadWriteTransaction) throws -> SearchQuery? {
        let context = try prepare(transaction)
        guard let (query, ticket) = queue.take() else { return nil }
        try implementation.run(
            query, name: name, in: context, reportsChanges: true, shouldAbandon: { queue.isSuperseded(ticket) })
        return query
    }

    /// The context of `transaction`, after checking that the view is registered with this
    /// definition.
    private func prepare(_ transaction: ReadWriteTransaction) throws -> ExtensionContext {
        let core = transaction.checkedCore
        try core.database.checkQueryable(view.name, fingerprint: view.fingerprint)
        return ExtensionContext(core: core, name: view.name)
    }
}

/// How the snippet of each row of a ``SearchResultsView`` is made: FTS5's `snippet()` over the
/// row's text in the full-text search's table, for the view's query: a fragment of at most
/// ``tokens`` tokens of one column around the matches, each match between ``before`` and
/// ``after``, with ``ellipsis`` where the text was cut.
public struct SearchSnippet: Sendable, Hashable {
    /// The column the fragment is taken from; `nil`: the column FTS5 finds best for each row.
    public var column: String?
    /// The text before each match.
    public var before: String
    /// The text after each match.
    public var after: String
    /// The text where the column's text was cut.
    public var ellipsis: String
    /// The most tokens in the fragment, 1 to 64.
    public var tokens: Int

    /// Describes the snippets of a search results view.
    ///
    /// - Parameters:
    ///   - column: The name of a column of the full-text search (default: the best for each row).
    ///   - before: The text before each match (default `<b>`).
    ///   - after: The text after each match (default `</b>`).
    ///   - ellipsis: The text where the text was cut (default `…`).
    ///   - tokens: The most tokens in the fragment, clamped to 1...64 (default 16).
    public init(
        column: String? = nil, before: String = "<b>", after: String = "</b>", ellipsis: String = "…", tokens: Int = 16
    ) {
        self.column = column
        self.before = before
        self.after = after
        self.ellipsis = ellipsis
        self.tokens = min(64, max(1, tokens))
    }

    /// What a change of the snippets changes in the view's fingerprint: they are stored.
    var fingerprint: String {
        "\(column ?? "(best)") \(tokens) \(before.utf8.count):\(before)\(after.utf8.count):\(after)\(ellipsis.utf8.count):\(ellipsis)"
    }
}

/// The definition that a search results view's pages follow: its ``View``, whose groups hold only
/// the items that match the current query.
struct SearchResultsDefinition<Item: Persistable>: ViewDefinition {
    typealias Row = Item
    let view: View<Item>
    let matcher: SearchResultsMatcher

    var name: String { view.name }
    var fingerprint: String { view.fingerprint }
    var pages: ViewStorage { view.pages }
    var isInMemory: Bool { view.isInMemory }
    /// A build places no item: the query does (``SearchResultsImplementation/populate(name:in:progress:)``).
    var populatesStoredItems: Bool { false }
    var parentName: String? { nil }
    func following(_ parent: Self) -> Self? { nil }
    var primaryCollection: String { view.primaryCollection }
    var collections: [String] { view.collections }
    var reportsCollections: Bool { false }
    func follows(_ collection: String) -> Bool { view.follows(collection) }

    func forEachStored(
        in context: ExtensionContext, progress: (Int) -> Void, _ body: (Int64, String, Item) throws -> Void
    ) throws {
        try view.forEachStored(in: context, progress: progress, body)
    }

    func resolve(_ event: WriteEvent, in context: ExtensionContext) throws -> Item {
        try view.resolve(event, in: context)
    }

    func row(_ rowID: Int64, in context: ExtensionContext) throws -> (key: String, row: Item) {
        try view.row(rowID, in: context)
    }

    func group(of row: Item) throws -> String? {
        view.group(of: row)
    }

    /// The view's group of `row`, when the row matches the current query.
    func group(of row: Item, rowID: Int64, in context: ExtensionContext) throws -> String? {
        guard let group = view.group(of: row) else { return nil }
        let store = try matcher.store(ViewImplementation(view: self).state(name: name, in: context), in: context)
        guard let query = try store.storedQuery() else { return nil }
        return try matcher.snippet(ofRow: rowID, matching: query, in: context) == nil ? nil : group
    }

    func sortsBefore(_ lhs: Item, key lhsKey: String, _ rhs: Item, key rhsKey: String) throws -> Bool {
        view.sortsBefore(lhs, key: lhsKey, rhs, key: rhsKey)
    }
}

/// The SQL with which a search results view asks its full-text search's table which rows match
/// its query, with their snippets.
struct SearchResultsMatcher: Sendable {
    let viewName: String
    let searchName: String
    let collection: String
    /// The side tables in the file; `nil` for an in-memory view.
    let tables: SearchResultsTables?
    /// Every hit of `?1`, with its snippet: `rowid`, `snippet`.
    let hitsSQL: String
    /// The snippet of the row `?5` when it matches `?1`: no row when it does not.
    let rowSQL: String
    let snippet: SearchSnippet

    init(
        viewName: String, searchName: String, collection: String, table: String, snippet: SearchSnippet,
        snippetColumn: Int?, tables: SearchResultsTables?
    ) {
        self.viewName = viewName
        self.searchName = searchName
        self.collection = collection
        self.tables = tables
        self.snippet = snippet
        let quoted = "\"\(table)\""
        // The FTS5 table of a search holds the rows of its collection only, by their row ids.
        let fragment = "snippet(\(quoted), \(snippetColumn ?? -1), ?2, ?3, ?4, \(snippet.tokens))"
        hitsSQL = "SELECT rowid, \(fragment) FROM \(quoted) WHERE \(quoted) MATCH ?1"
        rowSQL = "SELECT \(fragment) FROM \(quoted) WHERE \(quoted) MATCH ?1 AND rowid = ?5"
    }

    /// The query and snippets of the view in the transaction of `state`.
    func store(_ state: ViewWriteState, in context: ExtensionContext) throws -> any SearchResultsStore {
        if let memory = state.memory { return memory }
        guard let tables else {
            throw TroveError(
                code: .extensionFailed, message: "The search results view '\(viewName)' has no pages in memory.",
                collection: collection, extensionName: viewName)
        }
        return SQLiteSearchResults(tables: tables, sqlite: context.sqlite)
    }

    /// The snippet of the row `rowID` when it matches `query`, or `nil` when it does not.
    func snippet(ofRow rowID: Int64, matching query: SearchQuery, in context: ExtensionContext) throws -> String? {
        guard let expression = query.expression else { return nil }
        let statement = try context.sqlite.cachedStatement(rowSQL)
        defer { statement.reset() }
        try bind(expression, to: statement)
        try statement.bind(rowID, at: 5)
        return try stepping(expression, sql: rowSQL) {
            try statement.step() ? (statement.isNull(at: 0) ? "" : statement.string(at: 0)) : nil
        }
    }

    /// Calls `body` with the row id and snippet of every hit of `query`, in no order.
    func forEachHit(
        of query: SearchQuery, in context: ExtensionContext, _ body: (Int64, String) throws -> Void
    ) throws {
        guard let expression = query.expression else { return }
        let statement = try context.sqlite.cachedStatement(hitsSQL)
        defer { statement.reset() }
        try bind(expression, to: statement)
        try stepping(expression, sql: hitsSQL) {
            while try statement.step() {
                try body(statement.int64(at: 0), statement.isNull(at: 1) ? "" : statement.string(at: 1))
            }
        }
    }

    private func bind(_ expression: String, to statement: Statement) throws {
        guard !expression.utf8.contains(0) else {
            throw TroveError(
                code: .invalidSearchQuery,
                message:
                    "The query '\(expression)' of the search results view '\(viewName)' holds a NUL character, which FTS5 cannot read.",
                collection: collection, extensionName: viewName)
        }
        try statement.bind(expression, at: 1)
        try statement.bind(snippet.before, at: 2)
        try statement.bind(snippet.after, at: 3)
        try statement.bind(snippet.ellipsis, at: 4)
    }

    /// Runs `body`, which steps `sql`; an SQLite error of the statement is FTS5 refusing the query.
    private func stepping<T>(_ expression: String, sql: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TroveError where error.sql == sql && error.sqliteResultCode == 1 {  // SQLITE_ERROR
            throw TroveError.invalidSearchQuery(
                expression, of: "the search results view '\(viewName)'", collection: collection,
                extensionName: viewName, refusal: error)
        }
    }
}

/// How a search results view keeps its pages (a ``ViewImplementation`` of its
/// ``SearchResultsDefinition``), its query and its snippets.
struct SearchResultsImplementation<Item: Persistable>: ExtensionImplementation {
    let pages: ViewImplementation<SearchResultsDefinition<Item>>
    let matcher: SearchResultsMatcher
    /// The full-text search it reads.
    let search: ExtensionDependency

    /// Rows checked between two looks at the queue of a search.
    static var batchSize: Int { 64 }

    var kind: String { "searchResultsView" }
    var collection: String { pages.collection }
    var fingerprint: String { pages.fingerprint }
    var needsRemovedRows: Bool { true }
    var dependencies: [ExtensionDependency] { [search] }

    func follows(_ collection: String) -> Bool {
        pages.follows(collection)
    }

    func tableNames(name: String) -> [String] {
        pages.tableNames(name: name) + (matcher.tables?.tableNames ?? [])
    }

    /// A rebuild keeps the query: the rebuilt view holds its hits again.
    func tablesKeptByRebuild(name: String, storedFingerprint: String) -> [String] {
        matcher.tables.map { [$0.queryTable] } ?? []
    }

    func isBuilt(name: String, in context: ExtensionContext) -> Bool {
        pages.isBuilt(name: name, in: context)
    }

    /// Creates the pages and the side tables (the query table kept by a rebuild stays); an
    /// in-memory view takes the query of the version it replaces.
    func create(name: String, in context: ExtensionContext) throws {
        let previousQuery = context.core.database.viewVersions.latest(of: name)?.state.search?.query
        try pages.create(name: name, in: context)
        if let tables = matcher.tables {
            try context.sqlite.execute(tables.createSQL)
        } else if let previousQuery {
            try matcher.store(pages.state(name: name, in: context), in: context).setQuery(previousQuery)
        }
    }

    /// Fills the rows from the stored query, if any, without reporting them (as a build of a
    /// ``View`` does not).
    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        let state = try pages.state(name: name, in: context)
        guard let query = try matcher.store(state, in: context).storedQuery() else { return }
        try run(query, name: name, in: context, reportsChanges: false, shouldAbandon: { false })
    }

    /// Places the row as the view's definition says (its group when it matches the query), then
    /// makes its snippet again, or forgets it when the row is not in the view.
    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        try pages.apply(event, name: name, in: context)
        guard event.kind != .touched else { return }
        let state = try pages.state(name: name, in: context)
        let store = try matcher.store(state, in: context)
        if try state.currentPage(of: event.rowID, in: context) == 0 {
            try store.setSnippet(nil, ofRow: event.rowID)
        } else if let query = try store.storedQuery() {
            try store.setSnippet(
                matcher.snippet(ofRow: event.rowID, matching: query, in: context), ofRow: event.rowID)
        }
    }

    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try pages.removeAll(rows: rows, name: name, in: context)
        try matcher.store(pages.state(name: name, in: context), in: context).deleteAllSnippets()
    }

    /// Sets `query` and makes the rows its hits: the rows no longer hit leave, the new hits
    /// enter at their place, each noted as a ``View``'s write notes it (unless
    /// `reportsChanges` is false: a build); the snippets of the hits are made again. Each row
    /// that enters or leaves also counts as an update of its item (a touch, as a
    /// ``ManualViewWriter``'s change does), so that the commit has a changeset and the
    /// observations of the view see it.
    /// `shouldAbandon` is asked between batches of rows: when it says yes, the search throws
    /// ``TroveError/Code/cancelled``, and its transaction must roll back.
    func run(
        _ query: SearchQuery?, name: String, in context: ExtensionContext, reportsChanges: Bool,
        shouldAbandon: () -> Bool
    ) throws {
        let state = try pages.state(name: name, in: context)
        let store = try matcher.store(state, in: context)
        var checked = 0
        func check() throws {
            checked += 1
            if checked % Self.batchSize == 0, shouldAbandon() {
                throw TroveError(
                    code: .cancelled,
                    message:
                        "The search of the search results view '\(name)' for \(query?.description ?? "no query") was abandoned: a newer query was enqueued. Let this error leave the transaction, which rolls back.",
                    collection: collection, extensionName: name)
            }
        }
        try store.setQuery(query)
        var hits: [Int64: String] = [:]
        if let query {
            try matcher.forEachHit(of: query, in: context) { rowID, snippet in
                hits[rowID] = snippet
                try check()
            }
        }
        let definition = pages.view
        // The rows that leave.
        for (rowID, _) in try state.store.allRows() where hits[rowID] == nil {
            try check()
            let key = try storedKey(ofRow: rowID, name: name, in: context)
            try state.remove(rowID, in: context)
            try store.setSnippet(nil, ofRow: rowID)
            if reportsChanges {
                state.noteChange(rowID, key: key, collection: nil, parts: [], repositioned: true)
                _ = try context.core.touchRow(key: key, collection: collection)
            }
        }
        // The rows that enter, and the snippets of those that stay. The items compared by the
        // sort are read once.
        var rows: [Int64: (key: String, row: Item)] = [:]
        func row(_ rowID: Int64) throws -> (key: String, row: Item) {
            if let row = rows[rowID] { return row }
            let row = try definition.row(rowID, in: context)
            rows[rowID] = row
            return row
        }
        for (rowID, snippet) in hits.sorted(by: { $0.key < $1.key }) {
            try check()
            if try state.currentPage(of: rowID, in: context) != 0 {
                try store.setSnippet(snippet, ofRow: rowID)
                continue
            }
            let entering: (key: String, row: Item)
            do {
                entering = try row(rowID)
            } catch let error as TroveError where error.code == .corruptData {
                // An item that does not decode is left out, as a write of it leaves it out.
                try UnreadableItems.record(rowID: rowID, extensionName: name, error: error, in: context)
                continue
            }
            guard let group = try definition.group(of: entering.row) else { continue }
            try state.insert(rowID, into: group, in: context) { other in
                let (otherKey, otherRow) = try row(other)
                return try definition.sortsBefore(entering.row, key: entering.key, otherRow, key: otherKey)
            }
            try store.setSnippet(snippet, ofRow: rowID)
            if reportsChanges {
                state.noteChange(rowID, key: entering.key, collection: nil, parts: [], repositioned: true)
                _ = try context.core.touchRow(key: entering.key, collection: collection)
            }
        }
    }

    /// The key of the stored row `rowID`, which the view holds.
    private func storedKey(ofRow rowID: Int64, name: String, in context: ExtensionContext) throws -> String {
        let statement = try context.sqlite.cachedStatement(FileLayout.selectKeyByRowID)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        guard try statement.step() else {
            throw TroveError.viewRowWithoutItem(view: name, collections: [collection])
        }
        return statement.string(at: 0)
    }
}

extension Database {
    /// Observes the contents of a search results view (the keys of its groups), as
    /// ``observe(_:groups:)-(View<Item>,_)`` does for a ``View``.
    ///
    /// - Parameters:
    ///   - view: The view, registered on this database.
    ///   - groups: The groups to follow; `nil` for all.
    /// - Returns: The observation.
    public func observe<Item: Persistable>(_ view: SearchResultsView<Item>, groups: [String]? = nil)
        -> DatabaseObservation<ViewContents>
    {
        observe(view.view, groups: groups)
    }

    /// Observes the sections of a search results view under `mappings`, with the section and row
    /// changes from one value to the next, as ``observe(_:mappings:)-(View<Item>,_)`` does for a
    /// ``View``.
    ///
    /// - Parameters:
    ///   - view: The view, registered on this database.
    ///   - mappings: Which groups and rows to show.
    /// - Returns: The observation.
    public func observe<Item: Persistable>(_ view: SearchResultsView<Item>, mappings: ViewMappings)
        -> ViewSectionsObservation
    {
        observe(view.view, mappings: mappings)
    }
}
