import CSQLiteBenchmark
import Foundation
import GRDB
import Trove

/// The full-text search benchmark (issue 14): Trove's generated `Document.search` against raw
/// SQLite through the C API and GRDB 7.10, on the same documents (``SearchCorpus``), the same
/// FTS5 tokenizer (`unicode61 remove_diacritics 2`) and the same SQL shape.
///
/// - **Indexing**: every document written in write transactions of 1,000, the search
///   registered. Trove: `tx.write(documents)`, its FTS5 table filled by the extension. Raw and
///   GRDB: a table of documents (key, title, body) and a plain FTS5 table (title, body), not
///   external content, not synchronized by triggers, written in the same transaction with the
///   row id of the document, as Trove does. One sample per run.
/// - **Queries**: a one-word query (`allWords`), a prefix query (`prefixes`) and a two-word
///   phrase (`phrase`), each the top 20 by `bm25(t, 10, 1)` with a `snippet()` of the body and
///   the document decoded: `MATCH`, `ORDER BY bm25 …, key LIMIT 20`, joined to the document's
///   row. Raw and GRDB match the expression Trove's ``SearchQuery`` makes, so all three search
///   the same thing. Every query is timed alone; median and p90 of all of them.
struct SearchSuite {
    let options: Options
    let corpus: SearchCorpus

    /// The implementations of the suite, in table order.
    enum Engine: String, CaseIterable {
        case trove = "Trove"
        case raw = "raw SQLite"
        case grdb = "GRDB"
    }

    /// The query kinds, in table order.
    enum Kind: String, CaseIterable {
        case word = "one word"
        case prefix = "prefix"
        case phrase = "phrase"
    }

    static let batchSize = 1_000
    static let limit = 20

    /// Indexing time per engine, one sample per run (in the chosen clock).
    private(set) var indexing: [Engine: Samples] = [:]
    /// Every query latency per engine and kind, elapsed seconds.
    private(set) var latencies: [Engine: [Kind: [Double]]] = [:]
    /// Every query's CPU time per engine and kind, seconds.
    private(set) var cpuTimes: [Engine: [Kind: [Double]]] = [:]
    /// Hits of the first query of each kind, per engine: the three must agree.
    private(set) var hitCounts: [Engine: [Kind: Int]] = [:]
    /// Peak memory of the indexing, and the size on disk after it, per engine (issue 29).
    private(set) var indexingFootprints: [Engine: Footprint] = [:]
    /// Peak memory of the queries of each kind, per engine (issue 29).
    private(set) var queryFootprints: [Engine: [Kind: Footprint]] = [:]

    init(options: Options) {
        self.options = options
        log("making \(Workload.format(options.isSmoke ? 300 : options.count)) documents")
        corpus = SearchCorpus(count: options.isSmoke ? 300 : options.count)
    }

    /// Query repetitions per kind and run.
    var repetitions: Int { options.isSmoke ? 5 : 100 }

    /// The queries of each kind: words of middle rank, each in a few percent of the documents
    /// (a realistic number of rows to rank, not all or none), prefixes of three letters of such
    /// words, and phrases of two frequent words, each pair in a few percent of the documents.
    var queries: [Kind: [SearchQuery]] {
        let words = corpus.vocabulary
        return [
            .word: (0..<10).map { .allWords(of: words[300 + $0 * 50]) },
            .prefix: (0..<10).map { .prefixes(of: String(words[200 + $0 * 20].prefix(3))) },
            .phrase: (0..<10).map { .phrase(words[10 + $0] + " " + words[11 + $0]) },
        ]
    }

    mutating func run() throws {
        for run in 0..<options.runs {
            // When profiling (Scripts/instructions.sh), Trove's side alone.
            for engine in Engine.allCases.rotated(by: run)
            where (!options.isProfiling && !options.isEncryptedPass) || engine == .trove {
                log("run \(run + 1)/\(options.runs): search, \(engine.rawValue)")
                let directory = try makeDirectory(in: options.directory, prefix: "search")
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let store: any SearchStore =
                    switch engine {
                    case .trove: try TroveSearchStore(directory: directory, key: options.troveKey)
                    case .raw: try RawSearchStore(directory: directory)
                    case .grdb: try GRDBSearchStore(directory: directory)
                    }
                let meter = options.peakMeter()
                let start = Stopwatch()
                try options.profiled(.searchIndex, operations: corpus.documents.count) {
                    var offset = 0
                    while offset < corpus.documents.count {
                        let end = min(offset + Self.batchSize, corpus.documents.count)
                        try store.insert(corpus.documents[offset..<end])
                        offset = end
                    }
                }
                let elapsed = start.elapsed()
                indexing[engine, default: Samples()].append(options.clock == .cpu ? elapsed.cpu : elapsed.wall)
                indexingFootprints[engine, default: Footprint()]
                    .append(meter?.stop(), try options.diskSize(of: directory))
                try measureQueries(store, engine: engine)
            }
        }
        try checkAgreement()
    }

    private mutating func measureQueries(_ store: any SearchStore, engine: Engine) throws {
        let queries = self.queries
        let options = self.options
        for kind in Kind.allCases {
            let list = queries[kind]!
            var checksum = 0
            let profiled: [Kind: SuiteWorkload] = [.word: .searchWord, .prefix: .searchPrefix, .phrase: .searchPhrase]
            let meter = options.peakMeter()
            try options.profiled(profiled[kind]!, operations: repetitions) {
                for repetition in 0..<repetitions {
                    let query = list[repetition % list.count]
                    let start = Stopwatch()
                    let hits = try store.search(query.expression ?? "", limit: Self.limit)
                    let elapsed = start.elapsed()
                    latencies[engine, default: [:]][kind, default: []].append(elapsed.wall)
                    cpuTimes[engine, default: [:]][kind, default: []].append(elapsed.cpu)
                    if repetition == 0 {
                        hitCounts[engine, default: [:]][kind] = hits.count
                        guard !hits.isEmpty else {
                            throw BenchmarkError("search: \(engine.rawValue) found nothing for \(query)")
                        }
                    }
                    checksum &+= hits.count
                }
            }
            queryFootprints[engine, default: [:]][kind, default: Footprint()].append(meter?.stop())
            _ = checksum
        }
    }

    /// The three engines found as many hits for the first query of each kind (at most 20).
    private func checkAgreement() throws {
        for kind in Kind.allCases {
            let counts = Set(Engine.allCases.compactMap { hitCounts[$0]?[kind] })
            guard counts.count <= 1 else {
                throw BenchmarkError("search: the engines disagree on the hits of the \(kind.rawValue) query: \(hitCounts)")
            }
        }
    }

    /// The value at the fraction `p` of the sorted latencies.
    private static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
    }

    /// Trove's workloads and their medians by the run's clock, for the table of the encrypted
    /// pass (issue 34).
    func troveMedians() -> [(workload: String, seconds: Double)] {
        var rows = [("search: index \(Workload.format(corpus.documents.count)) documents", indexing[.trove]?.median ?? .nan)]
        for kind in Kind.allCases {
            let times = (options.clock == .cpu ? cpuTimes : latencies)[.trove]?[kind] ?? []
            rows.append(("search: one \(kind.rawValue) query, top \(Self.limit) with a snippet", Self.percentile(times, 0.5)))
        }
        return rows
    }

    func table() -> [String] {
        var lines: [String] = []
        let runs = options.runsPhrase
        lines.append("")
        lines.append("## Full-text search (issue 14)")
        lines.append("")
        lines.append(
            "\(Workload.format(corpus.documents.count)) documents (a title of 4-8 words, a body of 150-350 words, "
                + "Zipf over \(Workload.format(SearchCorpus.vocabularySize)) words), FTS5 `unicode61 remove_diacritics 2`. "
                + "Indexing: \(options.clock.rawValue) time, median of \(runs), transactions of \(Workload.format(Self.batchSize)). "
                + "Ratio = the implementation's time / raw SQLite's (lower is faster).")
        lines.append("")
        lines.append("| Indexing | Time | Documents/s | / raw | / GRDB |")
        lines.append("|---|---:|---:|---:|---:|")
        let raw = indexing[.raw]?.median ?? .nan
        let grdb = indexing[.grdb]?.median ?? .nan
        for engine in Engine.allCases {
            let time = indexing[engine]?.median ?? .nan
            let rate = Workload.format(Int((Double(corpus.documents.count) / time).rounded()))
            lines.append(
                "| \(engine.rawValue) | \(formatDuration(time)) | \(rate) | \(formatRatio(time / raw)) | \(formatRatio(time / grdb)) |")
        }
        lines.append("")
        lines.append(
            "Query latency: top \(Self.limit) by `bm25(t, 10, 1)` with a snippet of the body, items decoded; "
                + "elapsed time of each query, \(repetitions) per kind and run (10 different queries), median / p90 of \(runs); "
                + "the CPU ratios are of the median CPU time of a query (the process's, all threads).")
        lines.append("")
        lines.append("| Query | Trove | raw SQLite | GRDB | Trove / raw | Trove / GRDB | CPU: Trove / raw | CPU: Trove / GRDB |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        for kind in Kind.allCases {
            func cell(_ engine: Engine) -> (median: Double, p90: Double) {
                let values = latencies[engine]?[kind] ?? []
                return (Self.percentile(values, 0.5), Self.percentile(values, 0.9))
            }
            let trove = cell(.trove)
            let raw = cell(.raw)
            let grdb = cell(.grdb)
            func pair(_ value: (median: Double, p90: Double)) -> String {
                "\(formatDuration(value.median)) / \(formatDuration(value.p90))"
            }
            func cpu(_ engine: Engine) -> Double { Self.percentile(cpuTimes[engine]?[kind] ?? [], 0.5) }
            lines.append(
                "| \(kind.rawValue) | \(pair(trove)) | \(pair(raw)) | \(pair(grdb)) | "
                    + "\(formatRatio(trove.median / raw.median)) | \(formatRatio(trove.median / grdb.median)) | "
                    + "\(formatRatio(cpu(.trove) / cpu(.raw))) | \(formatRatio(cpu(.trove) / cpu(.grdb))) |")
        }
        if options.measuresFootprint {
            let engines = Engine.allCases
            lines += ["", "### Full-text search: peak memory and size on disk per workload, same runs"]
            let indexingTitle = "index \(Workload.format(corpus.documents.count)) documents"
            let queryRows = Kind.allCases.map { kind in
                ("\(repetitions) \(kind.rawValue) queries", engines.map { queryFootprints[$0]?[kind] })
            }
            lines += footprintTables(
                columns: engines.map(\.rawValue),
                rows: [(indexingTitle, engines.map { indexingFootprints[$0] })] + queryRows)
        }
        return lines
    }
}

/// One hit of a search, as every engine returns it.
struct SearchResult {
    var document: Document
    var score: Double
    var snippet: String
}

/// A store of documents with a full-text search.
protocol SearchStore {
    /// Writes `documents` in one write transaction.
    func insert(_ documents: ArraySlice<Document>) throws
    /// The top `limit` documents for the FTS5 expression `match`, best first, with a snippet of the body.
    func search(_ match: String, limit: Int) throws -> [SearchResult]
}

/// Trove: the generated `Document.fullTextSearch`, registered at open with `Database(path:models:)`.
final class TroveSearchStore: SearchStore {
    let database: Trove.Database
    let writer: Trove.Connection
    let reader: Trove.Connection

    /// - Parameter key: The key of the file (`nil`: plain; the encrypted pass, issue 34).
    init(directory: String, key: EncryptionKey? = nil) throws {
        database = try Trove.Database(
            path: directory + "/documents.trove", configuration: .benchmark(key: key), models: [Document.self])
        writer = try database.newConnection()
        reader = try database.newConnection()
    }

    func insert(_ documents: ArraySlice<Document>) throws {
        try writer.write { tx in try tx.write(Array(documents)) }
    }

    func search(_ match: String, limit: Int) throws -> [SearchResult] {
        try reader.read { tx in
            try Document.search(for: .raw(match))
                .snippets(of: "body", before: "<b>", after: "</b>")
                .limit(limit)
                .hits(tx)
                .map { SearchResult(document: $0.item, score: $0.score, snippet: $0.snippet ?? "") }
        }
    }
}

/// Raw SQLite through the C API: a table of documents and an FTS5 table with the same row ids.
final class RawSearchStore: SearchStore {
    /// The connection, which the search results view benchmark prepares statements of its own on.
    let sqlite: RawSQLite
    private let insertDocument: RawStatement
    private let insertText: RawStatement
    private let query: RawStatement
    private let begin: RawStatement
    private let beginRead: RawStatement
    private let commit: RawStatement

    init(directory: String) throws {
        sqlite = try RawSQLite(path: directory + "/documents.sqlite")
        try sqlite.execute("CREATE TABLE documents (id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, body TEXT NOT NULL)")
        try sqlite.execute(
            "CREATE VIRTUAL TABLE documents_fts USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')")
        insertDocument = try sqlite.prepare("INSERT INTO documents (id, title, body) VALUES (?1, ?2, ?3)")
        insertText = try sqlite.prepare("INSERT INTO documents_fts (rowid, title, body) VALUES (?1, ?2, ?3)")
        query = try sqlite.prepare(
            "SELECT d.id, d.title, d.body, bm25(documents_fts, 10, 1), snippet(documents_fts, 1, '<b>', '</b>', '…', 16) "
                + "FROM documents_fts JOIN documents AS d ON d.rowid = documents_fts.rowid "
                + "WHERE documents_fts MATCH ?1 ORDER BY bm25(documents_fts, 10, 1), d.id LIMIT ?2")
        begin = try sqlite.prepare("BEGIN IMMEDIATE")
        beginRead = try sqlite.prepare("BEGIN DEFERRED")
        commit = try sqlite.prepare("COMMIT")
    }

    func insert(_ documents: ArraySlice<Document>) throws {
        try begin.run()
        do {
            for document in documents {
                try document.id.withUTF8Buffer { id in
                    try document.title.withUTF8Buffer { title in
                        try document.body.withUTF8Buffer { body in
                            insertDocument.bindText(id, at: 1)
                            insertDocument.bindText(title, at: 2)
                            insertDocument.bindText(body, at: 3)
                            try insertDocument.run()
                            insertText.bindInt64(sqlite.lastInsertRowID, at: 1)
                            insertText.bindText(title, at: 2)
                            insertText.bindText(body, at: 3)
                            try insertText.run()
                        }
                    }
                }
            }
            try commit.run()
        } catch {
            try? sqlite.execute("ROLLBACK")
            throw error
        }
    }

    func search(_ match: String, limit: Int) throws -> [SearchResult] {
        // A read transaction, as Trove's `read` and GRDB's `pool.read`.
        try beginRead.run()
        defer { try? commit.run() }
        return try match.withUTF8Buffer { match in
            query.bindText(match, at: 1)
            query.bindInt64(Int64(limit), at: 2)
            defer { query.reset() }
            var results: [SearchResult] = []
            while try query.step() {
                results.append(
                    SearchResult(
                        document: Document(id: query.text(at: 0), title: query.text(at: 1), body: query.text(at: 2)),
                        score: sqlite3_column_double(query.pointer, 3), snippet: query.text(at: 4)))
            }
            return results
        }
    }
}

extension Document: FetchableRecord, PersistableRecord {}

/// GRDB 7.10: ``Document`` as a Codable record in its table, and a plain FTS5 table (not
/// synchronized, `FTS5()` with the tokenizer given as components) written in the same
/// transaction; queries are raw SQL with an `FTS5Pattern`, rows decoded into ``SearchResult``.
final class GRDBSearchStore: SearchStore {
    let pool: DatabasePool

    init(directory: String) throws {
        var configuration = GRDB.Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: directory + "/documents.grdb.sqlite", configuration: configuration)
        try pool.write { db in
            try db.create(table: Document.databaseTableName) { table in
                table.column("id", .text).notNull().unique()
                table.column("title", .text).notNull()
                table.column("body", .text).notNull()
            }
            try db.create(virtualTable: "document_ft", using: FTS5()) { table in
                table.tokenizer = FTS5TokenizerDescriptor(components: ["unicode61", "remove_diacritics", "2"])
                table.column("title")
                table.column("body")
            }
        }
    }

    func insert(_ documents: ArraySlice<Document>) throws {
        try pool.write { db in
            for document in documents {
                try document.insert(db)
                try db.execute(
                    sql: "INSERT INTO document_ft (rowid, title, body) VALUES (?, ?, ?)",
                    arguments: [db.lastInsertedRowID, document.title, document.body])
            }
        }
    }

    func search(_ match: String, limit: Int) throws -> [SearchResult] {
        try pool.read { db in
            let pattern = try FTS5Pattern(rawPattern: match)
            return try Row.fetchAll(
                db,
                sql: "SELECT d.*, bm25(document_ft, 10, 1) AS score, "
                    + "snippet(document_ft, 1, '<b>', '</b>', '…', 16) AS snippet "
                    + "FROM document_ft JOIN document AS d ON d.rowid = document_ft.rowid "
                    + "WHERE document_ft MATCH ? ORDER BY bm25(document_ft, 10, 1), d.id LIMIT ?",
                arguments: [pattern, limit]
            ).map { row in
                SearchResult(document: try Document(row: row), score: row["score"], snippet: row["snippet"])
            }
        }
    }
}
