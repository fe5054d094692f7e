import Foundation

/// Runs every database workload on every implementation, `runs` times, and keeps the samples.
///
/// Each run opens a fresh database per implementation in its own folder and runs the workloads
/// in order on it; then another fresh database with the index, for the index workloads. Implementations take turns within a run, starting one later each run, so that
/// the slow drifts of a shared machine spread over all of them.
struct DatabaseSuite {
    let options: Options
    let fixtures: Fixtures
    /// Samples of the clock of the main table.
    private(set) var samples: [Implementation: [Workload: Samples]] = [:]
    /// Samples of the other clock.
    private(set) var otherSamples: [Implementation: [Workload: Samples]] = [:]
    /// Peak memory of every workload, and the size on disk of its database after it (issue 29).
    private(set) var footprints: [Implementation: [Workload: Footprint]] = [:]

    init(options: Options, fixtures: Fixtures) {
        self.options = options
        self.fixtures = fixtures
    }

    mutating func run() throws {
        let expected = ExpectedChecksums(fixtures: fixtures)
        if options.warmUp {
            // One small untimed pass, so that the first timed run does not pay for first-use costs
            // (page faults of the binary, lazy initialization in Foundation and the libraries).
            let warmUpFixtures = Fixtures(count: min(options.count, 2_000))
            let warmUpExpected = ExpectedChecksums(fixtures: warmUpFixtures)
            for implementation in options.implementations {
                try runOnce(implementation, fixtures: warmUpFixtures, expected: warmUpExpected, record: false)
            }
        }
        for run in 0..<options.runs {
            let order = options.implementations.rotated(by: run)
            for implementation in order {
                log("run \(run + 1)/\(options.runs): \(implementation.shortTitle)")
                try runOnce(implementation, fixtures: fixtures, expected: expected, record: true)
            }
        }
    }

    private mutating func runOnce(
        _ implementation: Implementation, fixtures: Fixtures, expected: ExpectedChecksums, record: Bool
    ) throws {
        if options.workloads.contains(where: { !$0.isIndexed }) {
            try runPlain(implementation, fixtures: fixtures, expected: expected, record: record)
        }
        if options.workloads.contains(where: \.isIndexed) {
            try runIndexed(implementation, fixtures: fixtures, expected: expected, record: record)
        }
    }

    /// The workloads without an index, on a fresh database.
    private mutating func runPlain(
        _ implementation: Implementation, fixtures: Fixtures, expected: ExpectedChecksums, record: Bool
    ) throws {
        let directory = try makeDirectory(in: options.directory, prefix: implementation.rawValue)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try implementation.open(directory: directory)
        for workload in Workload.allCases where !workload.isIndexed {
            // Reads not selected are skipped; writes not selected still run, untimed, since the
            // workloads that follow and the final check need their effect.
            let isSelected = options.workloads.contains(workload)
            if !isSelected && workload.isSkippable { continue }
            try workload.prepare(store, fixtures: fixtures)
            let meter = options.peakMeter()
            let start = Stopwatch()
            let checksum = try measured(implementation, workload, isSelected: isSelected) {
                try workload.run(on: store, fixtures: fixtures)
            }
            let elapsed = start.elapsed()
            let peak = meter?.stop()
            try check(checksum, expected.checksum(for: workload), implementation, workload)
            keep(elapsed, implementation, workload, if: record && isSelected)
            try keepFootprint(peak, directory: directory, implementation, workload, if: record && isSelected)
        }
        // Every write must have landed: read everything back, untimed.
        let final = try store.readBatch(fixtures.users.map(\.id))
        guard final == expected.final else {
            throw BenchmarkError("\(implementation.rawValue) after the writes: found \(final), expected \(expected.final)")
        }
    }

    /// The index workloads, on another fresh database whose users are indexed by age and email.
    private mutating func runIndexed(
        _ implementation: Implementation, fixtures: Fixtures, expected: ExpectedChecksums, record: Bool
    ) throws {
        let directory = try makeDirectory(in: options.directory, prefix: implementation.rawValue + "-index")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try implementation.openIndexed(directory: directory)
        var hasUpdated = false
        for workload in Workload.allCases where workload.isIndexed {
            let isSelected = options.workloads.contains(workload)
            if !isSelected && workload.isSkippable { continue }
            try workload.prepare(store)
            let meter = options.peakMeter()
            let start = Stopwatch()
            let checksum = try measured(implementation, workload, isSelected: isSelected) {
                try workload.run(on: store, fixtures: fixtures)
            }
            let elapsed = start.elapsed()
            let peak = meter?.stop()
            try check(checksum, expected.checksum(for: workload, afterUpdate: hasUpdated), implementation, workload)
            keep(elapsed, implementation, workload, if: record && isSelected)
            try keepFootprint(peak, directory: directory, implementation, workload, if: record && isSelected)
            hasUpdated = hasUpdated || workload == .indexUpdate
        }
        // The index must have followed the update, and survived the rebuild and the reopen: run
        // the queries again, untimed.
        for workload in [Workload.indexEqual, .indexRange] {
            try check(
                try workload.run(on: store, fixtures: fixtures), expected.checksum(for: workload, afterUpdate: true),
                implementation, workload, when: "after the writes")
        }
    }

    /// Runs `body`, as the profiled region when the options profile this workload.
    private func measured(
        _ implementation: Implementation, _ workload: Workload, isSelected: Bool, _ body: () throws -> Checksum?
    ) throws -> Checksum? {
        if isSelected && options.profiledWorkloads.contains(workload) && options.profiledImplementation == implementation {
            return try profiledRegion(workload.rawValue, operations: workload.operations(fixtures: fixtures), body)
        }
        return try body()
    }

    /// Throws when a read found something else than what it must.
    private func check(
        _ checksum: Checksum?, _ want: Checksum?, _ implementation: Implementation, _ workload: Workload,
        when: String? = nil
    ) throws {
        guard let checksum, let want, checksum != want else { return }
        throw BenchmarkError(
            "\(implementation.rawValue) \(workload.rawValue)\(when.map { " " + $0 } ?? ""): found \(checksum), expected \(want)")
    }

    /// Keeps the peak memory of a workload and the size on disk of its database right after it
    /// (read from outside the store, before any checkpoint of the harness), when the run measures them.
    private mutating func keepFootprint(
        _ peak: MemoryPeak?, directory: String, _ implementation: Implementation, _ workload: Workload,
        if condition: Bool
    ) throws {
        guard condition, let peak else { return }
        let size = try options.diskSize(of: directory, passphrase: implementation.passphrase)
        footprints[implementation, default: [:]][workload, default: Footprint()].append(peak, size)
    }

    private mutating func keep(
        _ elapsed: (cpu: Double, wall: Double), _ implementation: Implementation, _ workload: Workload, if condition: Bool
    ) {
        guard condition else { return }
        let (main, other) = options.clock == .cpu ? (elapsed.cpu, elapsed.wall) : (elapsed.wall, elapsed.cpu)
        samples[implementation, default: [:]][workload, default: Samples()].append(main)
        otherSamples[implementation, default: [:]][workload, default: Samples()].append(other)
    }
}

/// What the reads must find, computed from the fixtures alone.
struct ExpectedChecksums {
    let all: Checksum
    let metadata: Checksum
    let final: Checksum
    /// What the equality and range queries of the index workloads find, before and after the
    /// update.
    let indexEqual: Checksum
    let indexRange: Checksum
    let indexEqualAfterUpdate: Checksum
    let indexRangeAfterUpdate: Checksum
    /// What the limited queries find (they run before the update).
    let indexPageEqual: Checksum
    let indexPageRange: Checksum
    let indexPageSorted: Checksum
    /// What the aggregates find (they run before the update).
    let indexAggregate: Checksum

    init(fixtures: Fixtures) {
        var all = Checksum()
        var metadata = Checksum()
        var state: [String: User] = [:]
        for user in fixtures.users {
            all.add(user)
            if let stats = user.metadata { metadata.add(stats) }
            state[user.id] = user
        }
        (indexEqual, indexRange) = Self.queries(fixtures, over: fixtures.users)
        (indexPageEqual, indexPageRange, indexPageSorted) = Self.pages(fixtures)
        indexAggregate = Self.aggregates(fixtures)
        var updated = state
        for user in fixtures.updates { updated[user.id] = user }
        (indexEqualAfterUpdate, indexRangeAfterUpdate) = Self.queries(fixtures, over: Array(updated.values))
        for user in fixtures.updates { state[user.id] = user }
        for key in fixtures.deleteKeys { state[key] = nil }
        for user in fixtures.singleWrites { state[user.id] = user }
        var final = Checksum()
        for user in state.values { final.add(user) }
        self.all = all
        self.metadata = metadata
        self.final = final
    }

    /// What the equality and range queries find over `users`.
    private static func queries(_ fixtures: Fixtures, over users: [User]) -> (equal: Checksum, range: Checksum) {
        var equal = Checksum()
        var range = Checksum()
        for user in users {
            if fixtures.equalityAges.contains(user.age) { equal.add(user) }
            if fixtures.ageRanges.contains(where: { $0.contains(user.age) }) { range.add(user) }
        }
        return (equal, range)
    }

    /// What the limited queries find over the inserted users: for each of the page ages, the
    /// first users by key (stored keys compare by their bytes) or by email.
    private static func pages(_ fixtures: Fixtures) -> (equal: Checksum, range: Checksum, sorted: Checksum) {
        let byAge = Dictionary(grouping: fixtures.users, by: \.age)
            .mapValues { $0.sorted { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) } }
        var equal = Checksum()
        var range = Checksum()
        var sorted = Checksum()
        for age in fixtures.pageAges {
            let users = byAge[age] ?? []
            for user in users.prefix(fixtures.pageLimit) { equal.add(user) }
            let inRange = (users + (byAge[age + 1] ?? []))
                .sorted { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
            for user in inRange.prefix(fixtures.pageLimit) { range.add(user) }
            let byEmail = users.sorted { Array($0.email.utf8).lexicographicallyPrecedes(Array($1.email.utf8)) }
            for user in byEmail.prefix(fixtures.pageLimit) { sorted.add(user) }
        }
        return (equal, range, sorted)
    }

    /// What the aggregates find over the inserted users: for each of the page ages `x`, the sum of
    /// the ages in `x..<x+10` and the number of users of each age, by age.
    private static func aggregates(_ fixtures: Fixtures) -> Checksum {
        let countByAge = Dictionary(grouping: fixtures.users, by: \.age).mapValues(\.count)
        var checksum = Checksum()
        for age in fixtures.pageAges {
            let ages = age..<(age + 10)
            var aggregates = AgeAggregates(sum: 0, counts: [])
            for age in ages {
                guard let count = countByAge[age] else { continue }
                aggregates.sum += age * count
                aggregates.counts.append(AgeCount(age: age, count: count))
            }
            checksum.add(aggregates)
        }
        return checksum
    }

    /// What `workload` must find; for the index queries, before or after the index workloads'
    /// update.
    func checksum(for workload: Workload, afterUpdate: Bool = false) -> Checksum? {
        switch workload {
        case .readAll, .readEach, .readBatch, .cachedEach, .cachedBatch: all
        case .metadata: metadata
        case .indexEqual: afterUpdate ? indexEqualAfterUpdate : indexEqual
        case .indexRange: afterUpdate ? indexRangeAfterUpdate : indexRange
        case .indexPageEqual: indexPageEqual
        case .indexPageRange: indexPageRange
        case .indexPageSorted: indexPageSorted
        case .indexAggregate: indexAggregate
        case .insert, .update, .delete, .writeEach, .indexInsert, .indexUpdate, .indexPopulate, .indexReopen: nil
        }
    }
}

/// Creates a fresh folder for one database.
func makeDirectory(in parent: String, prefix: String) throws -> String {
    let path = (parent as NSString).appendingPathComponent("trove-bench-\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Progress goes to standard error, so that standard output is only the report.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Measures the CPU time of the process (every thread) and the elapsed time since its creation.
struct Stopwatch {
    private let cpu = Stopwatch.now(CLOCK_PROCESS_CPUTIME_ID)
    private let wall = Stopwatch.now(CLOCK_MONOTONIC)

    /// (CPU seconds, elapsed seconds).
    func elapsed() -> (cpu: Double, wall: Double) {
        (Stopwatch.now(CLOCK_PROCESS_CPUTIME_ID) - cpu, Stopwatch.now(CLOCK_MONOTONIC) - wall)
    }

    private static func now(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

extension Array {
    /// The array rotated left by `count` places.
    func rotated(by count: Int) -> [Element] {
        guard !isEmpty else { return self }
        let shift = count % self.count
        return Array(self[shift...] + self[..<shift])
    }
}
