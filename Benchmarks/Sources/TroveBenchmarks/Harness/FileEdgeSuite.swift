import Foundation
import GRDB
import Trove

/// The edges-to-files benchmark (issue 32): N/10 authors, each with a portrait file of 512 bytes
/// in a folder beside the database; then (timed) the removal of every author, 100 per write
/// transaction, each transaction's files removed after its commit.
///
/// - Trove + file edges: `Relationships<Author>` with `.toFile("portrait", …,
///   rules: .deleteDestinationWhenSourceDeleted)`: the rule decides in the transaction, records
///   the removals in the commit (for a kill between the commit and the removal) and removes the
///   files after it.
/// - Trove, by hand: no relationship; the caller removes the files after each commit (what a kill
///   between the two loses).
/// - Raw SQLite and GRDB: a table of authors; each transaction deletes 100 rows, then the caller
///   removes their files.
///
/// Checked after each run: no author and no file is left.
struct FileEdgeSuite {
    let options: Options

    /// The implementations, in table order.
    enum Engine: String, CaseIterable {
        case trove = "Trove + file edges"
        case troveByHand = "Trove, files removed by hand"
        case raw = "raw SQLite, by hand"
        case grdb = "GRDB, by hand"

        /// Whether the engine is Trove's (the encrypted pass runs those alone).
        var isTrove: Bool { self == .trove || self == .troveByHand }

        /// The engine's profiled workload (Scripts/instructions.sh).
        var workload: SuiteWorkload {
            switch self {
            case .trove: .fileEdgeRemove
            case .troveByHand: .fileEdgeRemoveHand
            case .raw: .fileEdgeRemoveRaw
            case .grdb: .fileEdgeRemoveGRDB
            }
        }
    }

    static let perTransaction = 100
    static let edges = Relationships<Author>(
        "author_files",
        edges: [.toFile("portrait", in: "portraits", rules: .deleteDestinationWhenSourceDeleted) { "\($0.id).jpg" }])

    let authors: [Author]
    private(set) var removal: [Engine: ViewSuite.Timing] = [:]

    init(options: Options) {
        self.options = options
        let count = max(100, options.count / 10)
        log("making \(Workload.format(count)) authors with a portrait each")
        authors = (0..<count).map { Author(id: "f\(1_000_000 + $0)", name: "Author \($0)") }
    }

    mutating func run() throws {
        for run in 0..<options.runs {
            for engine in Engine.allCases.rotated(by: run)
            where (!options.isProfiling || options.profiles(engine.workload)) && (!options.isEncryptedPass || engine.isTrove) {
                log("run \(run + 1)/\(options.runs): file edges, \(engine.rawValue)")
                let directory = try makeDirectory(in: options.directory, prefix: "files")
                defer { try? FileManager.default.removeItem(atPath: directory) }
                try measure(engine, directory: directory)
            }
        }
    }

    private mutating func measure(_ engine: Engine, directory: String) throws {
        let folder = directory + "/portraits"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bytes = Data(repeating: 0xA5, count: 512)
        for author in authors {
            guard FileManager.default.createFile(atPath: "\(folder)/\(author.id).jpg", contents: bytes) else {
                throw BenchmarkError("file edges: cannot create the portrait of \(author.id)")
            }
        }
        let batches = stride(from: 0, to: authors.count, by: Self.perTransaction).map {
            authors[$0..<min($0 + Self.perTransaction, authors.count)].map(\.id)
        }
        func removeFiles(_ keys: [String]) throws {
            for key in keys { try FileManager.default.removeItem(atPath: "\(folder)/\(key).jpg") }
        }
        let left: Int
        switch engine {
        case .trove, .troveByHand:
            let database = try Trove.Database(
                path: directory + "/authors.trove", configuration: .benchmark(key: options.troveKey),
                extensions: engine == .trove ? [Self.edges.databaseExtension] : [])
            let connection = try database.newConnection()
            try connection.write { tx in try tx.write(authors) }
            let start = Stopwatch()
            try options.profiled(engine.workload, operations: authors.count) {
                for keys in batches {
                    try connection.write { tx in _ = try tx.remove(Author.self, keys: keys) }
                    if engine == .troveByHand { try removeFiles(keys) }
                }
            }
            removal[engine, default: .init()].append(start.elapsed(), count: 1)
            left = try connection.read { tx in try tx.count(of: Author.self) }
        case .raw:
            let sqlite = try RawSQLite(path: directory + "/authors.sqlite")
            try sqlite.execute("CREATE TABLE authors (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL)")
            let insert = try sqlite.prepare("INSERT INTO authors (id, name) VALUES (?1, ?2)")
            let delete = try sqlite.prepare("DELETE FROM authors WHERE id = ?1")
            let begin = try sqlite.prepare("BEGIN IMMEDIATE")
            let commit = try sqlite.prepare("COMMIT")
            try begin.run()
            for author in authors {
                try author.id.withUTF8Buffer { id in
                    try author.name.withUTF8Buffer { name in
                        insert.bindText(id, at: 1)
                        insert.bindText(name, at: 2)
                        try insert.run()
                    }
                }
            }
            try commit.run()
            let start = Stopwatch()
            try options.profiled(engine.workload, operations: authors.count) {
                for keys in batches {
                    try begin.run()
                    for key in keys {
                        try key.withUTF8Buffer { key in
                            delete.bindText(key, at: 1)
                            try delete.run()
                        }
                    }
                    try commit.run()
                    try removeFiles(keys)
                }
            }
            removal[engine, default: .init()].append(start.elapsed(), count: 1)
            let count = try sqlite.prepare("SELECT count(*) FROM authors")
            guard try count.step() else { throw BenchmarkError("file edges: no count") }
            left = Int(count.int64(at: 0))
        case .grdb:
            var configuration = GRDB.Configuration()
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            let pool = try DatabasePool(path: directory + "/authors.grdb.sqlite", configuration: configuration)
            try pool.write { db in
                try db.create(table: Author.databaseTableName) { table in
                    table.primaryKey("id", .text)
                    table.column("name", .text).notNull()
                }
                for author in authors { try author.insert(db) }
            }
            let start = Stopwatch()
            try options.profiled(engine.workload, operations: authors.count) {
                for keys in batches {
                    _ = try pool.write { db in try Author.deleteAll(db, keys: keys) }
                    try removeFiles(keys)
                }
            }
            removal[engine, default: .init()].append(start.elapsed(), count: 1)
            left = try pool.read { db in try Author.fetchCount(db) }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).count
        guard left == 0, files == 0 else {
            throw BenchmarkError("file edges: \(engine.rawValue) left \(left) authors and \(files) files")
        }
    }

    /// Trove's workloads and their medians by the run's clock, for the table of the encrypted
    /// pass (issue 34).
    func troveMedians() -> [(workload: String, seconds: Double)] {
        Engine.allCases.filter(\.isTrove).map { engine in
            (
                "file edges: remove \(Workload.format(authors.count)) authors and their files, \(engine.rawValue)",
                options.clock.median(removal[engine])
            )
        }
    }

    func table() -> [String] {
        let clock = options.clock
        let median = clock.median
        let runs = options.runsPhrase
        let engines = Engine.allCases
        let transactions = (authors.count + Self.perTransaction - 1) / Self.perTransaction
        var lines: [String] = []
        lines.append("")
        lines.append("## Edges to files (issue 32)")
        lines.append("")
        lines.append(
            "\(clock.rawValue) time, median of \(runs) (elapsed in parentheses): removing \(Workload.format(authors.count)) "
                + "authors, \(Self.perTransaction) per transaction (\(transactions) transactions), each with a portrait file of "
                + "512 bytes removed after the commit. Checked: no author and no file is left.")
        lines.append("")
        lines += tableHeader(engines.map(\.rawValue))
        lines.append(
            "| remove \(Workload.format(authors.count)) authors and their files | "
                + engines.map { clock.cell(removal[$0]) }.joined(separator: " | ") + " |")
        let raw = median(removal[.raw])
        lines.append(
            "| … / raw SQLite | " + engines.map { formatRatio(median(removal[$0]) / raw) }.joined(separator: " | ") + " |")
        lines.append(
            "| … per author | "
                + engines.map { formatDuration(median(removal[$0]) / Double(authors.count)) }.joined(separator: " | ")
                + " |")
        return lines
    }
}
