import CSQLiteBenchmark
import Foundation

/// The peak resident memory of one run of a workload (issue 29).
///
/// The process holds every implementation's fixtures and whatever the ones that ran before left
/// in the allocator, so the absolute peak says little about one implementation; what the workload
/// cost is its ``growth``, the peak above the resident memory at its start. So that the growth is
/// not hidden by free memory the allocator kept from earlier workloads (which the workload would
/// reuse without a page fault), ``PeakMeter`` first hands that memory back to the system
/// (`malloc_trim`).
struct MemoryPeak: Sendable {
    /// Resident memory of the process when the workload started, in bytes.
    var start: Int
    /// The high-water mark of resident memory during the workload (`VmHWM`, reset at its start),
    /// in bytes; the process's peak so far where it cannot be reset (not Linux).
    var peak: Int
    /// The peak above the start, in bytes: what the workload cost.
    var growth: Int { max(0, peak - start) }
}

/// Measures the peak resident memory of a stretch of code: made right before it (it returns the
/// allocator's free memory to the system and resets the kernel's high-water mark), stopped right
/// after it, both outside the timed part.
///
/// The trim makes the workload pay the page faults of the memory it touches, as it would in a
/// fresh process: a little CPU time in the workloads that allocate much (`--no-footprint` leaves
/// it out, for time alone).
struct PeakMeter: Sendable {
    private let start: Int
    private let canReset: Bool

    /// Trims the allocator, resets the high-water mark of resident memory and reads the resident
    /// memory now.
    init() {
        Self.trimAllocator()
        canReset = MemoryProbe.resetPeakResidentBytes()
        start = MemoryProbe.currentResidentBytes()
    }

    /// Returns the free memory of every arena of glibc's allocator to the system (`malloc_trim(0)`,
    /// found at run time: Swift's Glibc module does not import `<malloc.h>`); nothing elsewhere.
    static func trimAllocator() {
        #if os(Linux)
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
            _ = trim(0)
        #endif
    }

    /// The peak since ``init()``.
    func stop() -> MemoryPeak {
        let peak =
            canReset ? max(MemoryProbe.highWaterResidentBytes() ?? 0, start) : MemoryProbe.peakResidentBytes()
        return MemoryPeak(start: start, peak: peak)
    }
}

/// The size on disk of the databases in one folder after a workload (issue 29), read from
/// outside the connections that wrote them, before any checkpoint of the harness: whatever the
/// implementation's own checkpoints left.
struct DiskSize: Sendable {
    /// Every main file plus its `-wal`, in bytes: what the disk holds now (the `-shm` index,
    /// 32 KiB of shared memory, is left out).
    var onDisk: Int
    /// `page_count × page_size` of every main file, as a new reader sees it, in bytes: what the
    /// main files hold once a checkpoint has copied the WAL into them (free pages included).
    var database: Int

    /// The databases in `directory`: every file but the `-wal`, `-shm` and `-journal` ones is a
    /// main file, encrypted with `passphrase` when one is given (issue 34).
    static func of(directory: String, passphrase: String? = nil) throws -> DiskSize {
        let manager = FileManager.default
        var size = DiskSize(onDisk: 0, database: 0)
        for name in try manager.contentsOfDirectory(atPath: directory).sorted() {
            guard !name.hasSuffix("-shm"), !name.hasSuffix("-journal") else { continue }
            let path = (directory as NSString).appendingPathComponent(name)
            let bytes = (try manager.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            size.onDisk += bytes
            if !name.hasSuffix("-wal") {
                size.database += try logicalSize(of: path, passphrase: passphrase)
            }
        }
        return size
    }

    /// `page_count × page_size` of the database at `path`, through a read-only connection of its
    /// own (which reads the WAL too, and cannot checkpoint it).
    private static func logicalSize(of path: String, passphrase: String?) throws -> Int {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle
        else { throw BenchmarkError("cannot open \(path) to read its size") }
        if let passphrase {
            guard sqlite3_exec(handle, RawSQLite.keyStatement(passphrase), nil, nil, nil) == SQLITE_OK else {
                throw BenchmarkError("cannot give the key of \(path) to read its size")
            }
        }
        func pragma(_ name: String) throws -> Int {
            var statement: OpaquePointer?
            defer { sqlite3_finalize(statement) }
            guard sqlite3_prepare_v2(handle, "PRAGMA \(name)", -1, &statement, nil) == SQLITE_OK,
                sqlite3_step(statement) == SQLITE_ROW
            else {
                let message = String(cString: sqlite3_errmsg(handle))
                throw BenchmarkError("cannot read PRAGMA \(name) of \(path): \(message)")
            }
            return Int(sqlite3_column_int64(statement, 0))
        }
        return try pragma("page_count") * pragma("page_size")
    }
}

/// The peak memory and the size on disk of one workload of one implementation, over the runs;
/// the tables show medians, as for time.
struct Footprint: Sendable {
    /// The peak of each run.
    private(set) var peaks: [MemoryPeak] = []
    /// The size on disk after each run, where the suite measures it after this workload.
    private(set) var sizes: [DiskSize] = []

    /// Adds one run's figures.
    mutating func append(_ peak: MemoryPeak?, _ size: DiskSize? = nil) {
        if let peak { peaks.append(peak) }
        if let size { sizes.append(size) }
    }

    /// The median of the runs' values, `nil` for none.
    private static func median(_ values: [Int]) -> Int? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The table cell of the memory: `growth (peak)` in MiB, medians.
    var memoryCell: String {
        guard let growth = Self.median(peaks.map(\.growth)), let peak = Self.median(peaks.map(\.peak)) else {
            return "–"
        }
        return "\(formatMiB(growth)) (\(formatMiB(peak)))"
    }

    /// The table cell of the size on disk: `main + WAL (after a checkpoint)` in MB, medians.
    var fileCell: String {
        guard let onDisk = Self.median(sizes.map(\.onDisk)), let database = Self.median(sizes.map(\.database)) else {
            return "–"
        }
        return "\(formatMB(onDisk)) (\(formatMB(database)))"
    }
}

/// Bytes in MiB (2^20), one decimal, without the unit: the cells of the memory tables.
func formatMiB(_ bytes: Int) -> String {
    String(format1: Double(bytes) / 1_048_576)
}

/// Bytes in MB (10^6), one decimal, without the unit: the cells of the file-size tables.
func formatMB(_ bytes: Int) -> String {
    String(format1: Double(bytes) / 1_000_000)
}

/// The two tables of a suite's footprints (issue 29): peak memory per workload, and the size on
/// disk after the workloads that measure it, one column per implementation.
///
/// - Parameters:
///   - columns: the implementations' titles, in order.
///   - rows: a title and one footprint per column (`nil`: the implementation does not run it).
/// - Returns: the lines of the tables, Markdown, the second left out when no row has a size.
func footprintTables(columns: [String], rows: [(title: String, cells: [Footprint?])]) -> [String] {
    let header = [
        "| Workload | " + columns.joined(separator: " | ") + " |",
        "| --- |" + String(repeating: " ---: |", count: columns.count),
    ]
    var lines = [
        "",
        "Peak resident memory per workload, MiB: growth above the resident memory at the start of the workload "
            + "(the process's high-water mark, reset at the start, in parentheses); median of the runs.",
        "",
    ]
    lines += header
    for row in rows {
        lines.append("| \(row.title) | " + row.cells.map { $0?.memoryCell ?? "–" }.joined(separator: " | ") + " |")
    }
    let sized = rows.filter { $0.cells.contains { !($0?.sizes.isEmpty ?? true) } }
    guard !sized.isEmpty else { return lines }
    lines += [
        "",
        "Size on disk after the workload, MB (10^6 bytes): main file + `-wal` as the implementation left them, "
            + "before any checkpoint of the harness (`page_count × page_size`, the main file after a checkpoint, "
            + "in parentheses); median of the runs.",
        "",
    ]
    lines += header
    for row in sized {
        lines.append("| \(row.title) | " + row.cells.map { $0?.fileCell ?? "–" }.joined(separator: " | ") + " |")
    }
    return lines
}

extension Options {
    /// Whether the suites measure each workload's peak memory and size on disk: in a timed run,
    /// not under callgrind (Scripts/instructions.sh), where resident memory is valgrind's.
    var measuresFootprint: Bool { includeFootprint && !isProfiling }

    /// A meter of the peak memory of the workload that starts now, when the run measures it.
    func peakMeter() -> PeakMeter? {
        measuresFootprint ? PeakMeter() : nil
    }

    /// The size on disk of the databases in `directory` now, when the run measures it; files
    /// encrypted with `passphrase` (by default, the encrypted pass's).
    func diskSize(of directory: String, passphrase: String? = nil) throws -> DiskSize? {
        measuresFootprint ? try DiskSize.of(directory: directory, passphrase: passphrase ?? trovePassphrase) : nil
    }
}
