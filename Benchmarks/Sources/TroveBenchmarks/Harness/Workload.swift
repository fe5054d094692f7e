/// The database workloads, in the order they run on one fresh database: reads first, on the N
/// inserted users, then the writes. The index workloads follow on another fresh database, whose
/// users are indexed by age and by email (unique).
enum Workload: String, CaseIterable {
    case insert
    case readAll = "read-all"
    case readEach = "read-each"
    case readBatch = "read-batch"
    case cachedEach = "cached-each"
    case cachedBatch = "cached-batch"
    case metadata
    case update
    case delete
    case writeEach = "write-each"
    case indexInsert = "index-insert"
    case indexEqual = "index-equal"
    case indexRange = "index-range"
    case indexPageEqual = "index-page-equal"
    case indexPageRange = "index-page-range"
    case indexPageSorted = "index-page-sorted"
    case indexAggregate = "index-aggregate"
    case indexUpdate = "index-update"
    case indexPopulate = "index-populate"
    case indexReopen = "index-reopen"

    /// The row title of the table.
    func title(fixtures: Fixtures) -> String {
        let count = fixtures.users.count
        let singleWrites = fixtures.singleWrites.count
        let n = Self.format(count)
        switch self {
        case .insert: return "insert \(n), one transaction"
        case .readAll: return "read all \(n), one transaction"
        case .readEach: return "\(n) point reads, each its own transaction"
        case .readBatch: return "\(n) point reads, one transaction"
        case .cachedEach: return "\(n) point reads (Trove cache warm), each its own transaction"
        case .cachedBatch: return "\(n) point reads (Trove cache warm), one transaction"
        case .metadata: return "\(n) metadata-only reads, one transaction"
        case .update: return "update \(Self.format(count / 10)) (10%), one transaction"
        case .delete: return "delete \(Self.format((count + 4) / 10)) (10%), one transaction"
        case .writeEach: return "\(Self.format(singleWrites)) writes of one item, each its own transaction"
        case .indexInsert: return "index: insert \(n), two indexes, one transaction"
        case .indexEqual:
            return "index: \(fixtures.equalityAges.count) equality queries (age = x), each ~1% as items, each its own transaction"
        case .indexRange:
            return "index: \(fixtures.ageRanges.count) range queries (age in x..<x+2), each ~1% as items, each its own transaction"
        case .indexPageEqual:
            return "index: \(fixtures.pageAges.count) equality queries (age = x), first \(fixtures.pageLimit) by key, each its own transaction"
        case .indexPageRange:
            return "index: \(fixtures.pageAges.count) range queries (age in x..<x+2), first \(fixtures.pageLimit) by key, each its own transaction"
        case .indexPageSorted:
            return "index: \(fixtures.pageAges.count) equality queries (age = x) sorted by email, first \(fixtures.pageLimit), each its own transaction"
        case .indexAggregate:
            return "index: \(Self.format(fixtures.pageAges.count)) sums and grouped counts (age in x..<x+10), no item read, each its own transaction"
        case .indexUpdate: return "index: update \(Self.format(count / 10)) (10%), one transaction"
        case .indexPopulate: return "index: first registration over \(n) items (fills the index)"
        case .indexReopen: return "index: reopen with the index unchanged (open + registration)"
        }
    }

    /// The operations of one run of the workload, by which a profile's count is divided: items,
    /// queries for index-equal and index-range, one registration or reopen.
    func operations(fixtures: Fixtures) -> Int {
        switch self {
        case .insert, .readAll, .readEach, .readBatch, .cachedEach, .cachedBatch, .metadata, .indexInsert:
            fixtures.users.count
        case .update, .indexUpdate: fixtures.updates.count
        case .delete: fixtures.deleteKeys.count
        case .writeEach: fixtures.singleWrites.count
        case .indexEqual: fixtures.equalityAges.count
        case .indexRange: fixtures.ageRanges.count
        case .indexPageEqual, .indexPageRange, .indexPageSorted, .indexAggregate: fixtures.pageAges.count
        case .indexPopulate, .indexReopen: 1
        }
    }

    /// Whether the workload runs on the indexed database (``IndexedBenchmarkStore``).
    var isIndexed: Bool { rawValue.hasPrefix("index-") }

    /// Whether the workload only reads, or leaves the database as it found it: when it is not
    /// selected, it is skipped; the writes run, untimed, to set up the workloads that follow.
    var isSkippable: Bool {
        switch self {
        case .insert, .update, .delete, .writeEach, .indexInsert, .indexUpdate: false
        default: true
        }
    }

    /// The most Trove may take, relative to the baseline: 1.2× on the plain workloads (issue 4),
    /// 1.3× on the index workloads (issue 10); `nil` when no target applies.
    var targetRatio: Double? {
        switch self {
        case .indexInsert, .indexEqual, .indexRange, .indexUpdate: 1.3
        case .indexPopulate, .indexReopen: nil
        case .indexPageEqual, .indexPageRange, .indexPageSorted, .indexAggregate: 1.2
        default: 1.2
        }
    }

    /// Whether the workload reads values from the index alone and decodes no item: the coder of
    /// an implementation plays no part.
    var decodesNoItem: Bool { self == .indexAggregate }

    /// Whether Trove must beat the baseline by 2x here (its cache holds every item).
    var isCached: Bool { self == .cachedEach || self == .cachedBatch }

    /// Runs the workload once, untimed preparation apart. Returns what the reads found.
    func run(on store: any BenchmarkStore, fixtures: Fixtures) throws -> Checksum? {
        switch self {
        case .insert:
            try store.insert(fixtures.users)
            return nil
        case .readAll:
            var checksum = Checksum()
            for user in try store.readAll() { checksum.add(user) }
            return checksum
        case .readEach: return try store.readEach(fixtures.readKeys)
        case .readBatch: return try store.readBatch(fixtures.readKeys)
        case .cachedEach: return try store.readEachCached(fixtures.readKeys)
        case .cachedBatch: return try store.readBatchCached(fixtures.readKeys)
        case .metadata: return try store.readMetadata(fixtures.readKeys)
        case .update:
            try store.update(fixtures.updates)
            return nil
        case .delete:
            try store.delete(fixtures.deleteKeys)
            return nil
        case .writeEach:
            try store.writeEach(fixtures.singleWrites)
            return nil
        case .indexInsert, .indexEqual, .indexRange, .indexPageEqual, .indexPageRange, .indexPageSorted, .indexAggregate,
            .indexUpdate, .indexPopulate, .indexReopen:
            throw BenchmarkError("\(rawValue) runs on the indexed store")
        }
    }

    /// The checksum of the users that `query` returns for each of `arguments`, one query each.
    private static func checksum<Argument>(of arguments: [Argument], _ query: (Argument) throws -> [User]) rethrows
        -> Checksum
    {
        var checksum = Checksum()
        for argument in arguments {
            for user in try query(argument) { checksum.add(user) }
        }
        return checksum
    }

    /// Runs an index workload once, untimed preparation apart. Returns what the queries found.
    func run(on store: any IndexedBenchmarkStore, fixtures: Fixtures) throws -> Checksum? {
        switch self {
        case .indexInsert:
            try store.insert(fixtures.users)
            return nil
        case .indexEqual: return try Self.checksum(of: fixtures.equalityAges) { try store.users(age: $0) }
        case .indexRange: return try Self.checksum(of: fixtures.ageRanges) { try store.users(ages: $0) }
        case .indexPageEqual:
            return try Self.checksum(of: fixtures.pageAges) { try store.page(age: $0, limit: fixtures.pageLimit) }
        case .indexPageRange:
            return try Self.checksum(of: fixtures.pageAges) {
                try store.page(ages: $0..<($0 + 2), limit: fixtures.pageLimit)
            }
        case .indexPageSorted:
            return try Self.checksum(of: fixtures.pageAges) {
                try store.pageSortedByEmail(age: $0, limit: fixtures.pageLimit)
            }
        case .indexAggregate:
            var checksum = Checksum()
            for age in fixtures.pageAges {
                checksum.add(try store.ageAggregates(ages: age..<(age + 10)))
            }
            return checksum
        case .indexUpdate:
            try store.update(fixtures.updates)
            return nil
        case .indexPopulate:
            try store.addIndex()
            return nil
        case .indexReopen:
            try store.reopen()
            return nil
        default:
            throw BenchmarkError("\(rawValue) runs on the store without an index")
        }
    }

    /// Untimed work that must happen right before the workload.
    func prepare(_ store: any BenchmarkStore, fixtures: Fixtures) throws {
        if self == .cachedEach || self == .cachedBatch {
            try store.prepareCachedReads(fixtures.readKeys)
        }
    }

    /// Untimed work that must happen right before an index workload.
    func prepare(_ store: any IndexedBenchmarkStore) throws {
        switch self {
        case .indexPopulate: try store.dropIndex()
        case .indexReopen: try store.close()
        default: break
        }
    }

    /// `100000` as `100,000`.
    static func format(_ count: Int) -> String {
        var digits = String(count.magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return count < 0 ? "-" + digits : digits
    }
}
