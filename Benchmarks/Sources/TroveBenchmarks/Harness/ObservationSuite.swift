import Foundation
import Synchronization
import Trove

/// The cost of observation (issue 11), Trove only:
///
/// - **Commit cost of idle observations**: commits of one user each, on a database with no
///   observation, then with 100 observations of other collections (50 of one key each, 50 of a
///   whole collection's count), which are told of every commit and must find it irrelevant. The
///   figure is the time per commit, CPU and elapsed; the ratio is with / without.
/// - **Latency**: one observation of one user's key; a writer thread commits a change of that
///   user, then waits until the observation delivered it before the next commit (so that nothing
///   coalesces). Latency is from just before the write transaction begins to the moment the
///   consumer's `next()` returns the new value: it includes the commit itself. Median and p99 of
///   all commits of all runs, elapsed time.
struct ObservationSuite {
    let options: Options
    let users: [User]
    /// Per commit, without and with the 100 observations, one sample per run.
    private(set) var idleCPU: (without: Samples, with: Samples) = (Samples(), Samples())
    private(set) var idleWall: (without: Samples, with: Samples) = (Samples(), Samples())
    /// Every latency, in seconds.
    private(set) var latencies: [Double] = []

    static let observationCount = 100

    init(options: Options, users: [User]) {
        self.options = options
        self.users = users
    }

    /// Commits per timed batch.
    var commits: Int { options.isSmoke ? 200 : 2_000 }
    /// Latency samples per run.
    var latencyCommits: Int { options.isSmoke ? 50 : 1_000 }

    mutating func run() throws {
        for run in 0..<options.runs {
            log("run \(run + 1)/\(options.runs): observation")
            // Alternate which configuration goes first, so that drifts of the machine spread.
            for withObservations in run % 2 == 0 ? [false, true] : [true, false]
            where !options.isProfiling || options.profiles(withObservations ? .observeCommitIdle : .observeCommit) {
                let (cpu, wall) = try commitCost(withObservations: withObservations)
                if withObservations {
                    idleCPU.with.append(cpu)
                    idleWall.with.append(wall)
                } else {
                    idleCPU.without.append(cpu)
                    idleWall.without.append(wall)
                }
            }
            if !options.isProfiling || options.profiles(.observeLatency) {
                latencies += try latency()
            }
        }
    }

    /// The workloads and their medians by the run's clock (the latency: elapsed), for the table
    /// of the encrypted pass (issue 34).
    func troveMedians() -> [(workload: String, seconds: Double)] {
        let idle = options.clock == .cpu ? idleCPU : idleWall
        return [
            ("observation: one commit, no observation", idle.without.median),
            ("observation: one commit, \(Self.observationCount) idle observations", idle.with.median),
            ("observation (elapsed): from commit to observed value, median", latencies.percentile(0.5)),
        ]
    }

    /// The time per commit, with or without the 100 observations of other collections.
    private func commitCost(withObservations: Bool) throws -> (cpu: Double, wall: Double) {
        let directory = try makeDirectory(in: options.directory, prefix: "observation")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try Database(path: directory + "/observed.trove", configuration: .benchmark(key: options.troveKey))
        let connection = try database.newConnection()
        let users = Array(self.users.prefix(commits))
        let observers = withObservations ? try startIdleObservations(database) : nil
        let start = Stopwatch()
        try options.profiled(withObservations ? .observeCommitIdle : .observeCommit, operations: users.count) {
            for user in users {
                try connection.write { tx in try tx.write(user) }
            }
        }
        let elapsed = start.elapsed()
        if let observers {
            observers.stop()
            // None of the commits touched what they read: each yielded its first value only.
            guard observers.receivedCount == Self.observationCount else {
                throw BenchmarkError("\(observers.receivedCount - Self.observationCount) values of idle observations")
            }
        }
        return (elapsed.cpu / Double(users.count), elapsed.wall / Double(users.count))
    }

    /// Starts the observations of other collections, each in a task that counts its values
    /// (it must stay at one: the first).
    private func startIdleObservations(_ database: Database) throws -> IdleObservers {
        let observers = IdleObservers()
        for index in 0..<Self.observationCount {
            let collection = "other-\(index)"
            let task = Task {
                let observation =
                    index % 2 == 0
                    ? database.observe { tx in try tx.data(forKey: "key", in: collection)?.count ?? 0 }
                    : database.observe { tx in try tx.count(in: collection) }
                for try await _ in observation {
                    observers.received()
                }
            }
            observers.add(task)
        }
        // Every observation runs and registers before the commits start.
        while observers.receivedCount < Self.observationCount {
            usleep(1_000)
        }
        return observers
    }

    /// Latencies of one run.
    private func latency() throws -> [Double] {
        let directory = try makeDirectory(in: options.directory, prefix: "latency")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try Database(path: directory + "/observed.trove", configuration: .benchmark(key: options.troveKey))
        let connection = try database.newConnection()
        var user = users[0]
        try connection.write { tx in try tx.write(user) }
        let key = user.id
        let delivered = DispatchSemaphore(value: 0)
        let arrivals = Mutex<[Int: Double]>([:])
        let consumer = Task {
            var first = true
            for try await age in database.observe({ tx in try tx.read(User.self, key: key)?.age ?? -1 }) {
                let now = Stopwatch.wallNow()
                if first {
                    first = false
                } else {
                    arrivals.withLock { $0[age] = now }
                }
                delivered.signal()
            }
        }
        delivered.wait()  // the initial value
        var starts: [Int: Double] = [:]
        try options.profiled(.observeLatency, operations: latencyCommits) {
            for n in 0..<latencyCommits {
                user.age = 1_000_000 + n
                starts[user.age] = Stopwatch.wallNow()
                try connection.write { tx in try tx.write(user) }
                delivered.wait()
            }
        }
        consumer.cancel()
        let received = arrivals.withLock { $0 }
        guard received.count == latencyCommits else {
            throw BenchmarkError("latency: \(received.count) values observed for \(latencyCommits) commits")
        }
        return starts.map { age, start in received[age]! - start }
    }
}

/// The tasks that iterate the idle observations, and how many values they received.
final class IdleObservers: Sendable {
    private let tasks = Mutex<[Task<Void, any Error>]>([])
    private let count = Atomic<Int>(0)

    func add(_ task: Task<Void, any Error>) {
        tasks.withLock { $0.append(task) }
    }

    func received() {
        count.add(1, ordering: .relaxed)
    }

    var receivedCount: Int { count.load(ordering: .relaxed) }

    func stop() {
        for task in tasks.withLock({ $0 }) {
            task.cancel()
        }
    }
}

extension Stopwatch {
    /// Elapsed seconds since an arbitrary point (`CLOCK_MONOTONIC`).
    static func wallNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

extension Array where Element == Double {
    /// The value below which `fraction` of the values lie (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
    }
}
