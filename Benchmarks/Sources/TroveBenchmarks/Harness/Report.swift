import CSQLiteBenchmark
import Foundation

/// Prints the results as Markdown tables: what BENCHMARKS.md shows.
struct Report {
    let options: Options
    let fixtures: Fixtures
    let database: DatabaseSuite?
    let coders: CoderSuite?
    let memory: MemoryProbe?
    let observation: ObservationSuite?

    func print() {
        var lines: [String] = []
        lines.append("# Trove benchmarks")
        lines.append("")
        lines.append(
            "N = \(Workload.format(options.count)), median of \(options.runsPhrase); "
                + "ratio = median time / median time of the baseline in the same run (lower is faster). "
                + "SQLite \(String(cString: sqlite3_libversion())), \(Self.machine).")
        if let database {
            lines += databaseTables(database)
        }
        if let coders {
            lines += coderTables(coders)
        }
        if let memory {
            lines += memoryTable(memory)
        }
        if let observation {
            lines += observationTable(observation)
        }
        lines += targets()
        Swift.print(lines.joined(separator: "\n"))
    }

    private static var machine: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var model = "unknown CPU"
        if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return "\(cores) cores, \(model)"
    }

    // MARK: Tables

    private var clockName: String {
        options.clock == .cpu ? "CPU time of the process" : "elapsed time"
    }

    private var otherClockName: String {
        options.clock == .cpu ? "elapsed time" : "CPU time of the process"
    }

    private func databaseTables(_ suite: DatabaseSuite) -> [String] {
        var lines = ["", "## Database workloads (\(clockName))", ""]
        lines += databaseTable(suite.samples, withSpread: options.runs > 1)
        lines += ["", "### The same runs in \(otherClockName)", ""]
        lines += databaseTable(suite.otherSamples, withSpread: false)
        lines += indexCostTable(suite.samples)
        lines += footprintTable(suite)
        return lines
    }

    /// Peak memory and size on disk of every workload, same runs (issue 29).
    private func footprintTable(_ suite: DatabaseSuite) -> [String] {
        guard !suite.footprints.isEmpty else { return [] }
        let implementations = options.implementations
        var lines = ["", "### Peak memory and size on disk per workload, same runs"]
        lines += footprintTables(
            columns: implementations.map(\.title),
            rows: options.workloads.map { workload in
                (workload.title(fixtures: fixtures), implementations.map { suite.footprints[$0]?[workload] })
            })
        return lines
    }

    /// What the index costs each implementation: the ratio of a workload with the index to the
    /// same workload without it, medians of the same run; and the first registration, which
    /// fills the index, against the registration of the unchanged index at reopen.
    private func indexCostTable(_ samples: [Implementation: [Workload: Samples]]) -> [String] {
        let pairs: [(title: String, with: Workload, without: Workload)] = [
            ("insert \(Workload.format(options.count)): with the index / without", .indexInsert, .insert),
            ("update \(Workload.format(options.count / 10)) (10%): with the index / without", .indexUpdate, .update),
            ("first registration / reopen with the index unchanged", .indexPopulate, .indexReopen),
        ]
        let selected = pairs.filter { options.workloads.contains($0.with) && options.workloads.contains($0.without) }
        guard !selected.isEmpty else { return [] }
        let implementations = options.implementations
        var lines = ["", "### What the index costs each implementation, same run (ratios of medians, \(clockName))", ""]
        lines.append("| Ratio | " + implementations.map(\.title).joined(separator: " | ") + " |")
        lines.append("| --- |" + String(repeating: " ---: |", count: implementations.count))
        for pair in selected {
            let cells = implementations.map { implementation -> String in
                guard let with = samples[implementation]?[pair.with]?.median,
                    let without = samples[implementation]?[pair.without]?.median
                else { return "–" }
                return formatRatio(with / without)
            }
            lines.append("| \(pair.title) | " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    private func databaseTable(_ samples: [Implementation: [Workload: Samples]], withSpread: Bool) -> [String] {
        let implementations = options.implementations
        var lines: [String] = []
        lines.append("| Workload | " + implementations.map(\.title).joined(separator: " | ") + " |")
        lines.append("| --- |" + String(repeating: " ---: |", count: implementations.count))
        var spreadLines: [String] = []
        for workload in options.workloads {
            let base = samples[.baseline]?[workload]?.median
            var cells: [String] = []
            var spreads: [String] = []
            for implementation in implementations {
                guard let samples = samples[implementation]?[workload] else {
                    cells.append("–")
                    spreads.append("–")
                    continue
                }
                var cell = formatDuration(samples.median)
                if let base, implementation != .baseline {
                    cell += " · " + formatRatio(samples.median / base)
                }
                cells.append(cell)
                spreads.append("±\(Int((samples.spread * 100).rounded()))%")
            }
            let title = workload.title(fixtures: fixtures)
            lines.append("| \(title) | " + cells.joined(separator: " | ") + " |")
            spreadLines.append("| \(workload.rawValue) | " + spreads.joined(separator: " | ") + " |")
        }
        if withSpread {
            lines += ["", "Run-to-run spread (half the range of the samples, relative to the median):", ""]
            lines.append("| Workload | " + implementations.map(\.shortTitle).joined(separator: " | ") + " |")
            lines.append("| --- |" + String(repeating: " ---: |", count: implementations.count))
            lines += spreadLines
        }
        return lines
    }

    private func coderTables(_ suite: CoderSuite) -> [String] {
        var lines = ["", "## Coders alone, no database (\(clockName))", ""]
        let kinds = CoderKind.allCases
        lines.append("| Operation | " + kinds.map(\.title).joined(separator: " | ") + " |")
        lines.append("| --- |" + String(repeating: " ---: |", count: kinds.count))
        for operation in CoderOperation.allCases {
            let base = suite.samples[.handWritten]?[operation]?.median
            let cells = kinds.map { kind -> String in
                guard let samples = suite.samples[kind]?[operation] else { return "–" }
                var cell = formatDuration(samples.median)
                if let base, kind != .handWritten { cell += " · " + formatRatio(samples.median / base) }
                return cell
            }
            lines.append("| \(operation.title(count: options.count)) | " + cells.joined(separator: " | ") + " |")
        }
        let sizes = kinds.map { kind in
            suite.sizes[kind].map { String(format1: Double($0) / Double(max(options.count, 1))) + " bytes" } ?? "–"
        }
        lines.append("| mean encoded size (user + metadata) | " + sizes.joined(separator: " | ") + " |")
        return lines
    }

    private func memoryTable(_ probe: MemoryProbe) -> [String] {
        let implementations = options.implementations
        var lines = ["", "## Memory of read-all (one child process per implementation)", ""]
        lines.append("| | " + implementations.map(\.title).joined(separator: " | ") + " |")
        lines.append("| --- |" + String(repeating: " ---: |", count: implementations.count))
        let peaks = implementations.map { probe.results[$0].map { formatBytes($0.peak) } ?? "–" }
        let growths = implementations.map { probe.results[$0].map { formatBytes($0.growth) } ?? "–" }
        lines.append("| peak resident memory | " + peaks.joined(separator: " | ") + " |")
        lines.append("| growth while reading all \(Workload.format(options.count)) | " + growths.joined(separator: " | ") + " |")
        return lines
    }

    private func observationTable(_ suite: ObservationSuite) -> [String] {
        var lines = ["", "## Observation (issue 11)", ""]
        lines.append(
            "Commits of one user each (\(Workload.format(suite.commits)) per run); "
                + "time per commit, median of the runs.")
        lines.append("")
        let observations = ObservationSuite.observationCount
        lines.append("| | no observation | \(observations) observations of other collections | ratio |")
        lines.append("| --- | ---: | ---: | ---: |")
        for (name, samples) in [("CPU time", suite.idleCPU), ("elapsed time", suite.idleWall)] {
            let without = samples.without.median
            let with = samples.with.median
            lines.append(
                "| \(name) per commit | \(formatDuration(without)) | \(formatDuration(with)) | "
                    + "\(formatRatio(with / without)) |")
        }
        lines.append("")
        lines.append(
            "Latency from commit to observed value, one observation, \(Workload.format(suite.latencies.count)) commits "
                + "(elapsed time, from before the write transaction to the value returned by `next()`):")
        lines.append("")
        lines.append("| median | p99 | max |")
        lines.append("| ---: | ---: | ---: |")
        let latencies = suite.latencies
        lines.append(
            "| \(formatDuration(latencies.percentile(0.5))) | \(formatDuration(latencies.percentile(0.99))) | "
                + "\(formatDuration(latencies.max() ?? .nan)) |")
        return lines
    }

    // MARK: Targets

    private func targets() -> [String] {
        var lines = ["", "## Targets", ""]
        if options.isSmoke {
            lines.append("Not judged: a smoke run (N = \(Workload.format(options.count)), one run) is too small to say anything about speed.")
            return lines
        }
        func mark(_ met: Bool) -> String { met ? "met" : "**missed**" }
        if let suite = database {
            func median(_ implementation: Implementation, _ workload: Workload) -> Double? {
                suite.samples[implementation]?[workload]?.median
            }
            for workload in options.workloads {
                guard let trove = median(.trove, workload) else { continue }
                var parts: [String] = []
                if let base = median(.baseline, workload), let target = workload.targetRatio {
                    let ratio = trove / base
                    if workload.isCached {
                        parts.append("≥ 2× faster than the baseline: \(String(format2: base / trove))× faster, \(mark(base / trove >= 2))")
                    }
                    parts.append(
                        "within \(String(format1: target))× of the baseline: \(formatRatio(ratio)), \(mark(ratio <= target))")
                }
                if workload.targetRatio != nil {
                    // Without items to decode, the JSON implementation is the baseline's SQL: no target.
                    for other in workload.decodesNoItem ? [Implementation.grdb] : [.grdb, .json] {
                        if let time = median(other, workload) {
                            parts.append("faster than \(other.shortTitle): \(String(format2: time / trove))× faster, \(mark(trove < time))")
                        }
                    }
                }
                if workload == .indexReopen {
                    parts.append("\(formatDuration(trove)) (milliseconds, not a rescan: \(mark(trove < 0.1)))")
                    if let populate = median(.trove, .indexPopulate) {
                        parts.append("\(String(format1: populate / trove))× faster than the first registration")
                    }
                }
                if !parts.isEmpty {
                    lines.append("- \(workload.rawValue): " + parts.joined(separator: "; "))
                }
            }
        }
        if let suite = coders {
            for operation in CoderOperation.allCases {
                guard let generated = suite.samples[.generated]?[operation]?.median else { continue }
                var parts: [String] = []
                if let handWritten = suite.samples[.handWritten]?[operation]?.median {
                    let ratio = generated / handWritten
                    parts.append("within 1.3× of hand-written: \(formatRatio(ratio)), \(mark(ratio <= 1.3))")
                }
                if let json = suite.samples[.json]?[operation]?.median {
                    parts.append("≥ 5× faster than JSON: \(String(format2: json / generated))× faster, \(mark(json / generated >= 5))")
                }
                lines.append("- coder \(operation.rawValue): " + parts.joined(separator: "; "))
            }
        }
        return lines
    }
}
