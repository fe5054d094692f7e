import CCallgrind

/// The workloads of the suites other than the database suite, which `--profile trove:<name>`
/// counts with callgrind (Scripts/instructions.sh), one profile each: Trove's, and for the view
/// reads and the cascades raw SQLite's and GRDB's too. Only the implementations of the profiled
/// workloads run.
enum SuiteWorkload: String, CaseIterable {
    /// Full-text search: indexing the documents (per document).
    case searchIndex = "search-index"
    /// Full-text search: one-word, prefix and phrase queries, top 20 with a snippet (per query).
    case searchWord = "search-word"
    case searchPrefix = "search-prefix"
    case searchPhrase = "search-phrase"
    /// Views: registering the persistent view over the stored messages, which fills it (per message;
    /// untimed setup in a timed run).
    case viewRegister = "view-register"
    /// Views: one message updated per commit with the persistent view, the in-memory view, and no
    /// view (per commit).
    case viewWrite = "view-write"
    case viewMemoryWrite = "view-memory-write"
    case viewBareWrite = "view-bare-write"
    /// Views: rows 0..<50 of a conversation in a read transaction of their own, persistent and
    /// in-memory view (per read).
    case viewRead = "view-read"
    case viewMemoryRead = "view-memory-read"
    /// Views: the same reads by raw SQLite and GRDB (`ORDER BY … LIMIT 50` on a composite
    /// index), to compare with the two above.
    case viewReadRaw = "view-read-raw"
    case viewReadGRDB = "view-read-grdb"
    /// Relationships: N/10 posts written in one transaction with the relationship and without
    /// (per post); removing the author whose N/10 posts cascade (per post removed); removing N/10
    /// authors whose 10 posts each cascade, in one transaction (per post removed).
    case relationshipWrite = "relationship-write"
    case relationshipWriteBare = "relationship-write-bare"
    case relationshipCascade = "relationship-cascade"
    case relationshipCascadeMany = "relationship-cascade-many"
    /// Relationships: the same two cascades by raw SQLite and GRDB (`ON DELETE CASCADE`).
    case relationshipCascadeRaw = "relationship-cascade-raw"
    case relationshipCascadeGRDB = "relationship-cascade-grdb"
    case relationshipCascadeManyRaw = "relationship-cascade-many-raw"
    case relationshipCascadeManyGRDB = "relationship-cascade-many-grdb"
    /// Observation: commits of one user without observations and with 100 idle ones (per commit);
    /// commits each delivered to one observation before the next (per commit).
    case observeCommit = "observe-commit"
    case observeCommitIdle = "observe-commit-idle"
    case observeLatency = "observe-latency"
    /// Concurrency: N point reads from 1, 2, 8 and 64 tasks through the pool, and N operations from
    /// 64 tasks, 90% reads and 10% writes (per operation).
    case poolRead1 = "pool-read-1"
    case poolRead2 = "pool-read-2"
    case poolRead8 = "pool-read-8"
    case poolRead64 = "pool-read-64"
    case poolMixed64 = "pool-mixed-64"
    /// Enumeration: every user walked by cursor, `enumerate` and `readAll` (per user), in this
    /// process instead of a child.
    case enumerationCursor = "enumeration-cursor"
    case enumerationEnumerate = "enumeration-enumerate"
    case enumerationAll = "enumeration-all"
    /// Spatial index: box queries and nearest-20 queries by Trove's `SpatialIndex` and by raw
    /// SQLite's R*Tree by hand (per query).
    case spatialBox = "spatial-box"
    case spatialNear = "spatial-near"
    case spatialBoxRaw = "spatial-box-raw"
    case spatialNearRaw = "spatial-near-raw"
    /// Edges to files: removing every author, 100 per transaction, and their files, by Trove's file
    /// edge, by hand after Trove's commits, by raw SQLite and by GRDB (per author).
    case fileEdgeRemove = "file-edge-remove"
    case fileEdgeRemoveHand = "file-edge-remove-hand"
    case fileEdgeRemoveRaw = "file-edge-remove-raw"
    case fileEdgeRemoveGRDB = "file-edge-remove-grdb"

    enum Suite {
        case search, views, relationships, observation, concurrency, enumeration, spatial, fileEdges
    }

    var suite: Suite {
        switch self {
        case .searchIndex, .searchWord, .searchPrefix, .searchPhrase: .search
        case .viewRegister, .viewWrite, .viewMemoryWrite, .viewBareWrite, .viewRead, .viewMemoryRead, .viewReadRaw,
            .viewReadGRDB:
            .views
        case .relationshipWrite, .relationshipWriteBare, .relationshipCascade, .relationshipCascadeMany,
            .relationshipCascadeRaw, .relationshipCascadeGRDB, .relationshipCascadeManyRaw, .relationshipCascadeManyGRDB:
            .relationships
        case .observeCommit, .observeCommitIdle, .observeLatency: .observation
        case .poolRead1, .poolRead2, .poolRead8, .poolRead64, .poolMixed64: .concurrency
        case .enumerationCursor, .enumerationEnumerate, .enumerationAll: .enumeration
        case .spatialBox, .spatialNear, .spatialBoxRaw, .spatialNearRaw: .spatial
        case .fileEdgeRemove, .fileEdgeRemoveHand, .fileEdgeRemoveRaw, .fileEdgeRemoveGRDB: .fileEdges
        }
    }
}

extension Options {
    /// Whether this run counts instructions of chosen workloads (`--profile`) rather than timing
    /// everything.
    var isProfiling: Bool { !profiledWorkloads.isEmpty || !profiledSuiteWorkloads.isEmpty || profilesCoders }

    /// Whether `workload` is profiled.
    func profiles(_ workload: SuiteWorkload) -> Bool { profiledSuiteWorkloads.contains(workload) }

    /// Whether a suite runs: always in a timed run; when profiling, only for its profiled workloads.
    func runs(_ suite: SuiteWorkload.Suite) -> Bool {
        !isProfiling || profiledSuiteWorkloads.contains { $0.suite == suite }
    }

    /// Runs `body`, as the profiled region of `workload` when it is profiled.
    func profiled<T>(_ workload: SuiteWorkload, operations: Int, _ body: () throws -> T) rethrows -> T {
        guard profiles(workload) else { return try body() }
        return try profiledRegion(workload.rawValue, operations: operations, body)
    }
}

/// Runs `body` as one region that a callgrind profile counts, every thread included, and dumps
/// that profile described as "`name` `operations`" (Scripts/instructions.sh divides by the
/// operations): run under `valgrind --tool=callgrind` (see CCallgrind/shim.h). Outside valgrind,
/// it only runs `body`.
func profiledRegion<T>(_ name: String, operations: Int, _ body: () throws -> T) rethrows -> T {
    benchmark_callgrind_start()
    defer { benchmark_callgrind_stop("\(name) \(operations)") }
    return try body()
}
