import CSQLiteBenchmark
import Foundation
import GRDB
import Trove

/// The search results view benchmark (issue 31): the hits of a full-text search kept as a list
/// on screen, Trove's `SearchResultsView` against raw SQLite and GRDB, which re-run the search
/// and diff by hand (what an app does without such a view). The documents are the search
/// suite's (``SearchCorpus``), 10,000 of them (300 in a smoke run).
///
/// - **Kept across commits**: the list of the documents that hold one word of middle rank,
///   sorted by key, with a snippet of the body for each row. Then 1,000 single-document commits
///   (50 in a smoke run), in turn: a document gets the word (it enters the list), a document
///   that got it has its title changed (it stays, updated), a document that got it loses it (it
///   leaves). Trove: the write; the view follows it in the commit, its row changes in the
///   changeset (counted by a commit observer). Raw SQLite and GRDB: the write, then the search
///   again (the keys of every hit, in key order), a `CollectionDifference` with the list held,
///   and a snippet for each row that entered and for the written document when it stays. The
///   time per commit includes all of it.
/// - **Search as you type**: 20 queries, the prefixes (``SearchQuery/prefixes(of:)``) of a
///   phrase of three words typed one letter at a time, from its third letter on, all issued at
///   once: Trove enqueues the 20 on a `SearchQueue`, each superseding the one before, and a
///   searcher runs the newest into the view; raw SQLite and GRDB run all 20 in turn (every hit,
///   in key order, with its snippet). Timed until the list holds the 20th query's results.
/// - **Correctness**: after the commits, the three lists are the same keys, and every engine
///   saw as many rows enter and leave; after the burst, the three lists are the same keys.
struct SearchViewSuite {
    let options: Options
    let corpus: SearchCorpus

    /// The implementations, in table order.
    enum Engine: String, CaseIterable {
        case trove = "Trove + search results view"
        case raw = "raw SQLite, search again + diff"
        case grdb = "GRDB, search again + diff"
    }

    /// Per commit, each run: (CPU, elapsed) seconds.
    private(set) var commits: [Engine: (cpu: Samples, wall: Samples)] = [:]
    /// Per burst of 20 queries, each run: (CPU, elapsed) seconds.
    private(set) var bursts: [Engine: (cpu: Samples, wall: Samples)] = [:]
    /// The rows of the list after the first query, and how many entered and left over the commits.
    private(set) var listCounts: [Engine: (initial: Int, inserted: Int, removed: Int, final: Int)] = [:]
    /// The queries of the burst that Trove finished, each run (the others were superseded).
    private(set) var troveQueriesFinished: [Int] = []
    private(set) var burstHits: [Engine: Int] = [:]

    init(options: Options) {
        self.options = options
        corpus = SearchCorpus(count: options.isSmoke ? 300 : 10_000)
    }

    var commitCount: Int { options.isSmoke ? 50 : 1_000 }

    /// The word of the kept list: the first of middle rank (400 and after) without a diacritic,
    /// so that a plain comparison of the words of a text says whether FTS5 matches it.
    var word: String {
        corpus.vocabulary[400...].first { $0.unicodeScalars.allSatisfy(\.isASCII) }!
    }

    /// The 20 queries of the burst.
    var burst: [SearchQuery] {
        let phrase = [corpus.vocabulary[120], corpus.vocabulary[260], corpus.vocabulary[90]].joined(separator: " ")
        return (0..<20).map { .prefixes(of: String(phrase.prefix(3 + $0))) }
    }

    /// The documents of the commits, in order: enter, update, leave, over and over.
    func writes() -> [Document] {
        func words(_ text: String) -> Set<String> {
            Set(text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init))
        }
        var outside = corpus.documents.filter { !words($0.title).contains(word) && !words($0.body).contains(word) }
        var random = SplitMix64(seed: 0x5356_4945)
        outside.shuffle(using: &random)
        var writes: [Document] = []
        var entered: [Document] = []
        for index in 0..<commitCount {
            switch index % 3 {
            case 0:
                var document = outside.removeLast()
                entered.append(document)
                document.body += " " + word
                writes.append(document)
            case 1:
                var document = entered[entered.count - 1]
                document.body += " " + word
                document.title += " revised"
                writes.append(document)
            default:
                // The document as it was: without the word.
                writes.append(entered.removeFirst())
            }
        }
        return writes
    }

    mutating func run() throws {
        let writes = self.writes()
        let burst = self.burst
        for run in 0..<options.runs {
            for engine in Engine.allCases.rotated(by: run)
            where (!options.isProfiling && !options.isEncryptedPass) || engine == .trove {
                log("run \(run + 1)/\(options.runs): search results view, \(engine.rawValue)")
                let directory = try makeDirectory(in: options.directory, prefix: "search-view")
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let store: any SearchViewStore =
                    switch engine {
                    case .trove: try TroveSearchViewStore(directory: directory, key: options.troveKey)
                    case .raw: try RawSearchViewStore(directory: directory)
                    case .grdb: try GRDBSearchViewStore(directory: directory)
                    }
                var offset = 0
                while offset < corpus.documents.count {
                    let end = min(offset + SearchSuite.batchSize, corpus.documents.count)
                    try store.insert(corpus.documents[offset..<end])
                    offset = end
                }
                let initial = try store.show(.allWords(of: word))
                var inserted = 0
                var removed = 0
                let start = Stopwatch()
                for document in writes {
                    let changes = try store.commit(document)
                    inserted += changes.inserted
                    removed += changes.removed
                }
                let elapsed = start.elapsed()
                commits[engine, default: (Samples(), Samples())].cpu.append(elapsed.cpu / Double(writes.count))
                commits[engine, default: (Samples(), Samples())].wall.append(elapsed.wall / Double(writes.count))
                let final = try store.keys()
                listCounts[engine] = (initial, inserted, removed, final.count)
                try check(final, engine: engine, initial: initial, inserted: inserted, removed: removed)

                let burstStart = Stopwatch()
                let finished = try store.searchAsYouType(burst)
                let burstElapsed = burstStart.elapsed()
                bursts[engine, default: (Samples(), Samples())].cpu.append(burstElapsed.cpu)
                bursts[engine, default: (Samples(), Samples())].wall.append(burstElapsed.wall)
                if engine == .trove { troveQueriesFinished.append(finished) }
                let hits = try store.keys()
                try checkBurst(hits, engine: engine)
            }
        }
    }

    private var expectedKeys: [Engine: [String]] = [:]

    /// Every engine ends with the same list, and saw the same rows enter and leave.
    private mutating func check(_ keys: [String], engine: Engine, initial: Int, inserted: Int, removed: Int) throws {
        guard initial + inserted - removed == keys.count else {
            throw BenchmarkError(
                "search view: \(engine.rawValue) started with \(initial) rows, \(inserted) entered, \(removed) left, but holds \(keys.count)")
        }
        if let other = expectedKeys.first(where: { $0.key != engine }), other.value != keys {
            throw BenchmarkError("search view: \(engine.rawValue) and \(other.key.rawValue) disagree on the kept list")
        }
        expectedKeys[engine] = keys
    }

    private var expectedBurst: [String]?

    private mutating func checkBurst(_ keys: [String], engine: Engine) throws {
        guard !keys.isEmpty else { throw BenchmarkError("search view: the last query of the burst found nothing") }
        if let expectedBurst, expectedBurst != keys {
            throw BenchmarkError("search view: \(engine.rawValue) disagrees on the results of the burst's last query")
        }
        expectedBurst = keys
        burstHits[engine] = keys.count
    }

    /// Trove's workloads and their medians by the run's clock, for the table of the encrypted
    /// pass (issue 34).
    func troveMedians() -> [(workload: String, seconds: Double)] {
        func median(_ timing: (cpu: Samples, wall: Samples)?) -> Double {
            guard let timing else { return .nan }
            return options.clock == .cpu ? timing.cpu.median : timing.wall.median
        }
        return [
            ("search results view: one commit, with the list's row changes", median(commits[.trove])),
            ("search results view: a burst of 20 prefix queries", median(bursts[.trove])),
        ]
    }

    func table() -> [String] {
        let runs = options.runsPhrase
        var lines = ["", "## Search results view (issue 31)", ""]
        let counts = listCounts[.trove] ?? listCounts.values.first ?? (0, 0, 0, 0)
        lines.append(
            "\(Workload.format(corpus.documents.count)) documents; a list of the \(Workload.format(counts.initial)) that hold "
                + "one word, sorted by key, with snippets; \(Workload.format(commitCount)) single-document commits "
                + "(\(counts.inserted) enter, \(counts.removed) leave, the others are updated in place). Time per commit "
                + "(write, commit, and the list's row changes), median of \(runs); ratio: lower is faster.")
        lines.append("")
        lines += Self.timeTable("Per commit", commits) { $0.rawValue }
        lines.append("")
        let finished = troveQueriesFinished.map(String.init).joined(separator: ", ")
        lines.append(
            "Search as you type: 20 prefix queries issued at once (the last one finds \(Workload.format(burstHits[.trove] ?? 0)) "
                + "documents), timed until the list shows the last one's results, median of \(runs). Trove's queue "
                + "finished \(finished.isEmpty ? "–" : finished) of the 20 (the others were superseded); raw SQLite and GRDB run "
                + "all 20, every hit with its snippet.")
        lines.append("")
        let burstNames: [Engine: String] = [
            .trove: "Trove, SearchQueue into the view", .raw: "raw SQLite, all 20", .grdb: "GRDB, all 20",
        ]
        lines += Self.timeTable("Burst of 20", bursts) { burstNames[$0]! }
        return lines
    }

    /// A table of the median CPU and elapsed times of each engine, with the CPU ratios to raw
    /// SQLite's and GRDB's; `name` labels each engine's row.
    private static func timeTable(
        _ title: String, _ timings: [Engine: (cpu: Samples, wall: Samples)], name: (Engine) -> String
    ) -> [String] {
        var lines = ["| \(title) | CPU | Elapsed | CPU / raw | CPU / GRDB |", "|---|---:|---:|---:|---:|"]
        let raw = timings[.raw]?.cpu.median ?? .nan
        let grdb = timings[.grdb]?.cpu.median ?? .nan
        for engine in Engine.allCases {
            let cpu = timings[engine]?.cpu.median ?? .nan
            let wall = timings[engine]?.wall.median ?? .nan
            lines.append(
                "| \(name(engine)) | \(formatDuration(cpu)) | \(formatDuration(wall)) | \(formatRatio(cpu / raw)) | \(formatRatio(cpu / grdb)) |")
        }
        return lines
    }
}

/// A list of search hits kept up to date, as each engine does it.
protocol SearchViewStore {
    /// Writes `documents` in one write transaction.
    func insert(_ documents: ArraySlice<Document>) throws
    /// Shows the hits of `query`: returns their number.
    func show(_ query: SearchQuery) throws -> Int
    /// Writes `document` in a transaction of its own and brings the list up to date: returns how
    /// many rows entered and left it.
    func commit(_ document: Document) throws -> (inserted: Int, removed: Int)
    /// Issues `queries` at once, each superseding the one before, and returns when the list
    /// shows the last one's hits: returns how many of them were run to the end.
    func searchAsYouType(_ queries: [SearchQuery]) throws -> Int
    /// The keys of the list, in order.
    func keys() throws -> [String]
}

/// What raw SQLite and GRDB hold of the list: its keys and their snippets, and the query.
final class HandKeptList {
    var match = ""
    var keys: [String] = []
    var snippets: [String: String] = [:]

    /// Replaces the keys by `newKeys`; returns the keys that entered and how many left.
    func update(to newKeys: [String]) -> (entered: [String], removed: Int) {
        let difference = newKeys.difference(from: keys).inferringMoves()
        var entered: [String] = []
        var removed = 0
        for change in difference {
            switch change {
            case .insert(_, let key, let associated) where associated == nil: entered.append(key)
            case .remove(_, let key, let associated) where associated == nil:
                removed += 1
                snippets[key] = nil
            default: break
            }
        }
        keys = newKeys
        return (entered, removed)
    }
}

/// Raw SQLite through the C API: the search suite's store (documents, and an FTS5 table of the
/// same row ids written in the same transaction), and statements of its own on its connection,
/// each prepared once.
final class RawSearchViewStore: SearchViewStore {
    private let base: RawSearchStore
    private var sqlite: RawSQLite { base.sqlite }
    private let selectRowID: RawStatement
    private let updateDocument: RawStatement
    private let deleteText: RawStatement
    private let insertText: RawStatement
    private let hits: RawStatement
    private let hitsWithSnippets: RawStatement
    private let snippet: RawStatement
    private let begin: RawStatement
    private let beginRead: RawStatement
    private let commitStatement: RawStatement
    private let list = HandKeptList()

    init(directory: String) throws {
        base = try RawSearchStore(directory: directory)
        let sqlite = base.sqlite
        selectRowID = try sqlite.prepare("SELECT rowid FROM documents WHERE id = ?1")
        updateDocument = try sqlite.prepare("UPDATE documents SET title = ?2, body = ?3 WHERE rowid = ?1")
        deleteText = try sqlite.prepare("DELETE FROM documents_fts WHERE rowid = ?1")
        insertText = try sqlite.prepare("INSERT INTO documents_fts (rowid, title, body) VALUES (?1, ?2, ?3)")
        hits = try sqlite.prepare(
            "SELECT d.id FROM documents_fts JOIN documents AS d ON d.rowid = documents_fts.rowid "
                + "WHERE documents_fts MATCH ?1 ORDER BY d.id")
        hitsWithSnippets = try sqlite.prepare(
            "SELECT d.id, snippet(documents_fts, 1, '<b>', '</b>', '…', 16) FROM documents_fts "
                + "JOIN documents AS d ON d.rowid = documents_fts.rowid WHERE documents_fts MATCH ?1 ORDER BY d.id")
        snippet = try sqlite.prepare(
            "SELECT snippet(documents_fts, 1, '<b>', '</b>', '…', 16) FROM documents_fts "
                + "JOIN documents AS d ON d.rowid = documents_fts.rowid WHERE documents_fts MATCH ?1 AND d.id = ?2")
        begin = try sqlite.prepare("BEGIN IMMEDIATE")
        beginRead = try sqlite.prepare("BEGIN DEFERRED")
        commitStatement = try sqlite.prepare("COMMIT")
    }

    private func inTransaction<T>(_ begin: RawStatement, _ body: () throws -> T) throws -> T {
        try begin.run()
        do {
            let result = try body()
            try commitStatement.run()
            return result
        } catch {
            try? sqlite.execute("ROLLBACK")
            throw error
        }
    }

    func insert(_ documents: ArraySlice<Document>) throws {
        try base.insert(documents)
    }

    func show(_ query: SearchQuery) throws -> Int {
        list.match = query.expression ?? ""
        let (keys, snippets) = try inTransaction(beginRead) { try allHits(list.match) }
        list.keys = keys
        list.snippets = Dictionary(uniqueKeysWithValues: zip(keys, snippets))
        return keys.count
    }

    private func allHits(_ match: String) throws -> ([String], [String]) {
        try match.withUTF8Buffer { match in
            hitsWithSnippets.bindText(match, at: 1)
            defer { hitsWithSnippets.reset() }
            var keys: [String] = []
            var snippets: [String] = []
            while try hitsWithSnippets.step() {
                keys.append(hitsWithSnippets.text(at: 0))
                snippets.append(hitsWithSnippets.text(at: 1))
            }
            return (keys, snippets)
        }
    }

    func commit(_ document: Document) throws -> (inserted: Int, removed: Int) {
        try inTransaction(begin) {
            try document.id.withUTF8Buffer { id in
                try document.title.withUTF8Buffer { title in
                    try document.body.withUTF8Buffer { body in
                        selectRowID.bindText(id, at: 1)
                        guard try selectRowID.step() else { throw BenchmarkError("search view: no document \(document.id)") }
                        let rowID = selectRowID.int64(at: 0)
                        selectRowID.reset()
                        updateDocument.bindInt64(rowID, at: 1)
                        updateDocument.bindText(title, at: 2)
                        updateDocument.bindText(body, at: 3)
                        try updateDocument.run()
                        deleteText.bindInt64(rowID, at: 1)
                        try deleteText.run()
                        insertText.bindInt64(rowID, at: 1)
                        insertText.bindText(title, at: 2)
                        insertText.bindText(body, at: 3)
                        try insertText.run()
                    }
                }
            }
        }
        return try inTransaction(beginRead) {
            let keys = try list.match.withUTF8Buffer { match in
                hits.bindText(match, at: 1)
                defer { hits.reset() }
                var keys: [String] = []
                while try hits.step() { keys.append(hits.text(at: 0)) }
                return keys
            }
            let (entered, removed) = list.update(to: keys)
            var stale = entered
            if list.snippets[document.id] != nil { stale.append(document.id) }
            for key in stale {
                list.snippets[key] = try list.match.withUTF8Buffer { match in
                    try key.withUTF8Buffer { key in
                        snippet.bindText(match, at: 1)
                        snippet.bindText(key, at: 2)
                        defer { snippet.reset() }
                        return try snippet.step() ? snippet.text(at: 0) : ""
                    }
                }
            }
            return (entered.count, removed)
        }
    }

    func searchAsYouType(_ queries: [SearchQuery]) throws -> Int {
        for query in queries { _ = try show(query) }
        return queries.count
    }

    func keys() throws -> [String] { list.keys }
}

/// GRDB 7.10: the search suite's record and FTS5 table, written in the same transaction; the
/// search again and the snippets are raw SQL in `pool.read`.
final class GRDBSearchViewStore: SearchViewStore {
    private let base: GRDBSearchStore
    private var pool: DatabasePool { base.pool }
    private let list = HandKeptList()

    init(directory: String) throws {
        base = try GRDBSearchStore(directory: directory)
    }

    func insert(_ documents: ArraySlice<Document>) throws {
        try base.insert(documents)
    }

    func show(_ query: SearchQuery) throws -> Int {
        list.match = query.expression ?? ""
        let match = list.match
        let rows = try pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT d.id, snippet(document_ft, 1, '<b>', '</b>', '…', 16) FROM document_ft "
                    + "JOIN document AS d ON d.rowid = document_ft.rowid WHERE document_ft MATCH ? ORDER BY d.id",
                arguments: [try FTS5Pattern(rawPattern: match)])
        }
        list.keys = rows.map { $0[0] }
        list.snippets = Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
        return list.keys.count
    }

    func commit(_ document: Document) throws -> (inserted: Int, removed: Int) {
        try pool.write { db in
            // The table's primary key is its row id (the key is a unique column), as in the search suite.
            let rowID = try Int64.fetchOne(db, sql: "SELECT rowid FROM document WHERE id = ?", arguments: [document.id])
            try db.execute(
                sql: "UPDATE document SET title = ?, body = ? WHERE rowid = ?",
                arguments: [document.title, document.body, rowID])
            try db.execute(sql: "DELETE FROM document_ft WHERE rowid = ?", arguments: [rowID])
            try db.execute(
                sql: "INSERT INTO document_ft (rowid, title, body) VALUES (?, ?, ?)",
                arguments: [rowID, document.title, document.body])
        }
        let match = list.match
        let list = self.list
        return try pool.read { db in
            let pattern = try FTS5Pattern(rawPattern: match)
            let keys = try String.fetchAll(
                db,
                sql: "SELECT d.id FROM document_ft JOIN document AS d ON d.rowid = document_ft.rowid "
                    + "WHERE document_ft MATCH ? ORDER BY d.id",
                arguments: [pattern])
            let (entered, removed) = list.update(to: keys)
            var stale = entered
            if list.snippets[document.id] != nil { stale.append(document.id) }
            for key in stale {
                list.snippets[key] = try String.fetchOne(
                    db,
                    sql: "SELECT snippet(document_ft, 1, '<b>', '</b>', '…', 16) FROM document_ft "
                        + "JOIN document AS d ON d.rowid = document_ft.rowid WHERE document_ft MATCH ? AND d.id = ?",
                    arguments: [pattern, key]) ?? ""
            }
            return (entered.count, removed)
        }
    }

    func searchAsYouType(_ queries: [SearchQuery]) throws -> Int {
        for query in queries { _ = try show(query) }
        return queries.count
    }

    func keys() throws -> [String] { list.keys }
}
