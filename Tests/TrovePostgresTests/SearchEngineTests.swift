import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// A document of the search suite: a title, a body that may be missing, and a shelf to narrow a
/// search by.
struct SearchDoc: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<SearchDoc>
    static let collection = "search_docs"
    var id: String
    var title: String
    var body: String?
    var shelf: Int
}

/// The search of the suite: the title weighs five times the body.
let docSearch = FullTextSearch<SearchDoc>(
    "doc_search", columns: [.column("title", weight: 5) { $0.title }, .column("body") { $0.body }])
/// The documents by shelf, to narrow a search.
let docsByShelf = SecondaryIndex<SearchDoc>("docs_by_shelf", columns: [.column("shelf") { $0.shelf }])
/// A search with the porter stemmer.
let stemmedSearch = FullTextSearch<SearchDoc>(
    "doc_stemmed", tokenizer: .porter, columns: [.column("title") { $0.title }, .column("body") { $0.body }])

/// Full-text search on both engines, written once against `some AsyncDatabaseWriter`: random
/// documents, writes and removals, and random queries of the three builders checked against a
/// naive word match (the tokens of each column: runs of letters and digits, folded to lower case
/// without diacritics), with the order, limits, index filters and excerpts every engine shares.
struct SearchEngineTests {
    static let vocabulary = [
        "swift", "swiftly", "sqlite", "server", "serve", "cache", "Café", "naïve", "résumé", "index", "query",
        "merge", "Zürich", "zero", "42", "über",
    ]
    static let separators = [" ", ", ", "; ", " - ", "\n", "! ", " (", ") "]

    /// Runs `body` with a fresh place of `engine` that keeps the suite's search and index.
    func withPlace(_ engine: TestEngine, _ body: (any AsyncDatabaseWriter) async throws -> Void) async throws {
        let extensions = [
            docSearch.databaseExtension, docsByShelf.databaseExtension, stemmedSearch.databaseExtension,
        ]
        switch engine {
        case .sqlite:
            try await body(try Database.temporary(extensions: extensions))
        case .postgres:
            try await TestServer.withStore(extensions: extensions) { try await body($0) }
        }
    }

    /// The tokens of `text` as the naive model sees them.
    static func tokens(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map {
            $0.lowercased().folding(options: .diacriticInsensitive, locale: nil)
        }
    }

    static func randomText(_ random: inout SeededGenerator, words: ClosedRange<Int>) -> String {
        var text = ""
        for position in 0..<Int.random(in: words, using: &random) {
            if position > 0 { text += separators.randomElement(using: &random)! }
            text += vocabulary.randomElement(using: &random)!
        }
        return text
    }

    static func randomDoc(_ id: Int, _ random: inout SeededGenerator) -> SearchDoc {
        SearchDoc(
            id: String(format: "d%03d", id), title: randomText(&random, words: 1...3),
            body: Int.random(in: 0..<5, using: &random) == 0 ? nil : randomText(&random, words: 0...12),
            shelf: Int.random(in: 0..<3, using: &random))
    }

    /// A word as a user might type it: a vocabulary word, maybe shortened (as typed so far), in
    /// upper case, or without its accents.
    static func typedWord(_ random: inout SeededGenerator, shorten: Bool) -> String {
        var word = vocabulary.randomElement(using: &random)!
        if shorten, word.count > 2, Bool.random(using: &random) {
            word = String(word.prefix(Int.random(in: 2..<word.count, using: &random)))
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return word.uppercased()
        case 1: return word.folding(options: .diacriticInsensitive, locale: nil)
        default: return word
        }
    }

    /// What a query finds in the naive model.
    enum ModelQuery {
        case prefixes([String]), allWords([String]), phrase([String])

        func matches(_ doc: SearchDoc) -> Bool {
            let columns = [tokens(doc.title), tokens(doc.body)]
            let all = columns.flatMap { $0 }
            switch self {
            case .prefixes(let words):
                return words.allSatisfy { word in all.contains { $0.hasPrefix(word) } }
            case .allWords(let words):
                return words.allSatisfy(all.contains)
            case .phrase(let words):
                return columns.contains { column in
                    column.count >= words.count
                        && (0...(column.count - words.count)).contains { Array(column[$0..<$0 + words.count]) == words }
                }
            }
        }
    }

    @Test(arguments: TestEngine.available, 0..<20)
    func searchesMatchANaiveWordMatch(_ engine: TestEngine, seed: Int) async throws {
        try await withPlace(engine) { db in try await searches(db, label: "\(engine.rawValue), seed \(seed)", seed: seed) }
    }

    func searches(_ db: some AsyncDatabaseWriter, label: String, seed: Int) async throws {
        var random = SeededGenerator(seed: UInt64(seed) &+ 11)
        var docs: [String: SearchDoc] = [:]
        for id in 0..<40 {
            let doc = Self.randomDoc(id, &random)
            docs[doc.id] = doc
        }
        try await db.write(Array(docs.values))
        for round in 0..<3 {
            // Rewrites and removals between rounds: the search follows them.
            if round > 0 {
                try await db.write { tx in
                    for key in docs.keys.sorted().shuffled(using: &random).prefix(6) {
                        var doc = Self.randomDoc(0, &random)
                        doc.id = key
                        docs[key] = doc
                        try await tx.write(doc)
                    }
                }
                for key in docs.keys.sorted().shuffled(using: &random).prefix(3) {
                    _ = try await db.remove(SearchDoc.self, key: key)
                    docs[key] = nil
                }
            }
            for step in 0..<12 {
                let where_ = "\(label), round \(round), query \(step)"
                let words = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                    Self.typedWord(&random, shorten: true)
                }
                let query: SearchQuery
                let model: ModelQuery
                switch step % 3 {
                case 0:
                    query = .prefixes(of: words.joined(separator: " "))
                    model = .prefixes(words.flatMap(Self.tokens))
                case 1:
                    let whole = words.map { _ in Self.typedWord(&random, shorten: false) }
                    query = .allWords(of: whole.joined(separator: "  "))
                    model = .allWords(whole.flatMap(Self.tokens))
                default:
                    // A phrase taken from a document half of the time, so that some match.
                    let source = docs.values.sorted { $0.id < $1.id }.randomElement(using: &random)
                    let sourceTokens = Self.tokens(source?.body)
                    let phraseWords: [String]
                    if Bool.random(using: &random), sourceTokens.count >= 2 {
                        let start = Int.random(in: 0..<(sourceTokens.count - 1), using: &random)
                        phraseWords = Array(sourceTokens[start...start + 1])
                    } else {
                        phraseWords = words.map { _ in Self.typedWord(&random, shorten: false) }
                    }
                    query = .phrase(phraseWords.joined(separator: ", "))
                    model = .phrase(phraseWords.flatMap(Self.tokens))
                }
                let expected = Set(docs.values.filter(model.matches).map(\.id))
                let search = docSearch.query(for: query)
                let hits = try await search.hits(in: db)
                #expect(Set(hits.map(\.key)) == expected, "\(where_): \(query)")
                #expect(hits.count == expected.count, "\(where_): each hit once")
                #expect(try await search.count(in: db) == expected.count, "\(where_)")
                #expect(try await search.keys(in: db) == hits.map(\.key), "\(where_): keys in the order of hits")
                #expect(try await search.items(in: db) == hits.map(\.item), "\(where_)")
                // Best first, then by key.
                for (a, b) in zip(hits, hits.dropFirst()) {
                    #expect(a.score < b.score || (a.score == b.score && a.key < b.key), "\(where_): order")
                }
                let page = try await search.limit(3, offset: 1).hits(in: db)
                #expect(page.map(\.key) == Array(hits.map(\.key).dropFirst(1).prefix(3)), "\(where_): limit")
                #expect(try await search.limit(3, offset: 1).count(in: db) == page.count, "\(where_)")
                // Narrowed by the index.
                let shelf = Int.random(in: 0..<3, using: &random)
                let narrowed = try await search.filter(docsByShelf, .column("shelf", equals: shelf)).keys(in: db)
                #expect(narrowed == hits.map(\.key).filter { docs[$0]?.shelf == shelf }, "\(where_): shelf \(shelf)")
            }
        }
    }

    /// Input that is not words (quotes, operators of either engine's syntax, NUL, backslashes,
    /// accents alone) is never a syntax error: each builder's query runs and finds what the naive
    /// model finds for its words.
    @Test(arguments: TestEngine.available)
    func anythingTypedIsNeverASyntaxError(_ engine: TestEngine) async throws {
        try await withPlace(engine) { db in
            try await db.write([
                SearchDoc(id: "a", title: "swift's cache", body: "it's a server\\side (café) & more", shelf: 0),
                SearchDoc(id: "b", title: "Zürich 42", body: "NOT OR AND NEAR merge", shelf: 1),
            ])
            let inputs = [
                #"swi "x"#, "\"", "'", "''", "\\", "\\'", "a\0b", "-", "*", "(", ")", "&", "|", "!", "<->", ":*",
                "NOT", "OR", "AND", "NEAR(", "^swift", "title:", "{title}:", "caf\u{301}", "e\u{301}", "'; DROP TABLE x; --",
                "\u{E000}", "💥", "   ", "",
            ]
            var random = SeededGenerator(seed: 5)
            for round in 0..<60 {
                let input =
                    round < inputs.count
                    ? inputs[round] : (0..<3).map { _ in inputs.randomElement(using: &random)! }.joined()
                for query in [SearchQuery.prefixes(of: input), .allWords(of: input), .phrase(input)] {
                    do {
                        _ = try await docSearch.query(for: query).snippets(of: "body").hits(in: db)
                        _ = try await docSearch.query(for: query).count(in: db)
                    } catch {
                        Issue.record("\(engine.rawValue): \(query) for input \(input.debugDescription): \(error)")
                    }
                }
            }
            // Words with punctuation around them are still found.
            #expect(try await docSearch.query(for: .prefixes(of: "(caf\" 'ser")).keys(in: db) == ["a"])
            #expect(try await docSearch.query(for: .allWords(of: "NOT merge")).keys(in: db) == ["b"])
            #expect(try await docSearch.query(for: .prefixes(of: "zurich")).keys(in: db) == ["b"])
        }
    }

    /// The title weighs five times the body: one match in the title ranks above one in the body,
    /// on either engine.
    @Test(arguments: TestEngine.available)
    func weightsRankTheTitleFirst(_ engine: TestEngine) async throws {
        try await withPlace(engine) { db in
            try await db.write([
                SearchDoc(id: "in-body", title: "notes", body: "the cache of the server", shelf: 0),
                SearchDoc(id: "in-title", title: "cache", body: "notes of the server", shelf: 0),
                SearchDoc(id: "none", title: "notes", body: "nothing here", shelf: 0),
            ])
            let hits = try await docSearch.query(for: .allWords(of: "cache")).hits(in: db)
            #expect(hits.map(\.key) == ["in-title", "in-body"])
        }
    }

    /// Snippets and highlights mark each match with the texts asked for, cut long texts with
    /// the ellipsis, and are `nil` for a column without text.
    @Test(arguments: TestEngine.available)
    func excerptsMarkTheMatches(_ engine: TestEngine) async throws {
        try await withPlace(engine) { db in
            let long = (0..<40).map { $0 == 20 ? "merge" : "word\($0)" }.joined(separator: " ")
            try await db.write([
                SearchDoc(id: "long", title: "merge notes", body: long, shelf: 0),
                SearchDoc(id: "short", title: "short", body: "swift merge", shelf: 0),
                SearchDoc(id: "empty", title: "merge", body: nil, shelf: 0),
            ])
            let search = docSearch.query(for: .prefixes(of: "mer"))
            let snippets = try await search.snippets(of: "body", before: "[", after: "]", ellipsis: "...", tokens: 6)
                .hits(in: db)
            let byKey = Dictionary(uniqueKeysWithValues: snippets.map { ($0.key, $0.snippet) })
            let longSnippet = try #require(byKey["long"] ?? nil)
            #expect(longSnippet.contains("[merge]"), "\(longSnippet)")
            #expect(longSnippet.hasPrefix("...") && longSnippet.hasSuffix("..."), "\(longSnippet)")
            #expect(longSnippet.split(separator: " ").count <= 7, "\(longSnippet)")
            #expect(byKey["short"] == "swift [merge]")
            #expect(byKey["empty"] == .some(nil))
            let highlights = try await search.highlights(of: "title", before: "<", after: ">").hits(in: db)
            #expect(Dictionary(uniqueKeysWithValues: highlights.map { ($0.key, $0.snippet) })["long"] == "<merge> notes")
            let error = await #expect(throws: TroveError.self) {
                _ = try await search.snippets(of: "summary").hits(in: db)
            }
            #expect(error?.code == .extensionFailed && error?.message.contains("no column 'summary'") == true)
        }
    }

    /// The porter tokenizer stems items and queries alike.
    @Test(arguments: TestEngine.available)
    func theStemmerFindsOtherFormsOfAWord(_ engine: TestEngine) async throws {
        try await withPlace(engine) { db in
            try await db.write([
                SearchDoc(id: "a", title: "Running servers", body: nil, shelf: 0),
                SearchDoc(id: "b", title: "a runner", body: "cached", shelf: 0),
            ])
            #expect(try await stemmedSearch.query(for: .allWords(of: "runs server")).keys(in: db) == ["a"])
            #expect(try await stemmedSearch.query(for: .allWords(of: "caching")).keys(in: db) == ["b"])
        }
    }
}
