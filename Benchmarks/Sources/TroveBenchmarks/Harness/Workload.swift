/// The database workloads, in the order they run on one fresh database: reads first, on the N
/// inserted users, then the writes.
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

    /// The row title of the table.
    func title(count: Int, singleWrites: Int) -> String {
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
        }
    }

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
        }
    }

    /// Untimed work that must happen right before the workload.
    func prepare(_ store: any BenchmarkStore, fixtures: Fixtures) throws {
        if self == .cachedEach {
            try store.prepareCachedReads(fixtures.readKeys)
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
