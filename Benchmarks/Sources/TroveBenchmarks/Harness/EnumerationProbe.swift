import Foundation
import Trove
import CSQLiteBenchmark

/// Issue 12: time and peak memory of walking every user of a collection of N, for N given with
/// `--enumeration <n,n,…>` (a smoke run walks 1,000).
///
/// For each N, one Trove database of N users is written; then one child process per way of
/// walking them (this executable with `--child-enumerate <mode> <path>`) opens it, resets its
/// peak resident memory, walks every user into a checksum, and reports the elapsed and CPU time,
/// its resident memory before, its peak, and the number of users walked. A child per
/// measurement keeps one walk's allocations out of another's peak.
///
/// The ways of walking:
/// - `cursor`: ``ItemCursor``, one user decoded per `next()` (streaming);
/// - `enumerate`: `tx.enumerate(User.self) { }` (streaming);
/// - `all`: `tx.readAll(User.self)`, every user in one array, then walked;
/// - `raw`: raw SQLite, one `SELECT key, data, metadata … ORDER BY key` stepped to the end,
///   each row decoded by the same generated coder and dropped: the floor.
struct EnumerationProbe {
    enum Mode: String, CaseIterable {
        case cursor, enumerate, all, raw
    }

    struct Result {
        var wall: Double
        var cpu: Double
        var beforeRead: Int
        var peak: Int
        var growth: Int { peak - beforeRead }
    }

    let counts: [Int]
    let directory: String
    let options: Options
    private(set) var results: [Int: [Mode: Result]] = [:]

    init(counts: [Int], directory: String, options: Options) {
        self.counts = counts
        self.directory = directory
        self.options = options
    }

    /// The profiled workload of a way of walking (Scripts/instructions.sh).
    static func profiledWorkload(_ mode: Mode) -> SuiteWorkload? {
        switch mode {
        case .cursor: .enumerationCursor
        case .enumerate: .enumerationEnumerate
        case .all: .enumerationAll
        case .raw: nil
        }
    }

    mutating func run() throws {
        for count in counts {
            let folder = try makeDirectory(in: directory, prefix: "enumeration-\(count)")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/users.trove"
            log("enumeration: writing \(Workload.format(count)) users")
            do {
                let database = try Database(path: path)
                let connection = try database.newConnection()
                var random = SplitMix64(seed: 0x5452_4F56)
                var index = 0
                while index < count {
                    let batch = (index..<min(count, index + 10_000)).map { Fixtures.makeUser(index: $0, random: &random) }
                    try connection.write { tx in try tx.write(batch) }
                    index += batch.count
                }
            }
            if options.isProfiling {
                // Instructions (Scripts/instructions.sh): each profiled walk in this process, a
                // region of its own after the open.
                for mode in Mode.allCases {
                    guard let workload = Self.profiledWorkload(mode), options.profiles(workload) else { continue }
                    log("enumeration: \(mode.rawValue), N = \(Workload.format(count)), profiled")
                    let connection = try Database(path: path).newConnection()
                    var checksum = Checksum()
                    try profiledRegion(workload.rawValue, operations: count) {
                        try Self.walk(mode, on: connection, into: &checksum)
                    }
                    guard checksum.found == count else {
                        throw BenchmarkError("enumeration \(mode.rawValue) walked \(checksum.found) of \(count) users")
                    }
                }
                continue
            }
            for mode in Mode.allCases {
                log("enumeration: \(mode.rawValue), N = \(Workload.format(count))")
                results[count, default: [:]][mode] = try runChild(mode: mode, path: path, count: count)
            }
        }
    }

    private func runChild(mode: Mode, path: String, count: Int) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MemoryProbe.executablePath)
        process.arguments = ["--child-enumerate", mode.rawValue, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, fields.count == 5 else {
            throw BenchmarkError("the enumeration probe \(mode.rawValue) failed (status \(process.terminationStatus))")
        }
        guard Int(fields[4]) == count else {
            throw BenchmarkError("the enumeration probe \(mode.rawValue) walked \(Int(fields[4])) of \(count) users")
        }
        return Result(wall: fields[0], cpu: fields[1], beforeRead: Int(fields[2]), peak: Int(fields[3]))
    }

    /// The child side: open, walk, report `wall cpu before peak count` on standard output.
    static func child(mode: String, path: String) throws {
        guard let mode = Mode(rawValue: mode) else { throw BenchmarkError("unknown enumeration mode \(mode)") }
        var checksum = Checksum()
        let canResetPeak: Bool
        let before: Int
        let stopwatch: Stopwatch
        switch mode {
        case .raw:
            let sqlite = try RawSQLite(path: path)
            let statement = try sqlite.prepare(
                "SELECT key, data, metadata FROM trove_items WHERE collection = ?1 ORDER BY key")
            canResetPeak = MemoryProbe.resetPeakResidentBytes()
            before = MemoryProbe.currentResidentBytes()
            stopwatch = Stopwatch()
            try User.collection.withUTF8Buffer { collection in
                statement.bindText(collection, at: 1)
                defer { statement.reset() }
                while try statement.step() {
                    var reader = BinaryReader(statement.blob(at: 1))
                    var user = try User.Coder.decode(from: &reader)
                    if !statement.isNull(at: 2) {
                        var metadataReader = BinaryReader(statement.blob(at: 2))
                        user.metadata = try User.MetadataCoder.decode(from: &metadataReader)
                    }
                    checksum.add(user)
                }
            }
        case .cursor, .enumerate, .all:
            let database = try Database(path: path)
            let connection = try database.newConnection()
            canResetPeak = MemoryProbe.resetPeakResidentBytes()
            before = MemoryProbe.currentResidentBytes()
            stopwatch = Stopwatch()
            try walk(mode, on: connection, into: &checksum)
        }
        let (cpu, wall) = stopwatch.elapsed()
        let peak = canResetPeak ? max(MemoryProbe.highWaterResidentBytes() ?? 0, before) : MemoryProbe.peakResidentBytes()
        print(wall, cpu, before, peak, checksum.found)
    }

    /// Walks every user of `connection` the way of `mode` (not raw) in one read transaction.
    static func walk(_ mode: Mode, on connection: Connection, into checksum: inout Checksum) throws {
        try connection.read { tx in
            switch mode {
            case .cursor:
                let cursor = tx.cursor(User.self)
                while let user = try cursor.next() { checksum.add(user) }
            case .enumerate:
                try tx.enumerate(User.self) { user, _ in checksum.add(user) }
            default:
                let users = try tx.readAll(User.self)
                for user in users { checksum.add(user) }
            }
        }
    }

    /// The section of the report.
    func report() -> [String] {
        guard !results.isEmpty else { return [] }
        var lines = [
            "", "## Enumeration (issue 12): walk every user, one child process per measurement", "",
            "| N | way | elapsed | CPU | peak resident | growth over open |", "|---|---|---|---|---|---|",
        ]
        for count in counts {
            for mode in Mode.allCases {
                guard let result = results[count]?[mode] else { continue }
                lines.append(
                    "| \(Workload.format(count)) | \(mode.rawValue) | \(formatDuration(result.wall)) | \(formatDuration(result.cpu)) | \(formatBytes(result.peak)) | \(formatBytes(result.growth)) |"
                )
            }
        }
        return lines
    }
}
