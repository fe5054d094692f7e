import Dispatch
import Foundation
import GRDB
import Trove

/// The server workloads of issue 13: many concurrent tasks, each a short transaction, through
/// Trove's own pool (`database.read` / `database.write`) and through GRDB's `DatabasePool`
/// (`pool.read` / `pool.write`, async), on the same users. Measured in elapsed time (throughput
/// is what a server sees), median of the runs.
///
/// - Point reads: N reads of the shuffled keys, each its own transaction, split across 1, 2, 8
///   and 64 tasks.
/// - Mixed: N operations from 64 tasks, 9 point reads for 1 write of one user, each its own
///   transaction.
struct ConcurrencySuite {
    struct Row {
        let title: String
        let operations: Int
        /// Median elapsed seconds by implementation.
        var trove: Double
        var grdb: Double
    }

    static let taskCounts = [1, 2, 8, 64]
    let options: Options
    let fixtures: Fixtures
    private(set) var rows: [Row] = []

    init(options: Options, fixtures: Fixtures) {
        self.options = options
        self.fixtures = fixtures
    }

    mutating func run() throws {
        let folder = (options.directory as NSString).appendingPathComponent("trove-concurrency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        log("concurrency: preparing \(Workload.format(fixtures.users.count)) users for Trove's pool and GRDB's DatabasePool")
        let database = try Trove.Database(path: folder + "/users.trove", configuration: .benchmark(key: options.troveKey))
        try database.write(fixtures.users)
        let keys = fixtures.readKeys
        let writes = fixtures.updates.isEmpty ? fixtures.users : fixtures.updates
        log("concurrency: Trove's pool has \(database.configuration.maximumReaderCount) readers")
        if options.isProfiling {
            // Instructions (Scripts/instructions.sh): Trove's profiled workloads alone.
            let profiled: [(SuiteWorkload, Int)] = [(.poolRead1, 1), (.poolRead2, 2), (.poolRead8, 8), (.poolRead64, 64)]
            for (workload, tasks) in profiled where options.profiles(workload) {
                _ = try measure(workload.rawValue, profiling: workload) {
                    try await Self.concurrently(tasks: tasks, operations: keys.count) { index in
                        let key = keys[index]
                        return try await database.read { tx in try tx.read(User.self, key: key) != nil }
                    }
                }
            }
            if options.profiles(.poolMixed64) {
                _ = try measure(SuiteWorkload.poolMixed64.rawValue, profiling: .poolMixed64) {
                    try await Self.concurrently(tasks: 64, operations: keys.count) { index in
                        if index % 10 == 9 {
                            try await database.write(writes[index / 10 % writes.count])
                            return true
                        }
                        let key = keys[index]
                        return try await database.read { tx in try tx.read(User.self, key: key) != nil }
                    }
                }
            }
            return
        }
        // The encrypted pass (issue 34) measures Trove alone.
        let grdb = options.isEncryptedPass ? nil : try GRDBStore(directory: folder)
        try grdb?.insert(fixtures.users)

        for tasks in Self.taskCounts {
            let title = "\(Workload.format(keys.count)) point reads from \(tasks) task\(tasks == 1 ? "" : "s"), each its own transaction"
            let trove = try measure("trove reads \(tasks)") {
                try await Self.concurrently(tasks: tasks, operations: keys.count) { index in
                    let key = keys[index]
                    return try await database.read { tx in try tx.read(User.self, key: key) != nil }
                }
            }
            let other = try grdb.map { grdb in
                let pool = grdb.pool
                return try measure("grdb reads \(tasks)") {
                    try await Self.concurrently(tasks: tasks, operations: keys.count) { index in
                        let key = keys[index]
                        return try await pool.read { db in try User.fetchOne(db, key: key) != nil }
                    }
                }
            }
            rows.append(Row(title: title, operations: keys.count, trove: trove, grdb: other ?? .nan))
        }

        let mixedTasks = 64
        let title = "\(Workload.format(keys.count)) operations from \(mixedTasks) tasks, 90% point reads / 10% writes of one user"
        let trove = try measure("trove mixed") {
            try await Self.concurrently(tasks: mixedTasks, operations: keys.count) { index in
                if index % 10 == 9 {
                    let user = writes[index / 10 % writes.count]
                    try await database.write(user)
                    return true
                }
                let key = keys[index]
                return try await database.read { tx in try tx.read(User.self, key: key) != nil }
            }
        }
        let other = try grdb.map { grdb in
            let pool = grdb.pool
            return try measure("grdb mixed") {
                try await Self.concurrently(tasks: mixedTasks, operations: keys.count) { index in
                    if index % 10 == 9 {
                        let user = writes[index / 10 % writes.count]
                        try await pool.write { db in try user.update(db) }
                        return true
                    }
                    let key = keys[index]
                    return try await pool.read { db in try User.fetchOne(db, key: key) != nil }
                }
            }
        }
        rows.append(Row(title: title, operations: keys.count, trove: trove, grdb: other ?? .nan))
    }

    /// The median elapsed seconds of `options.runs` runs of `work` (after one untimed run unless
    /// warm-up is off). Checks that every operation found what it looked for. With `profiling`,
    /// each run is a region of that workload's profile (Scripts/instructions.sh).
    private func measure(
        _ name: String, profiling workload: SuiteWorkload? = nil, _ work: @escaping @Sendable () async throws -> Int
    ) throws -> Double {
        let expected = fixtures.readKeys.count
        if options.warmUp {
            _ = try Self.blocking(work)
        }
        var samples: [Double] = []
        for _ in 0..<options.runs {
            let start = ContinuousClock.now
            let found =
                if let workload {
                    try options.profiled(workload, operations: expected) { try Self.blocking(work) }
                } else {
                    try Self.blocking(work)
                }
            samples.append(start.duration(to: .now).seconds)
            guard found == expected else {
                throw BenchmarkError("concurrency \(name): \(found) of \(expected) operations found their user")
            }
        }
        samples.sort()
        log("concurrency: \(name): \(formatDuration(samples[samples.count / 2]))")
        return samples[samples.count / 2]
    }

    /// Runs operations `0..<operations` from `tasks` tasks (task `t` runs `t`, `t + tasks`, …)
    /// and returns how many returned `true`.
    private static func concurrently(
        tasks: Int, operations: Int, _ operation: @escaping @Sendable (Int) async throws -> Bool
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var found = 0
                    for index in stride(from: task, to: operations, by: tasks) where try await operation(index) {
                        found += 1
                    }
                    return found
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// Runs `work` in a task and waits for it on this (non-cooperative) thread.
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                box.result = .success(try await work())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// Trove's workloads and their medians (elapsed time, as this suite measures), for the
    /// table of the encrypted pass (issue 34).
    func troveMedians() -> [(workload: String, seconds: Double)] {
        rows.map { ("concurrency (elapsed): \($0.title)", $0.trove) }
    }

    /// The Markdown table of the results.
    func table() -> [String] {
        var lines: [String] = []
        lines.append("")
        lines.append("## Server concurrency (issue 13)")
        lines.append("")
        lines.append(
            "Elapsed time, median of \(options.runsPhrase), and operations per second; "
                + "Trove through `database.read`/`database.write` (\(Trove.Configuration().maximumReaderCount) readers), "
                + "GRDB 7.10 through `DatabasePool` async `read`/`write`. Ratio = Trove's time / GRDB's time (lower is faster).")
        lines.append("")
        lines.append("| Workload | Trove | Trove ops/s | GRDB | GRDB ops/s | Trove / GRDB |")
        lines.append("|---|---:|---:|---:|---:|---:|")
        for row in rows {
            let ratio = row.trove / row.grdb
            lines.append(
                "| \(row.title) | \(formatDuration(row.trove)) | \(Self.rate(row.operations, row.trove)) | "
                    + "\(formatDuration(row.grdb)) | \(Self.rate(row.operations, row.grdb)) | \(String(format: "%.2f", ratio))× |")
        }
        return lines
    }

    private static func rate(_ operations: Int, _ seconds: Double) -> String {
        Workload.format(Int((Double(operations) / seconds).rounded()))
    }
}

/// The result of a task, handed to the thread that waits for it.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    // @unchecked because `result` is written by the task before it signals the semaphore and
    // read by the waiting thread after the semaphore: the semaphore orders the two.
    var result: Result<T, any Error>?
}
