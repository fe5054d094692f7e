import Foundation
import Trove

/// The command line of `trove-benchmarks`.
struct Options {
    var count = 100_000
    var runs = 5
    var implementations = Implementation.allCases
    var workloads = Workload.allCases
    var includeCoders = true
    var includeMemory = true
    /// Whether every timed workload's peak memory and size on disk are measured (issue 29).
    var includeFootprint = true
    /// Whether the server concurrency workloads run (issue 13).
    var includeConcurrency = true
    var includeObservation = true
    /// Whether the full-text search suite runs (issue 14).
    var includeSearch = true
    /// Whether the views benchmark runs (issue 15).
    var includeViews = true
    /// Whether the relationships benchmark runs (issue 16).
    var includeRelationships = true
    /// Whether the spatial index benchmark runs (issue 32).
    var includeSpatial = true
    /// Whether the edges-to-files benchmark runs (issue 32).
    var includeFileEdges = true
    /// Whether the PostgreSQL suite runs, with the package trait `Postgres` (issue 18).
    var includePostgres = true
    /// Whether the sync suite runs, with the package trait `Postgres` (issue 33).
    var includeSync = true
    /// The changes the sync suite's memory workload pulls (issue 33); a smoke run pulls 2,000.
    var syncPullCount = 1_000_000

    /// The key of every Trove database the suites open: `nil`, except in the encrypted pass of
    /// the suites (issue 34, `--implementations …,troveEncrypted`), which runs their Trove
    /// engines alone, on encrypted files, for the table "Encryption: every workload".
    var troveKey: EncryptionKey? { trovePassphrase.map(EncryptionKey.passphrase) }
    /// The passphrase of ``troveKey``, which a raw SQLite connection to the same file gives
    /// with `PRAGMA key` (``checkpointTruncating(_:passphrase:)``).
    var trovePassphrase: String?
    /// Whether this is the encrypted pass: Trove's engines only, no probes, no tables.
    var isEncryptedPass: Bool { trovePassphrase != nil }

    /// The number of runs, in words for a table's caption: "1 run", "3 runs".
    var runsPhrase: String { "\(runs) run\(runs == 1 ? "" : "s")" }
    var warmUp = true
    var isSmoke = false
    var directory = NSTemporaryDirectory()
    var clock = Clock.cpu
    var profiledImplementation: Implementation?
    /// The profiled workloads: one, several, or all of them with `--profile <impl>:all`.
    var profiledWorkloads: Set<Workload> = []
    /// The profiled workloads of Trove in the other suites (`--profile trove:search-word,…`).
    var profiledSuiteWorkloads: Set<SuiteWorkload> = []
    /// Whether each coder operation is a profile of its own (`--profile coders`).
    var profilesCoders = false
    /// The N of the enumeration probe (issue 12); empty skips it, except in a smoke run.
    var enumerationCounts: [Int] = []

    /// What a sample measures.
    enum Clock: String {
        /// CPU time of the process, all threads (`CLOCK_PROCESS_CPUTIME_ID`): what the work costs,
        /// nearly unaffected by other processes competing for the cores.
        case cpu
        /// Elapsed time (`CLOCK_MONOTONIC`): what a user waits, including time spent waiting for a
        /// core or the disk.
        case wall
    }

    static let usage = """
        USAGE: trove-benchmarks [options]

        Runs Trove, raw SQLite with a hand-written coder (the baseline), GRDB and raw SQLite with
        Codable+JSON through the same workloads, several times, and prints the median time of each
        and its ratio to the baseline measured in the same run. See BENCHMARKS.md.

        OPTIONS:
          --count <n>               Items per workload (default: 100000).
          --runs <n>                Timed runs; the tables show medians (default: 5).
          --implementations <list>  Comma-separated, from: \(Implementation.allCases.map(\.rawValue).joined(separator: ", ")) (default: all).
          --workloads <list>        Comma-separated, from: \(Workload.allCases.map(\.rawValue).joined(separator: ", ")) (default: all).
                                    index-* are the index workloads, on a database whose users are indexed by
                                    age and by email (unique); their ratios to insert and update are printed too.
                                    Unselected reads are skipped; unselected writes still run, untimed, to set
                                    up the ones that follow.
          --no-database             Skip the database workloads.
          --no-coders               Skip the coder-only benchmark.
          --no-memory               Skip the peak-memory probe.
          --no-footprint            Skip the peak memory and size on disk of every workload (and the allocator trim
                                    before each workload that the peak needs: for time alone).
          --no-concurrency          Skip the server concurrency workloads (point reads from 1, 2, 8, 64 tasks
                                    and a 90/10 mix, Trove's pool against GRDB's DatabasePool).
          --no-observation          Skip the observation benchmark (commit cost of 100 idle observations,
                                    latency from commit to observed value).
          --no-search               Skip the full-text search benchmark (indexing N documents, one-word, prefix and
                                    phrase queries, Trove against raw SQLite FTS5 and GRDB; a smoke run indexes 300).
          --no-views                Skip the views benchmark (N messages in 100 conversations, 1,000 single-message updates
                                    that move a message: Trove with a View, without, and raw SQLite and GRDB re-querying and
                                    diffing the conversation by hand; reading rows 0..<50; comparisons and page writes per update).
          --no-relationships        Skip the relationships benchmark (deleting an author whose N/10 posts cascade, Trove
                                    Relationships against an ON DELETE CASCADE foreign key in raw SQLite and GRDB; writing
                                    N/10 posts with and without the relationship).
          --no-spatial              Skip the spatial index benchmark (1,000 box queries and 1,000 nearest-20 queries over N
                                    points: Trove's SpatialIndex against raw SQLite's R*Tree by hand and a scan of every row).
          --no-file-edges           Skip the edges-to-files benchmark (removing N/10 authors, 100 per transaction, each
                                    with a file: Trove's file edges against removing the files by hand after each commit,
                                    in Trove, raw SQLite and GRDB).
          --no-postgres             With the trait Postgres: skip the PostgreSQL suite (issue 18).
          --no-sync                 With the trait Postgres: skip the sync suite (issue 33).
          --sync-pull <n>           The changes the sync suite pulls into a fresh replica while its memory is
                                    sampled (default 1000000; a smoke run pulls 2,000).
          --no-warm-up              Skip the small untimed pass before the timed runs.
          --directory <path>        Where the databases are created (default: the temporary folder).
          --clock <cpu|wall>        The clock of the main table (default: cpu, the process's CPU time, which a
                                    busy machine disturbs far less than elapsed time); the other is shown too.
          --enumeration <list>      Also walk every user of N users (comma-separated N, as 100000,1000000) by cursor,
                                    enumerate, all() and raw SQLite, one child process each: time and peak memory
                                    (see BENCHMARKS.md, "Enumeration (issue 12)"). A smoke run walks 1,000.
          --smoke                   A quick check that everything runs (CI): --count 1000 --runs 1 --no-warm-up.
                                    Speed targets are not judged.
          --profile <impl>:<workload,…|all> | --profile coders
                                    Under valgrind --tool=callgrind, count only those workloads (all: every database
                                    workload) of that implementation, one profile per workload, named after it and
                                    its number of operations; or each coder operation (see Scripts/instructions.sh).
                                    Only the profiled workloads run (and the writes they need, untimed). For trove,
                                    the workloads of the other suites too: \(SuiteWorkload.allCases.map(\.rawValue).joined(separator: ", ")).
          -h, --help                Show this help.

        ENVIRONMENT:
          TROVE_BENCHMARK_UNKNOWN_FIELDS=1  Trove first reads an item with a field its coder does not know,
                                    so that every write keeps unknown fields (one more point read each).
        """

    init(arguments: [String]) throws {
        var arguments = arguments[...]
        func value(for option: String) throws -> String {
            guard let value = arguments.popFirst() else { throw BenchmarkError("\(option) needs a value") }
            return value
        }
        func positive(_ option: String) throws -> Int {
            let text = try value(for: option)
            guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number > 0 else {
                throw BenchmarkError("\(option) needs a positive integer, not \(text)")
            }
            return number
        }
        func list<T: RawRepresentable>(_ option: String, of type: T.Type) throws -> [T] where T.RawValue == String {
            try value(for: option).split(separator: ",").map { name in
                guard let item = T(rawValue: String(name)) else { throw BenchmarkError("\(option): unknown \(name)") }
                return item
            }
        }
        var hasChosenWorkloads = false
        var hasChosenImplementations = false
        while let argument = arguments.popFirst() {
            switch argument {
            case "--count", "-n": count = try positive(argument)
            case "--runs": runs = try positive(argument)
            case "--implementations":
                let chosen = Set(try list(argument, of: Implementation.self))
                implementations = Implementation.allCases.filter(chosen.contains)
                hasChosenImplementations = true
            case "--workloads":
                let chosen = Set(try list(argument, of: Workload.self))
                workloads = Workload.allCases.filter(chosen.contains)
                hasChosenWorkloads = true
            case "--no-database":
                workloads = []
                hasChosenWorkloads = true
            case "--no-coders": includeCoders = false
            case "--no-memory": includeMemory = false
            case "--no-footprint": includeFootprint = false
            case "--no-concurrency": includeConcurrency = false
            case "--no-observation": includeObservation = false
            case "--no-search": includeSearch = false
            case "--no-views": includeViews = false
            case "--no-relationships": includeRelationships = false
            case "--no-spatial": includeSpatial = false
            case "--no-file-edges": includeFileEdges = false
            case "--no-postgres": includePostgres = false
            case "--no-sync": includeSync = false
            case "--sync-pull": syncPullCount = try positive(argument)
            case "--no-warm-up": warmUp = false
            case "--directory": directory = try value(for: argument)
            case "--clock":
                let name = try value(for: argument)
                guard let chosen = Clock(rawValue: name) else { throw BenchmarkError("--clock takes cpu or wall, not \(name)") }
                clock = chosen
            case "--enumeration":
                let text = try value(for: argument)
                enumerationCounts = try text.split(separator: ",").map { part in
                    guard let number = Int(part.replacingOccurrences(of: "_", with: "")), number > 0 else {
                        throw BenchmarkError("--enumeration takes positive integers, not \(text)")
                    }
                    return number
                }
            case "--smoke":
                isSmoke = true
                count = 1_000
                syncPullCount = 2_000
                runs = 1
                warmUp = false
            case "--profile":
                if arguments.first == "coders" {
                    _ = arguments.popFirst()
                    profilesCoders = true
                    continue
                }
                let parts = try value(for: argument).split(separator: ":").map(String.init)
                guard parts.count == 2, let implementation = Implementation(rawValue: parts[0]) else {
                    throw BenchmarkError("--profile takes <implementation>:<workload,…|all>, as trove:read-each")
                }
                profiledImplementation = implementation
                for name in parts[1].split(separator: ",").map(String.init) {
                    if name == "all" {
                        profiledWorkloads.formUnion(Workload.allCases)
                    } else if let workload = Workload(rawValue: name) {
                        profiledWorkloads.insert(workload)
                    } else if let workload = SuiteWorkload(rawValue: name), implementation == .trove {
                        profiledSuiteWorkloads.insert(workload)
                    } else {
                        throw BenchmarkError("--profile: unknown workload \(name) of \(implementation.rawValue); see --help")
                    }
                }
                // Only the profiled database workloads run (the writes before them untimed).
                if !hasChosenWorkloads { workloads = Workload.allCases.filter(profiledWorkloads.contains) }
                if !hasChosenImplementations { implementations = [implementation] }
            case "-h", "--help":
                print(Self.usage)
                exit(0)
            default:
                throw BenchmarkError("unknown argument \(argument); see --help")
            }
        }
    }
}
