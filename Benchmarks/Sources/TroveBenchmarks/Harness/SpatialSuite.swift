import Foundation
import Trove

/// The spatial benchmark (issue 32): N places, points spread evenly over a 1,000 × 1,000 square;
/// then (timed) 1,000 box queries, each a square holding about 0.1% of the places, all matching
/// items in key order; and 1,000 nearest-20 queries, the 20 nearest places within a radius that
/// holds about 40 of them, nearest first, ties by key.
///
/// - Trove: ``SpatialIndex`` (an R*Tree written on the public extension protocol), items through
///   its query terminals.
/// - Raw SQLite, R*Tree by hand: a table of places and an `rtree` table keyed by its row id; the
///   R*Tree gives the candidates, the exact coordinates of the joined row decide, the distance is
///   ordered by in SQL.
/// - Raw SQLite, scan: every row read and filtered, sorted in Swift, per query. It runs the first
///   100 queries of each kind only (a scan per query is slow), and the table shows the time per
///   query.
///
/// Every engine's results are checked equal, query by query (the ids, in order).
struct SpatialSuite {
    let options: Options

    /// The implementations, in table order.
    enum Engine: String, CaseIterable {
        case trove = "Trove SpatialIndex"
        case rawTree = "raw SQLite, R*Tree by hand"
        case rawScan = "raw SQLite, scan of all rows"

        /// How many queries of each kind the engine runs.
        func queryCount(of total: Int) -> Int {
            self == .rawScan ? min(total, 100) : total
        }

        /// The profiled workloads of the engine's box and nearest queries (Scripts/instructions.sh).
        var workloads: (box: SuiteWorkload, near: SuiteWorkload)? {
            switch self {
            case .trove: (.spatialBox, .spatialNear)
            case .rawTree: (.spatialBoxRaw, .spatialNearRaw)
            case .rawScan: nil
            }
        }
    }

    /// A box query or a nearest query.
    enum Query {
        case box(SpatialBox)
        case near(SpatialPoint, radius: Double, limit: Int)
    }

    let places: [Place]
    let boxQueries: [SpatialBox]
    let nearQueries: [(point: SpatialPoint, radius: Double)]
    static let nearLimit = 20
    static let side = 1_000.0

    private(set) var boxTimes: [Engine: ViewSuite.Timing] = [:]
    private(set) var nearTimes: [Engine: ViewSuite.Timing] = [:]
    /// The results of the reference engine (Trove), query by query: what the others must find.
    private var expectedBoxes: [[String]] = []
    private var expectedNear: [[String]] = []

    init(options: Options) {
        self.options = options
        let count = max(1_000, options.count)
        log("making \(Workload.format(count)) places")
        var random = SplitMix64(seed: 32)
        func coordinate() -> Double { Double(random.next() % 1_000_000) / 1_000_000 * Self.side }
        places = (0..<count).map {
            Place(id: "p\(1_000_000 + $0)", x: coordinate(), y: coordinate(), name: "Place \($0)")
        }
        // A square of 0.1% of the area holds about 0.1% of the places.
        let boxSide = Self.side * 0.001.squareRoot()
        boxQueries = (0..<1_000).map { _ in
            let x = coordinate()
            let y = coordinate()
            return SpatialBox(minX: x, maxX: x + boxSide, minY: y, maxY: y + boxSide)
        }
        // A disc that holds about 40 places.
        let radius = (40 / Double(count) * Self.side * Self.side / Double.pi).squareRoot()
        nearQueries = (0..<1_000).map { _ in (SpatialPoint(x: coordinate(), y: coordinate()), radius) }
    }

    mutating func run() throws {
        for run in 0..<options.runs {
            // Trove first in every run: its results are the reference of the others.
            for engine in Engine.allCases
            where (!options.isProfiling || profiles(engine)) && (!options.isEncryptedPass || engine == .trove) {
                log("run \(run + 1)/\(options.runs): spatial, \(engine.rawValue)")
                let directory = try makeDirectory(in: options.directory, prefix: "spatial")
                defer { try? FileManager.default.removeItem(atPath: directory) }
                try measure(engine, directory: directory)
            }
        }
    }

    /// Whether a workload of `engine` is profiled. Trove always runs: its results are the
    /// reference.
    private func profiles(_ engine: Engine) -> Bool {
        engine == .trove || (engine.workloads.map { options.profiles($0.box) || options.profiles($0.near) } ?? false)
    }

    private mutating func measure(_ engine: Engine, directory: String) throws {
        let store: any SpatialBenchmarkStore =
            switch engine {
            case .trove: try TroveSpatialStore(directory: directory, key: options.troveKey)
            case .rawTree: try RawSpatialStore(directory: directory, tree: true)
            case .rawScan: try RawSpatialStore(directory: directory, tree: false)
            }
        try store.insert(places)
        let boxes = Array(boxQueries.prefix(engine.queryCount(of: boxQueries.count)))
        let near = Array(nearQueries.prefix(engine.queryCount(of: nearQueries.count)))
        var boxResults: [[String]] = []
        boxResults.reserveCapacity(boxes.count)
        let boxStart = Stopwatch()
        try profiled(engine.workloads?.box, operations: boxes.count) {
            for box in boxes {
                boxResults.append(try store.places(intersecting: box).map(\.id))
            }
        }
        boxTimes[engine, default: .init()].append(boxStart.elapsed(), count: boxes.count)
        var nearResults: [[String]] = []
        nearResults.reserveCapacity(near.count)
        let nearStart = Stopwatch()
        try profiled(engine.workloads?.near, operations: near.count) {
            for query in near {
                nearResults.append(
                    try store.places(near: query.point, within: query.radius, limit: Self.nearLimit).map(\.id))
            }
        }
        nearTimes[engine, default: .init()].append(nearStart.elapsed(), count: near.count)
        if engine == .trove {
            guard boxResults.contains(where: { !$0.isEmpty }),
                nearResults.contains(where: { $0.count == Self.nearLimit })
            else {
                throw BenchmarkError("spatial: Trove found nothing: the fixtures are wrong")
            }
            expectedBoxes = boxResults
            expectedNear = nearResults
        } else {
            for (index, result) in boxResults.enumerated() where result != expectedBoxes[index] {
                throw BenchmarkError(
                    "spatial: \(engine.rawValue) found \(result.count) places in box \(index), Trove \(expectedBoxes[index].count)"
                )
            }
            for (index, result) in nearResults.enumerated() where result != expectedNear[index] {
                throw BenchmarkError(
                    "spatial: \(engine.rawValue) found other nearest places for query \(index) than Trove")
            }
        }
    }

    /// Runs `body`, as the profiled region of `workload` when it is profiled.
    private func profiled(_ workload: SuiteWorkload?, operations: Int, _ body: () throws -> Void) throws {
        guard let workload else { return try body() }
        try options.profiled(workload, operations: operations, body)
    }

    /// Trove's workloads and their medians by the run's clock, for the table of the encrypted
    /// pass (issue 34).
    func troveMedians() -> [(workload: String, seconds: Double)] {
        [
            ("spatial: one box query over \(Workload.format(places.count)) points", options.clock.median(boxTimes[.trove])),
            ("spatial: one nearest-\(Self.nearLimit) query", options.clock.median(nearTimes[.trove])),
        ]
    }

    func table() -> [String] {
        let clock = options.clock
        let median = clock.median
        let cell = clock.cell
        let runs = options.runsPhrase
        let engines = Engine.allCases
        var lines: [String] = []
        lines.append("")
        lines.append("## Spatial index (issue 32)")
        lines.append("")
        lines.append(
            "\(clock.rawValue) time per query, median of \(runs) (elapsed in parentheses), over \(Workload.format(places.count)) "
                + "points in a square. Box: \(Workload.format(boxQueries.count)) squares of 0.1% of the area, every place in "
                + "each, by key. Nearest: \(Workload.format(nearQueries.count)) queries of the \(Self.nearLimit) nearest "
                + "places within a radius that holds about 40, nearest first. The scan runs the first 100 of each. "
                + "Checked: every engine finds the same places, in the same order, for every query.")
        lines.append("")
        lines += tableHeader(engines.map(\.rawValue))
        lines.append("| box query | " + engines.map { cell(boxTimes[$0]) }.joined(separator: " | ") + " |")
        let rawBox = median(boxTimes[.rawTree])
        lines.append(
            "| … / R*Tree by hand | "
                + engines.map { formatRatio(median(boxTimes[$0]) / rawBox) }.joined(separator: " | ")
                + " |")
        lines.append(
            "| nearest \(Self.nearLimit) | " + engines.map { cell(nearTimes[$0]) }.joined(separator: " | ") + " |")
        let rawNear = median(nearTimes[.rawTree])
        lines.append(
            "| … / R*Tree by hand | "
                + engines.map { formatRatio(median(nearTimes[$0]) / rawNear) }.joined(separator: " | ")
                + " |")
        return lines
    }
}

/// What each engine of ``SpatialSuite`` does.
protocol SpatialBenchmarkStore {
    /// Stores `places`, in one transaction.
    func insert(_ places: [Place]) throws
    /// The places in `box` (edges count), by id, in a read transaction of their own.
    func places(intersecting box: SpatialBox) throws -> [Place]
    /// At most `limit` places at most `radius` from `point`, nearest first, ties by id, in a read
    /// transaction of their own.
    func places(near point: SpatialPoint, within radius: Double, limit: Int) throws -> [Place]
}

/// Trove with a ``SpatialIndex`` of the places' points.
final class TroveSpatialStore: SpatialBenchmarkStore {
    let database: Database
    let index = SpatialIndex<Place>("places_where") { .point(x: $0.x, y: $0.y) }

    /// - Parameter key: The key of the file (`nil`: plain; the encrypted pass, issue 34).
    init(directory: String, key: EncryptionKey? = nil) throws {
        database = try Database(
            path: directory + "/places.trove", configuration: .benchmark(key: key), extensions: [index.databaseExtension])
    }

    func insert(_ places: [Place]) throws {
        try database.write { tx in
            for place in places { try tx.write(place) }
        }
    }

    func places(intersecting box: SpatialBox) throws -> [Place] {
        try index.query(intersecting: box).items(in: database)
    }

    func places(near point: SpatialPoint, within radius: Double, limit: Int) throws -> [Place] {
        try index.query(near: point, within: radius).limit(limit).items(in: database)
    }
}

/// Raw SQLite: a table of places, with an R*Tree of their points by hand, or scanned.
final class RawSpatialStore: SpatialBenchmarkStore {
    private let sqlite: RawSQLite
    private let tree: Bool
    private let insertPlace: RawStatement
    private let insertBox: RawStatement?
    private let inBox: RawStatement
    private let near: RawStatement?
    private let begin: RawStatement
    private let commit: RawStatement

    init(directory: String, tree: Bool) throws {
        self.tree = tree
        sqlite = try RawSQLite(path: directory + "/places.sqlite")
        try sqlite.execute(
            "CREATE TABLE places (id TEXT PRIMARY KEY NOT NULL, x REAL NOT NULL, y REAL NOT NULL, name TEXT NOT NULL)")
        insertPlace = try sqlite.prepare("INSERT INTO places (id, x, y, name) VALUES (?1, ?2, ?3, ?4)")
        begin = try sqlite.prepare("BEGIN IMMEDIATE")
        commit = try sqlite.prepare("COMMIT")
        if tree {
            try sqlite.execute("CREATE VIRTUAL TABLE places_tree USING rtree(id, minX, maxX, minY, maxY)")
            insertBox = try sqlite.prepare("INSERT INTO places_tree VALUES (?1, ?2, ?2, ?3, ?3)")
            // The R*Tree's 32-bit columns give the candidates; the row's exact point decides.
            inBox = try sqlite.prepare(
                "SELECT p.id, p.x, p.y, p.name FROM places_tree AS t JOIN places AS p ON p.rowid = t.id "
                    + "WHERE t.minX <= ?2 AND t.maxX >= ?1 AND t.minY <= ?4 AND t.maxY >= ?3 "
                    + "AND p.x BETWEEN ?1 AND ?2 AND p.y BETWEEN ?3 AND ?4 ORDER BY p.id")
            near = try sqlite.prepare(
                "SELECT id, x, y, name FROM (SELECT p.id, p.x, p.y, p.name, (p.x - ?1) * (p.x - ?1) + (p.y - ?2) * (p.y - ?2) AS d2 "
                    + "FROM places_tree AS t JOIN places AS p ON p.rowid = t.id "
                    + "WHERE t.minX <= ?1 + ?3 AND t.maxX >= ?1 - ?3 AND t.minY <= ?2 + ?3 AND t.maxY >= ?2 - ?3) "
                    + "WHERE d2 <= ?3 * ?3 ORDER BY d2, id LIMIT ?4")
        } else {
            insertBox = nil
            near = nil
            inBox = try sqlite.prepare("SELECT id, x, y, name FROM places")
        }
    }

    func insert(_ places: [Place]) throws {
        try begin.run()
        do {
            for place in places {
                try place.id.withUTF8Buffer { id in
                    try place.name.withUTF8Buffer { name in
                        insertPlace.bindText(id, at: 1)
                        insertPlace.bindDouble(place.x, at: 2)
                        insertPlace.bindDouble(place.y, at: 3)
                        insertPlace.bindText(name, at: 4)
                        try insertPlace.run()
                    }
                }
                if let insertBox {
                    insertBox.bindInt64(sqlite.lastInsertRowID, at: 1)
                    insertBox.bindDouble(place.x, at: 2)
                    insertBox.bindDouble(place.y, at: 3)
                    try insertBox.run()
                }
            }
            try commit.run()
        } catch {
            try? sqlite.execute("ROLLBACK")
            throw error
        }
    }

    private func place(of statement: RawStatement) -> Place {
        Place(
            id: statement.text(at: 0), x: statement.double(at: 1), y: statement.double(at: 2),
            name: statement.text(at: 3))
    }

    /// Runs `body` in a read transaction.
    private func reading<T>(_ body: () throws -> T) throws -> T {
        try sqlite.execute("BEGIN")
        defer { try? sqlite.execute("COMMIT") }
        return try body()
    }

    func places(intersecting box: SpatialBox) throws -> [Place] {
        try reading {
            defer { inBox.reset() }
            var found: [Place] = []
            if tree {
                inBox.bindDouble(box.minX, at: 1)
                inBox.bindDouble(box.maxX, at: 2)
                inBox.bindDouble(box.minY, at: 3)
                inBox.bindDouble(box.maxY, at: 4)
                while try inBox.step() { found.append(place(of: inBox)) }
                return found
            }
            // The scan: every row, filtered here, then sorted by id.
            while try inBox.step() {
                let x = inBox.double(at: 1)
                let y = inBox.double(at: 2)
                if x >= box.minX && x <= box.maxX && y >= box.minY && y <= box.maxY {
                    found.append(place(of: inBox))
                }
            }
            return found.sorted { $0.id < $1.id }
        }
    }

    func places(near point: SpatialPoint, within radius: Double, limit: Int) throws -> [Place] {
        try reading {
            var found: [Place] = []
            if let near {
                defer { near.reset() }
                near.bindDouble(point.x, at: 1)
                near.bindDouble(point.y, at: 2)
                near.bindDouble(radius, at: 3)
                near.bindInt64(Int64(limit), at: 4)
                while try near.step() { found.append(place(of: near)) }
                return found
            }
            defer { inBox.reset() }
            var scored: [(d2: Double, place: Place)] = []
            let r2 = radius * radius
            while try inBox.step() {
                let dx = inBox.double(at: 1) - point.x
                let dy = inBox.double(at: 2) - point.y
                let d2 = dx * dx + dy * dy
                if d2 <= r2 { scored.append((d2, place(of: inBox))) }
            }
            scored.sort { $0.d2 != $1.d2 ? $0.d2 < $1.d2 : $0.place.id < $1.place.id }
            return scored.prefix(limit).map(\.place)
        }
    }
}
