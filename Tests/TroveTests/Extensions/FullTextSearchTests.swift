import Foundation
import Testing
import Trove
import TroveTestSupport

/// Snippets, weights, the safe query builder, errors, tokenizers, registration and observation
/// of a full-text search.
struct FullTextSearchTests {
    private func withFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder + "/search.trove")
    }

    private func keys(
        _ search: FullTextSearch<Article>, _ query: SearchQuery, in connection: Connection
    ) throws -> [String] {
        try connection.read { tx in try search.query(for: query).keys(tx) }
    }

    private static let articles = [
        Article(id: "a", title: "Swift on the server", body: "Running Swift with SQLite and FTS5 for search."),
        Article(id: "b", title: "Gardening", body: "Roses, tulips and a swift bird over the garden.", tags: ["birds", "swift"]),
        Article(id: "c", title: "Café au lait", body: "A recipe from Zürich.", metadata: ArticleNote(note: "breakfast")),
    ]

    // MARK: Results

    @Test func snippetsAndHighlightsMarkTheMatchesWithTheCallersMarkers() throws {
        let database = try Database.temporary(extensions: [ArticleSearches.articles.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.articles)
        try connection.read { tx in
            let hits = try ArticleSearches.articles.query(for: .raw("sqlite"))
                .snippets(of: "body", before: "[", after: "]", ellipsis: "...", tokens: 3).hits(tx)
            #expect(hits.map(\.key) == ["a"])
            #expect(hits.first?.snippet == "...with [SQLite] and...")
            let highlighted = try ArticleSearches.articles.query(for: .prefixes(of: "caf"))
                .highlights(of: "title", before: "<", after: ">").hits(tx)
            #expect(highlighted.map(\.snippet) == ["<Café> au lait"])
            // No excerpt asked for: none.
            #expect(try ArticleSearches.articles.query(for: .raw("sqlite")).hits(tx).first?.snippet == nil)
            #expect(throws: TroveError.self) {
                try ArticleSearches.articles.query(for: .raw("sqlite")).snippets(of: "nothing").hits(tx)
            }
        }
    }

    @Test func weightsDecideTheOrder() throws {
        // "swift" is in the title of a and in the body and tags of b.
        let titleFirst = FullTextSearch<Article>(
            "weights", columns: [.column("title", weight: 10) { $0.title }, .column("body") { $0.body }])
        let bodyFirst = FullTextSearch<Article>(
            "weights", columns: [.column("title", weight: 0.1) { $0.title }, .column("body", weight: 10) { $0.body }])
        let database = try Database.temporary(extensions: [titleFirst.databaseExtension])
        let connection = try database.newConnection()
        try connection.write([
            Article(id: "a", title: "swift", body: "one two three four five six seven eight"),
            Article(id: "b", title: "other words here", body: "swift swift"),
        ])
        #expect(try connection.read { tx in try titleFirst.query(for: .raw("swift")).keys(tx) } == ["a", "b"])
        // Only the weights differ: the same table, no rebuild, the other order.
        #expect(try database.register(bodyFirst.databaseExtension) == .unchanged)
        #expect(try connection.read { tx in try bodyFirst.query(for: .raw("swift")).keys(tx) } == ["b", "a"])
    }

    @Test func limitOffsetCountAndThePool() async throws {
        let database = try Database.temporary(extensions: [ArticleSearches.articles.databaseExtension])
        try syncReadWrite(database.newConnection()) { tx in
            try tx.write((0..<10).map { Article(id: "k\($0)", title: "same words") })
        }
        let search = ArticleSearches.articles
        let page = try await database.read { tx in try search.query(for: .raw("words")).limit(3, offset: 8).keys(tx) }
        #expect(page == ["k8", "k9"])
        let counts = try await database.read { tx in
            (try search.query(for: .raw("words")).count(tx), try search.query(for: .raw("words")).limit(3).count(tx))
        }
        #expect(counts == (10, 3))
        let items = try await database.read { tx in try search.query(for: .prefixes(of: "SAME wor")).limit(1).items(tx) }
        #expect(items.map(\.id) == ["k0"])
    }

    @Test func aSearchNarrowedByASecondaryIndex() throws {
        let unread = SecondaryIndex<Article>("articles_unread", columns: [.column("unread") { $0.metadata?.note == "unread" }])
        let database = try Database.temporary(extensions: [ArticleSearches.articles.databaseExtension, unread.databaseExtension])
        let connection = try database.newConnection()
        try connection.write([
            Article(id: "a", title: "swift one", metadata: ArticleNote(note: "unread")),
            Article(id: "b", title: "swift two"),
            Article(id: "c", title: "swift three", metadata: ArticleNote(note: "unread")),
            Article(id: "d", title: "kotlin", metadata: ArticleNote(note: "unread")),
        ])
        try connection.read { (tx: ReadTransaction) throws in
            let search = ArticleSearches.articles.query(for: .prefixes(of: "swi"))
                .filter(unread, .column("unread", equals: true))
                .snippets(of: "title", before: "[", after: "]")
            #expect(try search.keys(tx) == ["a", "c"])
            #expect(try search.count(tx) == 2)
            #expect(try search.limit(1, offset: 1).hits(tx).map(\.snippet) == ["[swift] three"])
            #expect(try search.limit(5, offset: 1).count(tx) == 1)
            #expect(try ArticleSearches.articles.query(for: .raw("swift")).filter(unread, .column("unread", in: [false])).keys(tx) == ["b"])
            #expect(throws: TroveError.self) { try search.filter(unread, .column("nothing", equals: 1)).keys(tx) }
        }
        // An index that is not registered cannot filter.
        let other = SecondaryIndex<Article>("articles_other", columns: [.column("x") { $0.tags.count }])
        #expect(throws: TroveError.self) {
            try connection.read { tx in
                try ArticleSearches.articles.query(for: .raw("swift")).filter(other, .column("x", equals: 0)).keys(tx)
            }
        }
    }

    // MARK: Queries

    @Test(arguments: [
        #""swift"#, #"swift""#, #""""#, "swift*", "*swift", "**", "NEAR(", "NEAR(swift", "-swift", "swift -", "^swift",
        "^", "(swift", "swift)", ")(", "AND", "OR swift", "swift AND", "NOT", "swift NOT", "title:", "title: swift",
        "nothing: swift", "{title", "+", "🎉", "swift 🎉", "🎉🎉🎉", "\u{0}", "  \t\n ", "", "'; DROP TABLE trove_items; --",
    ])
    func theSafeBuilderNeverFailsOnHostileInput(input: String) throws {
        let database = try Database.temporary(extensions: [ArticleSearches.articles.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.articles + [Article(id: "d", title: "AND OR NOT NEAR title")])
        let found = try keys(ArticleSearches.articles, .prefixes(of: input), in: connection)
        // What it should find: the items that have a token starting with each word's letters.
        let words = input.split(whereSeparator: { $0.isWhitespace }).map {
            $0.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        }.filter { !$0.isEmpty }
        if words.isEmpty {
            #expect(found.isEmpty)
        } else if words.allSatisfy({ $0.first == "swift" }) {
            #expect(Set(found) == ["a", "b"], "\(input)")
        } else if words == [["and"]] {
            #expect(Set(found) == ["a", "b", "d"], "\(input)")
        } else if words == [["not"]] || words == [["title"]] {
            #expect(found == ["d"], "\(input)")
        }
        #expect(try connection.read { tx in try ArticleSearches.articles.query(for: .allWords(of: input)).count(tx) } >= 0)
        #expect(try connection.read { tx in try ArticleSearches.articles.query(for: .phrase(input)).count(tx) } >= 0)
    }

    @Test func theSafeBuildersQuoteEveryWord() {
        #expect(SearchQuery.prefixes(of: #"swi "x"#).expression == #""swi"* """x"*"#)
        #expect(SearchQuery.prefixes(of: "a\u{0}b  NEAR(").expression == #""a"* "b"* "NEAR("*"#)
        #expect(SearchQuery.allWords(of: "OR -x").expression == #""OR" "-x""#)
        #expect(SearchQuery.phrase(#"say "hi""#).expression == #""say ""hi""""#)
        #expect(SearchQuery.prefixes(of: " \t\n").expression == nil)
        #expect(SearchQuery.phrase("\u{0}").expression == nil)
        #expect(SearchQuery.raw("swift*").expression == "swift*")
    }

    @Test func operatorsAsWordsAreSearchedAsText() throws {
        let database = try Database.temporary(extensions: [ArticleSearches.articles.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.articles + [Article(id: "d", title: "cats AND dogs OR NOT birds")])
        #expect(try keys(ArticleSearches.articles, .prefixes(of: "NOT"), in: connection) == ["d"])
        #expect(try keys(ArticleSearches.articles, .prefixes(of: "AND"), in: connection).sorted() == ["a", "b", "d"])
        #expect(try keys(ArticleSearches.articles, .prefixes(of: "swift OR"), in: connection).isEmpty)
        #expect(try keys(ArticleSearches.articles, .raw("swift OR roses"), in: connection).sorted() == ["a", "b"])
        #expect(try keys(ArticleSearches.articles, .allWords(of: "swif"), in: connection).isEmpty)
        #expect(try keys(ArticleSearches.articles, .phrase("swift bird"), in: connection) == ["b"])
        #expect(try keys(ArticleSearches.articles, .phrase("bird swift"), in: connection).isEmpty)
    }

    @Test(arguments: ["swift AND", "\"unbalanced", "(swift", "nothing: swift", "NEAR(swift", "", "*", "swift\u{0} OR"])
    func aMalformedRawQueryThrowsAnErrorThatNamesIt(expression: String) throws {
        let database = try Database.temporary(extensions: [ArticleSearches.articles.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.articles)
        for run in 0..<3 {
            let error = try #require(throws: TroveError.self) {
                try connection.read { tx in
                    let query = ArticleSearches.articles.query(for: .raw(expression))
                    switch run {
                    case 0: _ = try query.hits(tx)
                    case 1: _ = try query.keys(tx)
                    default: _ = try query.count(tx)
                    }
                }
            }
            #expect(error.code == .invalidSearchQuery)
            #expect(error.message.contains("'\(expression)'"))
            #expect(error.message.contains("article_search"))
            #expect(error.extensionName == "article_search")
        }
        // The connection goes on.
        #expect(try keys(ArticleSearches.articles, .raw("swift"), in: connection).sorted() == ["a", "b"])
    }

    // MARK: Tokenizers

    @Test func unicode61FoldsCaseAndAccents() throws {
        let database = try Database.temporary(extensions: [ArticleSearches.articles.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.articles)
        #expect(try keys(ArticleSearches.articles, .raw("cafe"), in: connection) == ["c"])
        #expect(try keys(ArticleSearches.articles, .raw("CAFÉ"), in: connection) == ["c"])
        #expect(try keys(ArticleSearches.articles, .prefixes(of: "zur"), in: connection) == ["c"])
        #expect(try keys(ArticleSearches.articles, .raw("breakfast"), in: connection) == ["c"])
        // Keeping diacritics: café is not cafe.
        let keeping = FullTextSearch<Article>(
            "keeping", tokenizer: .unicode61(removeDiacritics: 0), columns: [.column("title") { $0.title }])
        try database.register(keeping.databaseExtension)
        #expect(try keys(keeping, .raw("cafe"), in: connection).isEmpty)
        #expect(try keys(keeping, .raw("CAFÉ"), in: connection) == ["c"])
    }

    @Test func porterStems() throws {
        let stemmed = FullTextSearch<Article>("stemmed", tokenizer: .porter, columns: [.column("body") { $0.body }])
        let plain = FullTextSearch<Article>("plain", columns: [.column("body") { $0.body }])
        let database = try Database.temporary(extensions: [stemmed.databaseExtension, plain.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.articles)
        #expect(try keys(stemmed, .raw("runs"), in: connection) == ["a"])
        #expect(try keys(stemmed, .raw("rose"), in: connection) == ["b"])
        #expect(try keys(plain, .raw("runs"), in: connection).isEmpty)
    }

    @Test func trigramFindsSubstringsOfCJKText() throws {
        let substrings = FullTextSearch<Article>("substrings", tokenizer: .trigram, columns: [.column("title") { $0.title }])
        let words = FullTextSearch<Article>("words", columns: [.column("title") { $0.title }])
        let database = try Database.temporary(extensions: [substrings.databaseExtension, words.databaseExtension])
        let connection = try database.newConnection()
        try connection.write([
            Article(id: "tokyo", title: "東京都に住んでいます"), Article(id: "kyoto", title: "京都市の寺"),
            Article(id: "latin", title: "Unsearchable"),
        ])
        #expect(try keys(substrings, .prefixes(of: "京都"), in: connection).isEmpty)  // two characters: nothing
        #expect(try keys(substrings, .prefixes(of: "住んでい"), in: connection) == ["tokyo"])
        #expect(try keys(substrings, .raw("\"京都市\""), in: connection) == ["kyoto"])
        #expect(try keys(substrings, .allWords(of: "SEARCH"), in: connection) == ["latin"])
        // unicode61 makes one token of the whole run: a part of it is not found.
        #expect(try keys(words, .prefixes(of: "住んでい"), in: connection).isEmpty)
    }

    // MARK: Registration

    @Test func aNewVersionOrTokenizerRebuildsAndReopeningDoesNot() throws {
        try withFolder { path in
            let v1 = FullTextSearch<Article>("lifecycle", columns: [.column("title") { $0.title }])
            let database = try Database(path: path, extensions: [v1.databaseExtension])
            try database.newConnection().write(Self.articles)
            #expect(try database.register(v1.databaseExtension) == .unchanged)

            let reopened = try Database(path: path)
            #expect(reopened.orphanedExtensions == ["lifecycle"])
            // Not rebuilt: rows written behind Trove's back into the table are still there.
            try executeRawSQL(path: path, "INSERT INTO trove_ext_lifecycle (rowid, title) VALUES (999, 'ghost')")
            #expect(try reopened.register(v1.databaseExtension) == .unchanged)
            #expect(try tableRows(path, "SELECT count(*) FROM trove_ext_lifecycle WHERE trove_ext_lifecycle MATCH 'ghost'") == "1")
            let connection = try reopened.newConnection()
            #expect(try keys(v1, .raw("gardening"), in: connection) == ["b"])

            // A new version, with the title computed differently: rebuilt from the items.
            let v2 = FullTextSearch<Article>("lifecycle", version: 2, columns: [.column("title") { $0.body }])
            #expect(try reopened.register(v2.databaseExtension) == .rebuilt)
            #expect(try tableRows(path, "SELECT count(*) FROM trove_ext_lifecycle WHERE trove_ext_lifecycle MATCH 'ghost'") == "0")
            #expect(try keys(v2, .raw("roses"), in: connection) == ["b"])
            // The same version with another tokenizer, or other columns: rebuilt too.
            let trigram = FullTextSearch<Article>(
                "lifecycle", version: 2, tokenizer: .trigram, columns: [.column("title") { $0.body }])
            #expect(try reopened.register(trigram.databaseExtension) == .rebuilt)
            #expect(try keys(trigram, .raw("ose"), in: connection) == ["b"])
            // The definition registered before is not queryable any more.
            #expect(throws: TroveError.self) { try connection.read { tx in try v2.query(for: .raw("x")).count(tx) } }
            let renamed = FullTextSearch<Article>(
                "lifecycle", version: 2, tokenizer: .trigram, columns: [.column("text") { $0.body }])
            #expect(try reopened.register(renamed.databaseExtension) == .rebuilt)
            #expect(try keys(renamed, .raw("text: ose"), in: connection) == ["b"])
        }
    }

    @Test func unregisteringDropsTheTableAndItsShadowTables() throws {
        try withFolder { path in
            let database = try Database(path: path, extensions: [ArticleSearches.articles.databaseExtension])
            try database.newConnection().write(Self.articles)
            #expect(try tableNames(path).filter { $0.hasPrefix("trove_ext_") }.count >= 4)
            #expect(try database.unregister("article_search"))
            #expect(try tableNames(path).filter { $0.hasPrefix("trove_ext_") }.isEmpty)
            try database.newConnection().write(Article(id: "e", title: "later swift"))
            #expect(throws: TroveError.self) {
                try database.newConnection().read { tx in try ArticleSearches.articles.query(for: .raw("swift")).count(tx) }
            }
            #expect(try database.register(ArticleSearches.articles.databaseExtension) == .created)
            #expect(try keys(ArticleSearches.articles, .raw("swift"), in: database.newConnection()).sorted() == ["a", "b", "e"])
        }
    }

    @Test func aBadDefinitionIsRefused() throws {
        let database = try Database.temporary()
        let definitions = [
            FullTextSearch<Article>("bad", columns: []),
            FullTextSearch<Article>("bad", columns: [.column("rank") { $0.title }]),
            FullTextSearch<Article>("bad", columns: [.column("a") { $0.title }, .column("A") { $0.title }]),
            FullTextSearch<Article>("bad", columns: [.column("a", weight: .infinity) { $0.title }]),
            FullTextSearch<Article>("bad", columns: [.column("a b") { $0.title }]),
            FullTextSearch<Article>("bad", tokenizer: .unicode61(removeDiacritics: 3), columns: [.column("a") { $0.title }]),
        ]
        for definition in definitions {
            let error = try #require(throws: TroveError.self) { try database.register(definition.databaseExtension) }
            #expect(error.code == .extensionFailed)
            #expect(error.extensionName == "bad")
        }
        #expect(database.registeredExtensions.isEmpty)
    }

    // MARK: Observation

    @Test func anObservedSearchRunsAgainWhenTheCollectionChanges() async throws {
        let database = try Database.temporary(extensions: [ArticleSearches.articles.databaseExtension])
        let search = ArticleSearches.articles
        var values = database.observe { tx in try search.query(for: .prefixes(of: "swi")).keys(tx) }
            .makeAsyncIterator()
        #expect(try await values.next() == [])
        try await database.newConnection().write(Self.articles)
        #expect(try await values.next()?.sorted() == ["a", "b"])
        try await database.newConnection().write { tx in _ = try tx.remove(Article.self, key: "a") }
        #expect(try await values.next() == ["b"])
    }
}

/// The first column of the first row of `sql` on the file at `path`, as text.
private func tableRows(_ path: String, _ sql: String) throws -> String? {
    try rawQuery(path, sql).first
}
