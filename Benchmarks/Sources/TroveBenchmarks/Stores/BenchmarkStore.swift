/// One implementation under test: the same model, the same operations, the same file database
/// settings (WAL, `synchronous = NORMAL`).
///
/// Reads return a ``Checksum`` so that the work cannot be optimized away, and so that the
/// harness can check that every implementation found every item.
protocol BenchmarkStore: AnyObject {
    /// Opens the store in `directory`, creating its database file and schema when needed.
    init(directory: String) throws

    /// Inserts every user, in one transaction.
    func insert(_ users: [User]) throws
    /// Reads every user, in one transaction.
    func readAll() throws -> [User]
    /// Reads each key in its own read transaction.
    func readEach(_ keys: [String]) throws -> Checksum
    /// Reads every key in one read transaction.
    func readBatch(_ keys: [String]) throws -> Checksum
    /// Makes the next cached reads hit a warm object cache, when the implementation has one and
    /// it is not warm already.
    func prepareCachedReads(_ keys: [String]) throws
    /// ``readEach(_:)`` after ``prepareCachedReads(_:)``.
    func readEachCached(_ keys: [String]) throws -> Checksum
    /// ``readBatch(_:)`` after ``prepareCachedReads(_:)``.
    func readBatchCached(_ keys: [String]) throws -> Checksum
    /// Reads the metadata alone of every key, in one read transaction.
    func readMetadata(_ keys: [String]) throws -> Checksum
    /// Replaces existing users, in one transaction.
    func update(_ users: [User]) throws
    /// Deletes users by key, in one transaction.
    func delete(_ keys: [String]) throws
    /// Replaces each existing user in its own transaction.
    func writeEach(_ users: [User]) throws
}

extension BenchmarkStore {
    func prepareCachedReads(_ keys: [String]) throws {}
    func readEachCached(_ keys: [String]) throws -> Checksum { try readEach(keys) }
    func readBatchCached(_ keys: [String]) throws -> Checksum { try readBatch(keys) }
}

/// What a read found: a count and a sum over the values, which the harness compares across
/// implementations.
struct Checksum: Equatable, CustomStringConvertible {
    var found = 0
    var sum = 0

    @inline(__always)
    mutating func add(_ user: User) {
        found &+= 1
        sum &+= user.age &+ user.tags.count &+ user.name.utf8.count &+ (user.metadata?.visits ?? 0)
    }

    @inline(__always)
    mutating func add(_ stats: UserStats) {
        found &+= 1
        sum &+= stats.visits
    }

    /// Adds the aggregates of one query: the groups' counts, the sum and each age times its count.
    mutating func add(_ aggregates: AgeAggregates) {
        sum &+= aggregates.sum
        for group in aggregates.counts {
            found &+= group.count
            sum &+= group.age &* 31 &+ group.count
        }
    }

    var description: String { "\(found) found, sum \(sum)" }
}
