import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Peak resident memory of each implementation while it reads all N users.
///
/// Each implementation gets a database with the N users, written by this process; then a child
/// process (this executable with `--child-read-all`) opens it, reads every user and keeps them,
/// and reports its resident memory before the read and its peak (`ru_maxrss`) after. A child
/// process per implementation keeps one implementation's allocations out of another's figure.
struct MemoryProbe {
    struct Result {
        /// Resident memory after opening the database, before reading, in bytes.
        var beforeRead: Int
        /// Peak resident memory of the process, in bytes.
        var peak: Int
        var growth: Int { peak - beforeRead }
    }

    let options: Options
    let fixtures: Fixtures
    private(set) var results: [Implementation: Result] = [:]

    init(options: Options, fixtures: Fixtures) {
        self.options = options
        self.fixtures = fixtures
    }

    mutating func run() throws {
        for implementation in options.implementations {
            log("memory: \(implementation.shortTitle)")
            let directory = try makeDirectory(in: options.directory, prefix: "memory-\(implementation.rawValue)")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            do {
                let store = try implementation.open(directory: directory)
                try store.insert(fixtures.users)
            }
            results[implementation] = try runChild(implementation: implementation, directory: directory)
        }
    }

    private func runChild(implementation: Implementation, directory: String) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executablePath)
        process.arguments = ["--child-read-all", implementation.rawValue, directory]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, fields.count == 3 else {
            throw BenchmarkError("the memory probe of \(implementation.rawValue) failed (status \(process.terminationStatus))")
        }
        guard fields[2] == fixtures.users.count else {
            throw BenchmarkError("the memory probe of \(implementation.rawValue) read \(fields[2]) users")
        }
        return Result(beforeRead: fields[0], peak: fields[1])
    }

    /// The child side: open, read all, report `before peak count` in bytes on standard output.
    static func childReadAll(implementation: Implementation, directory: String) throws {
        let store = try implementation.open(directory: directory)
        // Forget the peak of the start of the process (loading Foundation and its data), so that
        // the peak is the one of the read.
        let canResetPeak = resetPeakResidentBytes()
        let before = currentResidentBytes()
        let users = try store.readAll()
        let peak = canResetPeak ? max(highWaterResidentBytes() ?? 0, before) : peakResidentBytes()
        withExtendedLifetime(users) {
            print(before, peak, users.count)
        }
    }

    static var executablePath: String {
        #if os(Linux)
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        #else
        Bundle.main.executablePath ?? CommandLine.arguments[0]
        #endif
    }

    /// The peak resident memory of this process so far.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024  // kilobytes on Linux
        #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss  // bytes on Darwin
        #endif
    }

    /// Resets the high-water mark of resident memory (Linux: `/proc/self/clear_refs`, value 5).
    /// Returns whether it could.
    static func resetPeakResidentBytes() -> Bool {
        #if os(Linux)
        let file = open("/proc/self/clear_refs", O_WRONLY)
        guard file >= 0 else { return false }
        defer { close(file) }
        return write(file, "5", 1) == 1
        #else
        return false
        #endif
    }

    /// The high-water mark of resident memory since the last reset (`VmHWM`), on Linux.
    static func highWaterResidentBytes() -> Int? {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        else { return nil }
        return kilobytes * 1024
        #else
        return nil
        #endif
    }

    /// The current resident memory of this process (the peak so far where it cannot be read).
    static func currentResidentBytes() -> Int {
        #if os(Linux)
        if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = statm.split(separator: " ")
            if fields.count > 1, let pages = Int(fields[1]) {
                return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
            }
        }
        #endif
        return peakResidentBytes()
    }
}

/// Bytes as `12.3 MiB`.
func formatBytes(_ bytes: Int) -> String {
    String(format1: Double(bytes) / 1_048_576) + " MiB"
}
