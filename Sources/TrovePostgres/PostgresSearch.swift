import Foundation
import NIOCore
import PostgresNIO
@_spi(TroveEngine) import Trove

/// A full-text search that a ``PostgresStore`` keeps: the same `FullTextSearch` definition a Trove
/// file uses (generated from `// @searchable` annotations, brought by `models:`), as a `tsvector`
/// per item in a table of its own with a GIN index, queried with `tsquery` and ranked by
/// `ts_rank_cd`.
///
/// ## The table
///
/// `search_<name> (key, document, c_<column>…)` holds one row per item: `document` is the
/// `tsvector` of every column's text, each column's lexemes labelled with its weight class (A to
/// D, see below; between two columns, a lexeme no query can name, so that a phrase does not run
/// from one column into the next), and each `c_<column>` keeps the column's text for excerpts (`ts_headline`), as
/// an FTS5 table keeps it on a Trove file. The writes of items replace their rows in one
/// statement per batch, held back until the transaction's next statement or its commit.
///
/// ## Tokens
///
/// The text is split by PostgreSQL's parser. `unicode61` is the `simple` configuration (lower
/// case, no stemming); `porter` is `english` (stemming, and English stop words left out of both
/// the items and the queries). Diacritics are removed by Trove before the text reaches the
/// server (both items' and queries'), as `unicode61` removes them, so `cafe` finds `Café`; the
/// kept text is the item's own, so an excerpt shows `Café` but marks it only when the query
/// was written with the accent. `trigram` has no PostgreSQL configuration and is refused when
/// the store opens.
///
/// ## Ranking
///
/// `ts_rank_cd` (cover density) weighs each match by its column's class: the columns' distinct
/// weights, largest first, are the classes A, B, C and D (a fifth and smaller weight shares D),
/// each worth its weight divided by the largest. A hit's score is the rank negated, so that, as
/// with bm25 on a Trove file, lower is better. The order of hits may differ from a Trove file's:
/// bm25 weighs rare terms more and long texts less, `ts_rank_cd` counts how close the matches
/// are to each other.
struct PostgresSearch: Sendable {
    let name: String
    let version: Int
    let collection: String
    let tokenizer: FullTextTokenizer
    let columnNames: [String]
    let weights: [Double]
    /// The weight class of each column, `A` to `D`.
    let labels: [String]
    /// `ts_rank_cd`'s weights of the classes, D to A, as an SQL array literal.
    let rankWeights: String
    /// The text-search configuration, as an SQL literal.
    let configuration: String
    /// Whether Trove removes diacritics from texts and queries before the server reads them.
    let foldsDiacritics: Bool
    /// The texts of the columns of an item of the search's type; `nil` for another type.
    let textsOfItem: @Sendable (any Sendable) -> [String?]?
    /// The texts of the columns of a stored item, decoded.
    let textsOfRow: @Sendable (PostgresReadTransaction, ByteBuffer, ByteBuffer?, String) throws -> [String?]

    /// The PostgreSQL form of `definition`, whose tokenizer is not `trigram` (checked by the caller).
    init<Definition: FullTextSearchDefinition>(_ definition: Definition) {
        typealias Item = Definition.Item
        let search = definition.search
        name = search.name
        version = search.version
        collection = Item.collection
        tokenizer = search.tokenizer
        columnNames = search.columns.map(\.name)
        weights = search.columns.map(\.weight)
        switch search.tokenizer {
        case .unicode61(let removeDiacritics):
            configuration = "'simple'"
            foldsDiacritics = removeDiacritics != 0
        case .porter, .trigram:
            configuration = "'english'"
            foldsDiacritics = true
        }
        // The distinct weights, largest first, are the classes A, B, C and D; the smaller ones
        // share D. The ranks of the classes are their weights divided by the largest (PostgreSQL
        // takes weights from 0 to 1).
        let classes = Array(Set(weights.map { max(0, $0) })).sorted(by: >).prefix(4)
        labels = weights.map { weight in
            let position = classes.firstIndex(of: max(0, weight)) ?? classes.count - 1
            return ["A", "B", "C", "D"][min(position, 3)]
        }
        let largest = classes.first ?? 1
        var ranks = classes.map { largest > 0 ? $0 / largest : 1 }
        while ranks.count < 4 { ranks.append(ranks.last ?? 1) }
        rankWeights = "'{\(ranks.reversed().map { "\(Float($0))" }.joined(separator: ","))}'::float4[]"
        let columns = search.columns
        @Sendable func texts(_ item: Item) -> [String?] {
            columns.map { $0.text(item).map(Self.storable) }
        }
        textsOfItem = { item in (item as? Item).map(texts) }
        textsOfRow = { transaction, data, metadata, key in
            texts(try transaction.decodeItem(Item.self, data: data, metadata: metadata, key: key))
        }
    }

    func table(_ names: PostgresNames) -> String { names.searchTable(name) }

    /// The quoted column that keeps the text of the search's column at `offset`.
    private func textColumn(_ offset: Int) -> String {
        PostgresNames.quote("c_" + columnNames[offset])
    }

    /// Whether this search is the PostgreSQL form of `search`: same collection, version,
    /// tokenizer, columns and weights.
    func describes<Item: Persistable>(_ search: FullTextSearch<Item>) -> Bool {
        collection == Item.collection && version == search.version && tokenizer == search.tokenizer
            && columnNames == search.columns.map(\.name) && weights == search.columns.map(\.weight)
    }

    // MARK: Text

    /// The start and end of a match in an excerpt, as `ts_headline` writes them, and the end of a
    /// fragment: private-use characters, which ``storable(_:)`` keeps out of the kept texts.
    static let matchStart: Character = "\u{E000}"
    static let matchEnd: Character = "\u{E001}"

    /// `text` as PostgreSQL can keep it: without NUL (which a `text` cannot hold; it separates
    /// words as a space does) and without the private-use characters that mark matches in
    /// excerpts.
    static func storable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value == 0 || (0xE000...0xE001).contains($0.value) }) else {
            return text
        }
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.value == 0 ? " " : (0xE000...0xE001).contains(scalar.value) ? "\u{FFFD}" : scalar
                }))
    }

    /// `text` as the server tokenizes it: without diacritics when the tokenizer removes them.
    func searchable(_ text: String) -> String {
        foldsDiacritics ? text.folding(options: .diacriticInsensitive, locale: nil) : text
    }

    // MARK: Queries

    /// What a query selects.
    enum Selection {
        case items, keys, count
    }

    /// The statement of a search, or `nil` for a query without words (which matches nothing).
    ///
    /// - Throws: ``/Trove/TroveError/Code/invalidSearchQuery`` for a query in FTS5's own syntax;
    ///   ``/Trove/TroveError/Code/extensionFailed`` for an excerpt of a column the search does not
    ///   have, or an index filter on an index the store does not keep.
    func statement(
        _ clauses: FullTextClauses, selecting selection: Selection, store: PostgresStore
    ) throws -> PostgresQuery? {
        let function: String
        let text: String
        switch clauses.query.form {
        case .nothing:
            return nil
        case .raw:
            throw TroveError(
                code: .invalidSearchQuery,
                message:
                    "The query '\(clauses.query)' of the full-text search '\(name)' is written in FTS5's syntax, which PostgreSQL does not read: build it with SearchQuery.prefixes(of:), allWords(of:) or phrase(_:), which run on both engines.",
                collection: collection, extensionName: name)
        case .words(let words, let prefix):
            // Each word a quoted lexeme (quotes doubled, backslashes escaped): nothing in it is
            // syntax. The server splits it as it splits the items' text, into a phrase when it
            // holds several tokens, and leaves it out when it holds none.
            function = "to_tsquery"
            text = words.map { word in
                let escaped = searchable(Self.storable(word))
                    .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''")
                return "'\(escaped)'" + (prefix ? ":*" : "")
            }.joined(separator: " & ")
        case .phrase(let phrase):
            function = "phraseto_tsquery"
            text = searchable(Self.storable(phrase))
        }
        var bindings = PostgresBindings()
        var parameterCount = 0
        func placeholder(_ value: String) -> String {
            bindings.append(value)
            parameterCount += 1
            return "$\(parameterCount)"
        }
        func placeholder(_ value: IndexValue) -> String {
            PostgresIndex.bind(value, to: &bindings)
            parameterCount += 1
            return "$\(parameterCount)"
        }
        let table = table(store.names)
        let tsquery = "\(function)(\(configuration)::regconfig, \(placeholder(text))) AS q (q)"
        var from = "\(tsquery) JOIN \(table) AS s ON s.document @@ q.q"
        var predicates: [String] = []
        for (offset, filter) in clauses.indexFilters.enumerated() {
            guard let index = store.indexesByName[filter.indexName], index.collection == collection else {
                throw TroveError(
                    code: .extensionFailed,
                    message:
                        "The full-text search '\(name)' is narrowed by the index '\(filter.indexName)', which this PostgreSQL store does not keep for its items: open the store with the index too.",
                    collection: collection, extensionName: filter.indexName)
            }
            let alias = "f\(offset)"
            from += " JOIN \(index.table(store.names)) AS \(alias) ON \(alias).key = s.key"
            predicates += try index.predicates(of: filter.conditions, alias: alias, placeholder: placeholder)
        }
        let whereClause = predicates.isEmpty ? "" : " WHERE " + predicates.joined(separator: " AND ")
        let rank = "ts_rank_cd(\(rankWeights), s.document, q.q)"
        let limitClause = PostgresSelect.limitClause(clauses.limit, offset: clauses.offset)
        let order = " ORDER BY \(rank) DESC, s.key"
        let sql: String
        switch selection {
        case .items:
            // The hits are ranked and limited first, from the search's table alone; only then are
            // their items read and their excerpts made (`ts_headline` parses the whole text).
            let excerpt = try excerptSQL(clauses.excerpt, query: "q.q", placeholder: placeholder)
            sql = """
                WITH hit AS (SELECT s.key, \(rank) AS rank FROM \(from)\(whereClause)\(order)\(limitClause))
                SELECT hit.key, i.data, i.metadata, (-hit.rank)::float8, \(excerpt)
                FROM hit JOIN \(table) AS s ON s.key = hit.key
                JOIN \(store.names.items) AS i ON i.collection = \(placeholder(collection)) AND i.key = hit.key,
                \(tsquery)
                ORDER BY hit.rank DESC, hit.key
                """
        case .keys:
            sql = PostgresSelect.keys("s.key", from: from + whereClause, order: order, limit: limitClause)
        case .count:
            sql = PostgresSelect.count("s.key", from: from + whereClause, order: order, limit: limitClause)
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// The SQL of the excerpt of each hit, `NULL` when none is asked for: `ts_headline` of the
    /// kept text, its matches between the private-use marks that ``excerpt(_:of:)`` replaces,
    /// and for a snippet the ellipsis where the text was cut.
    private func excerptSQL(
        _ excerpt: FullTextExcerpt?, query: String, placeholder: (String) -> String
    ) throws -> String {
        guard let excerpt else { return "NULL" }
        guard let offset = columnNames.firstIndex(of: excerpt.column) else {
            throw TroveError.noSearchColumn(excerpt.column, in: name, columns: columnNames)
        }
        let text = "s." + textColumn(offset)
        let marks = "StartSel=\(Self.matchStart), StopSel=\(Self.matchEnd)"
        switch excerpt.kind {
        case .highlight:
            return "ts_headline(\(configuration)::regconfig, \(text), \(query), \(placeholder(marks + ", HighlightAll=true")))"
        case .snippet(let ellipsis, let tokens):
            // One fragment of at most `tokens` words around the matches; a column without a
            // match gives its first words. The ellipsis goes where the fragment does not reach
            // the start or the end of the text.
            let maxWords = max(2, tokens)
            let options = "\(marks), MaxWords=\(maxWords), MinWords=\(max(1, tokens - 1)), ShortWord=0, MaxFragments=1"
            let cut = placeholder(ellipsis)
            let headline = "ts_headline(\(configuration)::regconfig, \(text), \(query), \(placeholder(options)))"
            let plain = "replace(replace(h, '\(Self.matchStart)', ''), '\(Self.matchEnd)', '')"
            let spaces = "E' \\t\\r\\n'"
            return """
                (SELECT CASE WHEN starts_with(ltrim(\(text), \(spaces)), p) THEN '' ELSE \(cut) END || h \
                || CASE WHEN right(rtrim(\(text), \(spaces)), length(p)) = p THEN '' ELSE \(cut) END \
                FROM (SELECT h, \(plain) AS p FROM \(headline) AS h) AS e)
                """
        }
    }

    /// The excerpt `headline` read from the server, its matches between `excerpt`'s texts.
    static func excerpt(_ headline: String?, of excerpt: FullTextExcerpt?) -> String? {
        guard let headline, let excerpt else { return nil }
        var result = ""
        result.reserveCapacity(headline.utf8.count + 16)
        for character in headline {
            switch character {
            case matchStart: result += excerpt.before
            case matchEnd: result += excerpt.after
            default: result.append(character)
            }
        }
        return result
    }
}

extension PostgresSearch: PostgresRowPerItem, PostgresHoldingBack {
    /// What the table is built from: a change rebuilds it. The weights' classes are in the
    /// stored vectors; the weights' values are the queries'.
    var fingerprint: String {
        "search v1 \(collection): \(configuration)\(foldsDiacritics ? " folded" : ""); "
            + zip(columnNames, labels).map { "\($0):\($1)" }.joined(separator: ", ")
    }

    func makeTables(in transaction: PostgresReadWriteTransaction) async throws {
        let table = table(transaction.names)
        _ = try await transaction.query("DROP TABLE IF EXISTS \(table)")
        let texts = columnNames.indices.map { "\(textColumn($0)) text" }.joined(separator: ", ")
        _ = try await transaction.query(
            "CREATE TABLE \(table) (key text COLLATE \"C\" PRIMARY KEY, document tsvector NOT NULL, \(texts))")
        // A short pending list (256 kB, not 4 MB): writes still go into the index in batches, but
        // a search right after many writes finds little left in the list, so the planner keeps
        // using the index instead of scanning the table until a vacuum merges it. Measured on
        // 5,000 documents: inserts 2.5 s (2.2 s with the default list, 6.1 s with none), the
        // index's cost estimate 75 (507 with the default list, which made a query scan the table:
        // 35 ms instead of 12).
        _ = try await transaction.query(
            "CREATE INDEX ON \(table) USING gin (document) WITH (gin_pending_list_limit = 256)")
    }

    /// The texts of the columns of an item written.
    func heldRow(of item: any Sendable) -> (any Sendable)? { textsOfItem(item) }

    /// The texts of the columns of a stored item.
    func heldRow(key: String, data: ByteBuffer, metadata: ByteBuffer?, in transaction: PostgresReadWriteTransaction)
        throws -> any Sendable
    {
        try textsOfRow(transaction, data, metadata, key)
    }

    /// Replaces the rows of the items written, in one statement: the texts travel as arrays, one
    /// per column (with one of flags for `nil`), and the server makes the vectors.
    func sendHeldBack(_ rows: [String: any Sendable], in transaction: PostgresReadWriteTransaction) async throws {
        var keys: [String] = []
        var texts = [[String]](repeating: [], count: columnNames.count)
        var hasText = [[Bool]](repeating: [], count: columnNames.count)
        var searchable = [[String]](repeating: [], count: foldsDiacritics ? columnNames.count : 0)
        for (key, row) in rows {
            guard let row = row as? [String?] else { continue }
            keys.append(key)
            for offset in columnNames.indices {
                texts[offset].append(row[offset] ?? "")
                hasText[offset].append(row[offset] != nil)
                if foldsDiacritics { searchable[offset].append(self.searchable(row[offset] ?? "")) }
            }
        }
        var bindings = PostgresBindings(capacity: 1 + columnNames.count * 3)
        bindings.append(keys)
        var arrays = ["$1::text[]"]
        var names = ["k"]
        for offset in columnNames.indices {
            bindings.append(texts[offset])
            bindings.append(hasText[offset])
            arrays += ["$\(arrays.count + 1)::text[]", "$\(arrays.count + 2)::bool[]"]
            names += ["t\(offset)", "h\(offset)"]
        }
        for offset in searchable.indices {
            bindings.append(searchable[offset])
            arrays.append("$\(arrays.count + 1)::text[]")
            names.append("f\(offset)")
        }
        // Between two columns, a lexeme no query can name (queries never hold the private-use
        // mark), so that a phrase never runs from the end of one column into the next.
        let gap = " || '''\(Self.matchStart)'':1'::tsvector || "
        let document = columnNames.indices.map { offset in
            "setweight(to_tsvector(\(configuration)::regconfig, \(foldsDiacritics ? "f" : "t")\(offset)), '\(labels[offset])')"
        }.joined(separator: gap)
        let columns = columnNames.indices.map(textColumn)
        let sql = """
            INSERT INTO \(table(transaction.names)) (key, document, \(columns.joined(separator: ", ")))
            SELECT k, \(document), \(columnNames.indices.map { "CASE WHEN h\($0) THEN t\($0) END" }.joined(separator: ", "))
            FROM unnest(\(arrays.joined(separator: ", "))) AS w (\(names.joined(separator: ", ")))
            ON CONFLICT (key) DO UPDATE SET document = excluded.document, \
            \(columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """
        _ = try await transaction.run(
            PostgresQuery(unsafeSQL: sql, binds: bindings), collection: collection,
            key: keys.count == 1 ? keys[0] : nil)
    }

}
