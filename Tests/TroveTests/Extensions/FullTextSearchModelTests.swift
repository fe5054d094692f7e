import Foundation
import Testing
import Trove
import TroveTestSupport

/// Random writes of every kind, rollbacks and reopenings, each followed by random searches whose
/// results and order must be what SQLite's own FTS5 returns over the same rows (a table this
/// test keeps through the raw C API) and, for one-word and prefix queries, what a brute-force
/// matcher finds.
struct FullTextSearchModelTests {
    private static let keys = (0..<30).map { "a\($0)" }
    private static let words = [
        "swift", "Swift", "SQLITE", "sqlite", "search", "index", "table", "query", "rank", "tree", "trove",
        "apple", "apply", "approach", "zebra",
    ]
    private static let rawQueries = [
        "swift", "SQLite", "apple", "zebra", "app*", "tr*", "\"swift sqlite\"", "swift OR tree", "swift NOT tree",
        "title: swift", "tags: apple", "note: zebra", "NEAR(swift tree, 2)", "(apple OR apply) AND query",
    ]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func searchesMatchSQLitesOwnFTS5AndABruteForceMatcher(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/model.trove"
        let search = ArticleSearches.articles
        let extensions = [search.databaseExtension, ArticleSearches.byShape.databaseExtension]
        var database: Database? = try Database(path: path, extensions: extensions)
        var connection = try database!.newConnection()
        var model: [String: Article] = [:]
        let reference = try ReferenceFTS(
            columns: ["title", "body", "tags", "note"], weights: [10, 1, 2, 0.5], tokenize: "unicode61 remove_diacritics 2")
        var checked = 0

        for step in 0..<200 {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<35:  // typed writes, several in one transaction
                let articles = (0..<Int.random(in: 1...4, using: &random)).map { _ in randomArticle(&random) }
                try connection.write { tx in try tx.write(articles) }
                for article in articles { model[article.id] = article }
            case 35..<45:  // untyped write of the bytes of an article, with or without metadata
                let article = randomArticle(&random)
                let data = try CodableCoder<Article>.encodedData(article)
                let metadata = try article.metadata.map { try CodableCoder<ArticleNote>.encodedData($0) }
                try connection.write { tx in
                    try tx.setData(data, metadata: metadata, forKey: article.id, in: Article.collection)
                }
                model[article.id] = article
            case 45..<55:  // metadata alone: the searched note changes
                let key = Self.keys.randomElement(using: &random)!
                let note = Bool.random(using: &random) ? ArticleNote(note: randomText(&random, words: 3)) : nil
                _ = try connection.write { tx in try tx.setMetadata(note, for: Article.self, key: key) }
                model[key]?.metadata = note
            case 55..<70:  // removals of keys, typed and untyped
                let removed = Array(Self.keys.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
                try connection.write { tx in
                    _ = try tx.remove(Article.self, keys: removed.prefix(1))
                    _ = try tx.removeItems(forKeys: removed.dropFirst(), in: Article.collection)
                }
                for key in removed { model[key] = nil }
            case 70..<73:  // the whole collection
                try connection.write { tx in _ = try tx.removeAll(Article.self) }
                model.removeAll()
            case 73..<75:  // everything, with a write after it in the same transaction
                let article = randomArticle(&random)
                try connection.write { tx in
                    try tx.write(Note(id: "n", text: "swift"))
                    _ = try tx.removeAllItems()
                    try tx.write(article)
                }
                model = [article.id: article]
            case 75..<80:  // touch, and writes to another collection
                try connection.write { tx in
                    try tx.touch(key: Self.keys.randomElement(using: &random)!, in: Article.collection)
                    try tx.write(Note(id: "n\(step)", text: "swift sqlite"))
                }
            case 80..<90:  // a transaction that writes, then throws: nothing of it stays
                struct Failure: Error {}
                let article = randomArticle(&random)
                let removed = Self.keys.randomElement(using: &random)!
                _ = try? connection.write { tx in
                    try tx.write(article)
                    _ = try tx.remove(Article.self, key: removed)
                    throw Failure()
                }
            default:  // reopen: the table is in the file, nothing is rebuilt
                database = nil
                database = try Database(path: path)
                #expect(try database!.register(extensions) == [.unchanged, .unchanged])
                connection = try database!.newConnection()
            }
            try reference.reset(
                model.values.map { article in
                    (Int64(Self.keys.firstIndex(of: article.id)!), texts(of: article))
                })
            for _ in 0..<5 {
                try checkRandomSearch(search, connection: connection, model: model, reference: reference, random: &random)
                checked += 1
            }
        }
        #expect(checked == 1_000)
    }

    private func texts(of article: Article) -> [String?] {
        [article.title, article.body, article.tags.joined(separator: "\n"), article.metadata?.note]
    }

    private func randomText(_ random: inout SeededGenerator, words count: Int) -> String {
        (0..<Int.random(in: 1...count, using: &random)).map { _ in Self.words.randomElement(using: &random)! }
            .joined(separator: Bool.random(using: &random) ? " " : ", ")
    }

    private func randomArticle(_ random: inout SeededGenerator) -> Article {
        Article(
            id: Self.keys.randomElement(using: &random)!,
            title: randomText(&random, words: 3),
            body: Bool.random(using: &random) ? randomText(&random, words: 12) : nil,
            tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.words.randomElement(using: &random)! },
            metadata: Bool.random(using: &random) ? ArticleNote(note: randomText(&random, words: 3)) : nil)
    }

    /// The tokens of `text` as `unicode61` makes them of ASCII text: runs of letters and digits,
    /// lower-cased.
    private func tokens(_ text: String?) -> [String] {
        (text ?? "").lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    private func checkRandomSearch(
        _ search: FullTextSearch<Article>, connection: Connection, model: [String: Article], reference: ReferenceFTS,
        random: inout SeededGenerator
    ) throws {
        // A query, its expression for the reference, and for simple ones what a brute force finds.
        let query: SearchQuery
        var bruteForce: ((Article) -> Bool)?
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let word = Self.words.randomElement(using: &random)!
            query = .raw(word)
            bruteForce = { article in self.texts(of: article).contains { self.tokens($0).contains(word.lowercased()) } }
        case 1:
            let word = Self.words.randomElement(using: &random)!
            let prefix = String(word.prefix(Int.random(in: 1...4, using: &random)))
            query = .prefixes(of: prefix)
            bruteForce = { article in
                self.texts(of: article).contains { self.tokens($0).contains { $0.hasPrefix(prefix.lowercased()) } }
            }
        default:
            query = .raw(Self.rawQueries.randomElement(using: &random)!)
        }
        // Sometimes narrowed by a secondary index of the same items.
        let minimumTags: Int? = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 1...2, using: &random) : nil
        let withBody: Bool? = Int.random(in: 0..<4, using: &random) == 0 ? Bool.random(using: &random) : nil
        let limit: (Int, Int)? =
            Bool.random(using: &random) ? (Int.random(in: 0..<6, using: &random), Int.random(in: 0..<4, using: &random)) : nil

        var expected = try reference.search(query.expression!).map { (key: Self.keys[Int($0.rowID)], score: $0.score) }
        expected.sort { $0.score != $1.score ? $0.score < $1.score : Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }
        if let bruteForce {
            #expect(Set(expected.map(\.key)) == Set(model.values.filter(bruteForce).map(\.id)), "\(query)")
        }
        if let minimumTags {
            expected = expected.filter { model[$0.key]!.tags.count >= minimumTags }
        }
        if let withBody {
            expected = expected.filter { (model[$0.key]!.body != nil) == withBody }
        }
        if let (count, offset) = limit {
            expected = Array(expected.dropFirst(offset).prefix(count))
        }
        let description =
            "\(query), tags >= \(String(describing: minimumTags)), body \(String(describing: withBody)), limit \(String(describing: limit))"
        try connection.read { tx in
            var results = search.query(for: query)
            if let minimumTags { results = results.filter(ArticleSearches.byShape, .column("tagCount", in: minimumTags...)) }
            if let withBody { results = results.filter(ArticleSearches.byShape, .column("hasBody", equals: withBody)) }
            if let (count, offset) = limit { results = results.limit(count, offset: offset) }
            let hits = try results.hits(tx)
            #expect(hits.map(\.key) == expected.map(\.key), "\(description)")
            #expect(hits.map(\.score) == expected.map(\.score), "\(description)")
            #expect(hits.map(\.item) == expected.map { model[$0.key]! }, "\(description)")
            #expect(try results.keys(tx) == expected.map(\.key), "\(description)")
            #expect(try results.items(tx) == expected.map { model[$0.key]! }, "\(description)")
            #expect(try results.count(tx) == expected.count, "\(description)")
        }
    }
}
