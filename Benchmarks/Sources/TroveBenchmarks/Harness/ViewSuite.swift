import Foundation

/// The views benchmark (issue 15): messages in conversations, a list per conversation sorted by
/// timestamp, and single-message updates that move a message within its conversation (one in
/// ten to another one).
///
/// - **Per commit**: each update in a write transaction of its own. Trove with a persistent
///   `View` (its row changes computed in the commit), the same view with `storage: .inMemory`
///   (its pages in process memory, nothing in the file), Trove without a view, and raw SQLite and
///   GRDB, which keep each conversation's key list as a screen would and, after each commit,
///   read the list of the affected conversation(s) again (`ORDER BY timestamp, key`, from an
///   index on (conversation, timestamp, key)) and diff it with the list held
///   (`CollectionDifference`, moves inferred): what an app does without a view. The write and the
///   re-query are timed apart.
/// - **Rows 0..<50**: the first 50 messages of a conversation, each read in a read transaction
///   of its own: the view's `items(in:range:)` against `ORDER BY … LIMIT 50`.
/// - **The promise** "one change costs O(log n) comparisons and a bounded number of page
///   writes": calls of the view's sort closure per update (a closure that counts them), next to
///   log2 of the conversation's size; rows of the view's pages table and map written per commit,
///   read from outside with a raw SQLite connection (``ViewPageObserver``, first run); and, for
///   every implementation, the database pages each commit appended to the WAL (``WALProbe``).
/// - **Correctness**: after the updates, every conversation's first 50 keys and its count, in
///   the view and in the SQL of raw SQLite and GRDB, equal the brute-force model's; each
///   implementation holds every updated message as written.
struct ViewSuite {
    let options: Options
    let fixtures: ViewFixtures
    let groupCount: Int

    /// The implementations, in table order.
    enum Engine: String, CaseIterable {
        case troveView = "Trove + view"
        case troveMemoryView = "Trove + in-memory view"
        case trove = "Trove, no view"
        case raw = "raw SQLite"
        case grdb = "GRDB"

        var diffsByHand: Bool { self == .raw || self == .grdb }
        /// Whether the engine is Trove's (the encrypted pass runs those alone).
        var isTrove: Bool { !diffsByHand }

        /// The profiled workloads of the engine (Scripts/instructions.sh): its commits, its reads
        /// of rows 0..<50, and the registration that fills the view.
        var profiledWorkloads: (write: SuiteWorkload?, read: SuiteWorkload?, register: SuiteWorkload?) {
            switch self {
            case .troveView: (.viewWrite, .viewRead, .viewRegister)
            case .troveMemoryView: (.viewMemoryWrite, .viewMemoryRead, nil)
            case .trove: (.viewBareWrite, nil, nil)
            case .raw: (nil, .viewReadRaw, nil)
            case .grdb: (nil, .viewReadGRDB, nil)
            }
        }

        /// Whether one of the engine's workloads is profiled.
        func isProfiled(_ options: Options) -> Bool {
            let workloads = profiledWorkloads
            return [workloads.write, workloads.read, workloads.register].contains { $0.map(options.profiles) ?? false }
        }
    }

    /// One measurement: the chosen clock and elapsed time, per run.
    struct Timing {
        var cpu = Samples()
        var wall = Samples()

        mutating func append(_ total: (cpu: Double, wall: Double), count: Int) {
            cpu.append(total.cpu / Double(count))
            wall.append(total.wall / Double(count))
        }
    }

    /// Per commit: the write and commit.
    private(set) var write: [Engine: Timing] = [:]
    /// Per commit: reading the affected key list(s) again and diffing (raw, GRDB).
    private(set) var requery: [Engine: Timing] = [:]
    /// Per read of rows 0..<50.
    private(set) var top: [Engine: Timing] = [:]
    /// WAL frames (database pages) appended by each commit, every run.
    private(set) var walFrames: [Engine: [Int]] = [:]
    /// Calls of the view's sort closure per update, every run.
    private(set) var closureCalls: [Int] = []
    /// Calls per update that moved within its conversation, and across.
    private(set) var closureCallsWithin: [Int] = []
    private(set) var closureCallsAcross: [Int] = []
    /// What each commit wrote to the view's tables (first run).
    private(set) var pageWrites: [ViewPageObserver.Writes] = []
    /// The scaling probe: per conversation size, the mean sort-closure calls, view pages
    /// written and WAL frames per update (Trove + view, untimed).
    private(set) var scaling: [(groupSize: Int, calls: Double, pages: Double, frames: Double)] = []
    /// Changes found by the hand diffs (insertions + removals; a move is one of each), per engine, first run.
    private(set) var diffChanges: [Engine: Int] = [:]
    /// Peak memory of each phase, and the size on disk after the setup and after the commits (issue 29).
    private(set) var footprints: [Engine: [Phase: Footprint]] = [:]

    /// The phases of one engine's run whose peak memory is measured, in table order.
    enum Phase: CaseIterable {
        /// Inserting the messages and registering the view, which fills it (untimed).
        case setup
        /// The updates, each its own commit; for raw SQLite and GRDB, with the re-query and diff of each.
        case commits
        /// The reads of rows 0..<50.
        case reads
    }

    init(options: Options) {
        self.options = options
        let count = options.count
        groupCount = max(1, min(100, count / 100))
        let updates = options.isSmoke ? 100 : 1_000
        log("making \(Workload.format(count)) messages in \(groupCount) conversations, \(Workload.format(updates)) updates")
        fixtures = ViewFixtures(
            count: count, groupCount: groupCount, updateCount: updates, readCount: options.isSmoke ? 50 : 1_000)
    }

    /// Rows of a conversation.
    var groupSize: Int { fixtures.messages.count / groupCount }

    mutating func run() throws {
        for run in 0..<options.runs {
            for engine in Engine.allCases.rotated(by: run)
            where (!options.isProfiling || engine.isProfiled(options)) && (!options.isEncryptedPass || engine.isTrove) {
                log("run \(run + 1)/\(options.runs): views, \(engine.rawValue)")
                let directory = try makeDirectory(in: options.directory, prefix: "views")
                defer { try? FileManager.default.removeItem(atPath: directory) }
                try measure(engine, directory: directory, firstRun: run == 0)
            }
        }
        if !options.isProfiling && !options.isEncryptedPass { try probeScaling() }
    }

    /// The same updates with the view only, untimed, on conversations of 100, 1,000 and 10,000
    /// rows (the same number of messages in fewer conversations): how the comparisons and the
    /// writes of one update grow with the size of its conversation.
    private mutating func probeScaling() throws {
        let count = fixtures.messages.count
        for size in [100, 1_000, 10_000] where size <= count {
            let groups = count / size
            log("views: scaling probe, \(groups) conversation\(groups == 1 ? "" : "s") of \(Workload.format(size))")
            let probeFixtures = ViewFixtures(
                count: count, groupCount: groups, updateCount: options.isSmoke ? 50 : 300, readCount: 0)
            let directory = try makeDirectory(in: options.directory, prefix: "views-scaling")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let counter = CallCounter()
            let store = try TroveViewStore(directory: directory, counter: counter)
            var offset = 0
            while offset < count {
                let end = min(offset + 10_000, count)
                try store.insert(probeFixtures.messages[offset..<end])
                offset = end
            }
            try store.finishSetup()
            try checkpointTruncating(store.path)
            let observer = try ViewPageObserver(databasePath: store.path, viewName: TroveViewStore.viewName)
            let probe = try WALProbe(databasePath: store.path)
            var calls: [Int] = []
            var pages: [Int] = []
            var frames: [Int] = []
            for message in probeFixtures.updates {
                let before = counter.value
                try store.update(message)
                calls.append(counter.value - before)
                pages.append(try observer.writesSinceLastCall().pagesWritten)
                frames.append(try probe.framesSinceLastCall())
            }
            for group in probeFixtures.groups {
                guard try store.keys(in: group) == probeFixtures.finalKeys[group] ?? [] else {
                    throw BenchmarkError("views: scaling probe: the keys of \(group) are not the model's")
                }
            }
            scaling.append((size, Self.mean(calls), Self.mean(pages), Self.mean(frames)))
        }
    }

    private mutating func measure(_ engine: Engine, directory: String, firstRun: Bool) throws {
        let counter = CallCounter()
        let store: any ViewBenchmarkStore =
            switch engine {
            case .troveView: try TroveViewStore(directory: directory, counter: counter, key: options.troveKey)
            case .troveMemoryView:
                try TroveViewStore(directory: directory, counter: CallCounter(), inMemory: true, key: options.troveKey)
            case .trove: try TroveViewStore(directory: directory, counter: nil, key: options.troveKey)
            case .raw: try RawViewStore(directory: directory)
            case .grdb: try GRDBViewStore(directory: directory)
            }
        let setupMeter = options.peakMeter()
        var offset = 0
        while offset < fixtures.messages.count {
            let end = min(offset + 10_000, fixtures.messages.count)
            try store.insert(fixtures.messages[offset..<end])
            offset = end
        }
        if let register = engine.profiledWorkloads.register {
            try options.profiled(register, operations: fixtures.messages.count) { try store.finishSetup() }
        } else {
            try store.finishSetup()
        }
        footprints[engine, default: [:]][.setup, default: Footprint()]
            .append(setupMeter?.stop(), try options.diskSize(of: directory))
        try checkpointTruncating(store.path, passphrase: options.trovePassphrase)
        if options.isProfiling {
            // Instructions (Scripts/instructions.sh): the commits alone, then the reads, without
            // the probes of the timed run between the commits.
            if let write = engine.profiledWorkloads.write, options.profiles(write) {
                try profiledRegion(write.rawValue, operations: fixtures.updates.count) {
                    for message in fixtures.updates { try store.update(message) }
                }
            } else {
                for message in fixtures.updates { try store.update(message) }
            }
            try verify(store, engine: engine, displayed: nil)
            if let read = engine.profiledWorkloads.read, options.profiles(read) {
                let found = try profiledRegion(read.rawValue, operations: fixtures.readGroups.count) {
                    var checksum = 0
                    for group in fixtures.readGroups {
                        checksum &+= try store.top(ViewFixtures.pageLength, in: group)?.count ?? 0
                    }
                    return checksum
                }
                let expected = fixtures.readGroups.reduce(0) {
                    $0 + min(ViewFixtures.pageLength, fixtures.finalKeys[$1]?.count ?? 0)
                }
                guard found == expected else {
                    throw BenchmarkError("views: \(engine.rawValue) read \(found) rows at the top of the groups, not \(expected)")
                }
            }
            return
        }
        // What a screen holds: the key list of every conversation (raw, GRDB).
        var displayed: [String: [String]] = [:]
        if engine.diffsByHand {
            for group in fixtures.groups { displayed[group] = try store.keys(in: group) }
        }
        let observer =
            engine == .troveView && firstRun && !options.isEncryptedPass
            ? try ViewPageObserver(databasePath: store.path, viewName: TroveViewStore.viewName) : nil
        let probe = try WALProbe(databasePath: store.path)

        var writeTotal = (cpu: 0.0, wall: 0.0)
        var requeryTotal = (cpu: 0.0, wall: 0.0)
        var changes = 0
        let commitsMeter = options.peakMeter()
        for (step, message) in fixtures.updates.enumerated() {
            let callsBefore = counter.value
            let start = Stopwatch()
            try store.update(message)
            let elapsed = start.elapsed()
            writeTotal.cpu += elapsed.cpu
            writeTotal.wall += elapsed.wall
            if engine.diffsByHand {
                let start = Stopwatch()
                let previous = fixtures.previousGroups[step]
                for group in previous == message.conversation ? [previous] : [previous, message.conversation] {
                    guard let keys = try store.keys(in: group), let held = displayed[group] else {
                        throw BenchmarkError("views: \(engine.rawValue) cannot list \(group)")
                    }
                    let difference = keys.difference(from: held).inferringMoves()
                    changes += difference.count
                    displayed[group] = keys
                }
                let elapsed = start.elapsed()
                requeryTotal.cpu += elapsed.cpu
                requeryTotal.wall += elapsed.wall
            }
            // Outside the timed part.
            walFrames[engine, default: []].append(try probe.framesSinceLastCall())
            if step == 0 { try probe.verifyAgainstWALSize() }
            if engine == .troveView {
                let calls = counter.value - callsBefore
                closureCalls.append(calls)
                if fixtures.previousGroups[step] == message.conversation {
                    closureCallsWithin.append(calls)
                } else {
                    closureCallsAcross.append(calls)
                }
            }
            if let observer { pageWrites.append(try observer.writesSinceLastCall()) }
        }
        footprints[engine, default: [:]][.commits, default: Footprint()]
            .append(commitsMeter?.stop(), try options.diskSize(of: directory))
        write[engine, default: Timing()].append(writeTotal, count: fixtures.updates.count)
        if engine.diffsByHand {
            requery[engine, default: Timing()].append(requeryTotal, count: fixtures.updates.count)
            if firstRun { diffChanges[engine] = changes }
        }

        try verify(store, engine: engine, displayed: displayed)

        if engine != .trove {
            var checksum = 0
            let meter = options.peakMeter()
            let start = Stopwatch()
            for group in fixtures.readGroups {
                guard let messages = try store.top(ViewFixtures.pageLength, in: group) else {
                    throw BenchmarkError("views: \(engine.rawValue) cannot read the top of \(group)")
                }
                checksum &+= messages.count
            }
            top[engine, default: Timing()].append(start.elapsed(), count: fixtures.readGroups.count)
            footprints[engine, default: [:]][.reads, default: Footprint()].append(meter?.stop())
            let expected = fixtures.readGroups.reduce(0) {
                $0 + min(ViewFixtures.pageLength, fixtures.finalKeys[$1]?.count ?? 0)
            }
            guard checksum == expected else {
                throw BenchmarkError("views: \(engine.rawValue) read \(checksum) rows at the top of the groups, not \(expected)")
            }
        }
    }

    /// The store's contents equal the brute-force model: every updated message as written; for
    /// the view and the SQL, every conversation's first 50 rows (the items, in order) and count;
    /// for the hand diffs, the key lists they hold (`nil` when they were not kept: a profile runs
    /// the commits without diffing).
    private func verify(_ store: any ViewBenchmarkStore, engine: Engine, displayed: [String: [String]]?) throws {
        var latest: [String: Message] = [:]
        for message in fixtures.updates { latest[message.id] = message }
        for (key, message) in latest {
            guard try store.message(key) == message else {
                throw BenchmarkError("views: \(engine.rawValue) does not hold the last update of \(key)")
            }
        }
        guard engine != .trove else { return }
        for group in fixtures.groups {
            let expected = fixtures.finalKeys[group] ?? []
            guard let keys = try store.keys(in: group), keys == expected else {
                throw BenchmarkError("views: \(engine.rawValue): the keys of \(group) are not the model's")
            }
            guard let top = try store.top(ViewFixtures.pageLength, in: group),
                top.map(\.id) == Array(expected.prefix(ViewFixtures.pageLength))
            else {
                throw BenchmarkError("views: \(engine.rawValue): rows 0..<50 of \(group) are not the model's")
            }
            if engine.diffsByHand, let displayed, displayed[group] != expected {
                throw BenchmarkError("views: \(engine.rawValue): the diffed list of \(group) is not the model's")
            }
        }
    }

    // MARK: Report

    /// Trove's workloads and their medians by the run's clock, for the table of the encrypted
    /// pass (issue 34).
    func troveMedians() -> [(workload: String, seconds: Double)] {
        let median = options.clock.median
        var rows: [(String, Double)] = []
        for engine in Engine.allCases where engine.isTrove {
            rows.append(("views: one update, write + commit, \(engine.rawValue)", median(write[engine])))
        }
        for engine in [Engine.troveView, .troveMemoryView] {
            rows.append(("views: read rows 0..<\(ViewFixtures.pageLength), \(engine.rawValue)", median(top[engine])))
        }
        return rows
    }

    private static func mean(_ values: [Int]) -> Double {
        values.isEmpty ? .nan : Double(values.reduce(0, +)) / Double(values.count)
    }

    private static func percentile(_ values: [Int], _ p: Double) -> Int {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
    }

    private static func distribution(_ values: [Int]) -> String {
        var counts: [Int: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return counts.keys.sorted().map { "\($0): \(counts[$0]!)" }.joined(separator: ", ")
    }

    func table() -> [String] {
        let clock = options.clock
        let median = clock.median
        func wallMedian(_ timing: Timing?) -> Double { timing?.wall.median ?? .nan }
        let runs = options.runsPhrase
        let updates = fixtures.updates.count
        let across = fixtures.updates.indices.filter { fixtures.previousGroups[$0] != fixtures.updates[$0].conversation }.count
        var lines: [String] = []
        lines.append("")
        lines.append("## Views (issue 15)")
        lines.append("")
        lines.append(
            "\(Workload.format(fixtures.messages.count)) messages in \(groupCount) conversations of \(Workload.format(groupSize)), "
                + "\(Workload.format(updates)) updates of one message, each its own commit, each giving the message a new "
                + "timestamp (\(across) of them also a new conversation). \(clock.rawValue) time per commit (median of \(runs) "
                + "of the mean over the updates); elapsed time in parentheses. The hand diff reads the key list of the "
                + "affected conversation(s) again after the commit and diffs it with the list held "
                + "(`CollectionDifference`, moves inferred).")
        lines.append("")
        lines += tableHeader(Engine.allCases.map(\.rawValue), corner: "Per commit")
        func cell(_ value: Double, _ wall: Double) -> String {
            value.isFinite ? "\(formatDuration(value)) (\(formatDuration(wall)))" : "–"
        }
        let engines = Engine.allCases
        lines.append(
            "| write + commit | "
                + engines.map { cell(median(write[$0]), wallMedian(write[$0])) }.joined(separator: " | ") + " |")
        lines.append(
            "| re-query + diff by hand | in the commit | in the commit | – | "
                + [Engine.raw, .grdb].map { cell(median(requery[$0]), wallMedian(requery[$0])) }.joined(separator: " | ")
                + " |")
        func total(_ engine: Engine) -> (Double, Double) {
            let extra = engine.diffsByHand ? (median(requery[engine]), wallMedian(requery[engine])) : (0, 0)
            return (median(write[engine]) + extra.0, wallMedian(write[engine]) + extra.1)
        }
        lines.append("| total | " + engines.map { let t = total($0); return cell(t.0, t.1) }.joined(separator: " | ") + " |")
        let view = total(.troveView).0
        lines.append(
            "| total / Trove + view | " + engines.map { formatRatio(total($0).0 / view) }.joined(separator: " | ") + " |")
        lines.append(
            "| database pages per commit (WAL frames), mean / max | "
                + engines.map { engine in
                    let frames = walFrames[engine] ?? []
                    return frames.isEmpty ? "–" : "\(String(format2: Self.mean(frames))) / \(frames.max()!)"
                }.joined(separator: " | ") + " |")
        lines.append("")
        lines.append(
            "Rows 0..<\(ViewFixtures.pageLength) of a conversation, the items decoded, each read in a read transaction of "
                + "its own, \(fixtures.readGroups.count) reads over the conversations in turn: \(clock.rawValue) time per read "
                + "(elapsed), median of \(runs).")
        lines.append("")
        lines.append(
            "| Read rows 0..<50 | Trove view `items(in:range:)` | Trove in-memory view | raw SQLite `ORDER BY … LIMIT 50` | "
                + "GRDB `order(…).limit(50)` |")
        lines.append("|---|---:|---:|---:|---:|")
        let readers: [Engine] = [.troveView, .troveMemoryView, .raw, .grdb]
        lines.append(
            "| per read | " + readers.map { cell(median(top[$0]), wallMedian(top[$0])) }.joined(separator: " | ") + " |")
        lines.append(
            "| / raw SQLite | " + readers.map { formatRatio(median(top[$0]) / median(top[.raw])) }
                .joined(separator: " | ") + " |")
        lines.append("")
        let log2Size = log2(Double(groupSize))
        lines.append(
            "The promise, per update with the view (\(Workload.format(closureCalls.count)) updates over \(runs); a "
                + "comparison of two rows calls the sort closure once, twice when the first call says no; "
                + "log2 of a conversation's \(Workload.format(groupSize)) rows = \(String(format2: log2Size))):")
        lines.append("")
        lines.append("| Per update | mean | median | p99 | max |")
        lines.append("|---|---:|---:|---:|---:|")
        func row(_ title: String, _ values: [Int]) -> String {
            guard !values.isEmpty else { return "| \(title) | – | – | – | – |" }
            return "| \(title) | \(String(format2: Self.mean(values))) | \(Self.percentile(values, 0.5)) | "
                + "\(Self.percentile(values, 0.99)) | \(values.max()!) |"
        }
        lines.append(row("sort-closure calls", closureCalls))
        lines.append(row("… moves within a conversation", closureCallsWithin))
        lines.append(row("… moves to another conversation", closureCallsAcross))
        lines.append(row("view pages written (rows of the pages table inserted, updated, deleted; first run)", pageWrites.map(\.pagesWritten)))
        lines.append(row("view map rows changed (first run)", pageWrites.map(\.mapRowsChanged)))
        lines.append(row("database pages written (WAL frames), Trove + view", walFrames[.troveView] ?? []))
        lines.append(row("database pages written (WAL frames), Trove, no view", walFrames[.trove] ?? []))
        lines.append("")
        if !scaling.isEmpty {
            lines.append("")
            lines.append(
                "Scaling: the same kind of updates with the view alone (untimed, \(options.isSmoke ? 50 : 300) updates each), "
                    + "\(Workload.format(fixtures.messages.count)) messages in conversations of growing size; means per update.")
            lines.append("")
            lines.append("| Conversation size | log2(size) | sort-closure calls | view pages written | database pages (WAL frames) |")
            lines.append("|---:|---:|---:|---:|---:|")
            for probe in scaling {
                lines.append(
                    "| \(Workload.format(probe.groupSize)) | \(String(format2: log2(Double(probe.groupSize)))) | "
                        + "\(String(format2: probe.calls)) | \(String(format2: probe.pages)) | \(String(format2: probe.frames)) |")
            }
            lines.append("")
        }
        lines.append("View pages written per commit, how many commits wrote each number: \(Self.distribution(pageWrites.map(\.pagesWritten))).")
        let diffs = [Engine.raw, .grdb].compactMap { engine in diffChanges[engine].map { "\(engine.rawValue) \($0)" } }
        lines.append(
            "Checked: every conversation's keys and rows 0..<50 in the view and in the SQL equal the brute-force model's "
                + "after the updates; changes found by the hand diffs (first run): \(diffs.joined(separator: ", ")).")
        lines += footprintTable()
        return lines
    }

    /// Peak memory of each phase, size on disk after the setup and after the commits (issue 29).
    private func footprintTable() -> [String] {
        guard options.measuresFootprint else { return [] }
        let titles: [Phase: String] = [
            .setup: "insert \(Workload.format(fixtures.messages.count)) messages + register the view (untimed)",
            .commits: "\(Workload.format(fixtures.updates.count)) commits (raw, GRDB: with the re-query and diff)",
            .reads: "\(Workload.format(fixtures.readGroups.count)) reads of rows 0..<\(ViewFixtures.pageLength)",
        ]
        let engines = Engine.allCases
        var lines = ["", "### Views: peak memory and size on disk per phase, same runs"]
        lines += footprintTables(
            columns: engines.map(\.rawValue),
            rows: Phase.allCases.map { phase in (titles[phase]!, engines.map { footprints[$0]?[phase] }) })
        return lines
    }
}

extension Options.Clock {
    /// The median of `timing` by this clock (NaN when there is none).
    func median(_ timing: ViewSuite.Timing?) -> Double {
        guard let timing else { return .nan }
        return self == .cpu ? timing.cpu.median : timing.wall.median
    }

    /// A table cell: the median of `timing` by this clock, then the elapsed median in parentheses
    /// ("–" when there is none).
    func cell(_ timing: ViewSuite.Timing?) -> String {
        guard let timing else { return "–" }
        return "\(formatDuration(median(timing))) (\(formatDuration(timing.wall.median)))"
    }
}
