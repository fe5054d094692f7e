import Foundation
import Synchronization
import Trove

// The model check of an index's aggregates, groups, distinct values and projections
// (`IndexValueQuery`), written once and run on every engine: seeded random writes, updates,
// removals and removals of the collection, then random index queries, each read compared with
// what a brute-force model (an array of the items) computes.

/// An item with an integer, a real and a text column, each sometimes `nil`, and a small integer
/// to group by.
public struct AggregateSample: Persistable, Codable, Equatable {
    /// Coded through the Codable fallback.
    public typealias Coder = CodableCoder<AggregateSample>
    /// The collection of the items.
    public static let collection = "index-value-samples"
    /// The key.
    public var id: Int
    /// An integer, sometimes `nil`.
    public var amount: Int?
    /// A real number (a multiple of 0.25, so that sums are exact in every order), sometimes `nil`.
    public var ratio: Double?
    /// A text, sometimes `nil`.
    public var label: String?
    /// A small integer, never `nil`.
    public var bucket: Int

    /// An item from its fields.
    public init(id: Int, amount: Int?, ratio: Double?, label: String?, bucket: Int) {
        self.id = id
        self.amount = amount
        self.ratio = ratio
        self.label = label
        self.bucket = bucket
    }

    /// How many samples were decoded, in every test of the process: a read of an index's values
    /// decodes none.
    public static let decodings = Atomic<Int>(0)

    private enum CodingKeys: String, CodingKey { case id, amount, ratio, label, bucket }

    /// Decodes a sample, and counts it in ``decodings``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        amount = try container.decodeIfPresent(Int.self, forKey: .amount)
        ratio = try container.decodeIfPresent(Double.self, forKey: .ratio)
        label = try container.decodeIfPresent(String.self, forKey: .label)
        bucket = try container.decode(Int.self, forKey: .bucket)
        Self.decodings.add(1, ordering: .relaxed)
    }

    /// The index of the samples: a column of each kind.
    public static let index = SecondaryIndex<AggregateSample>(
        "index_value_samples",
        columns: [
            .column("amount") { $0.amount },
            .column("ratio") { $0.ratio },
            .column("label") { $0.label },
            .column("bucket") { $0.bucket },
        ])

    /// The columns of ``index``, in order.
    public static let columns = ["amount", "ratio", "label", "bucket"]

    /// The value of `column`, as the index stores it.
    public func value(_ column: String) -> IndexValue {
        switch column {
        case "amount": amount.indexValue
        case "ratio": ratio.indexValue
        case "label": label.indexValue
        default: bucket.indexValue
        }
    }
}

/// Reads the value of an ``IndexValueQuery`` in one of the forms a place offers (a transaction, a
/// place, synchronously or not).
public protocol IndexValueReader: Sendable {
    /// A name for the failures.
    var name: String { get }
    /// The value of `query`.
    func value<Value: Sendable>(_ query: IndexValueQuery<AggregateSample, Value>) async throws -> Value
}

/// Reads with `value(in:)` on any engine's place.
public struct AsyncPlaceValueReader<Place: AsyncDatabaseReader & Sendable>: IndexValueReader {
    let place: Place
    /// The name for the failures.
    public let name: String

    /// A reader of `place`.
    public init(_ place: Place, name: String) {
        self.place = place
        self.name = name
    }

    /// The value, in one read transaction of the place.
    public func value<Value: Sendable>(_ query: IndexValueQuery<AggregateSample, Value>) async throws -> Value {
        try await query.value(in: place)
    }
}

/// Reads with `value(tx)` inside any engine's transaction.
public struct AsyncTransactionValueReader<Place: AsyncDatabaseReader & Sendable>: IndexValueReader {
    let place: Place
    /// The name for the failures.
    public let name: String

    /// A reader of the transactions of `place`.
    public init(_ place: Place, name: String) {
        self.place = place
        self.name = name
    }

    /// The value, inside a read transaction of the place.
    public func value<Value: Sendable>(_ query: IndexValueQuery<AggregateSample, Value>) async throws -> Value {
        try await place.read { tx in try await query.value(tx) }
    }
}

/// The model check: what each run found wrong, and how many reads it compared.
public struct IndexValueModelCheck {
    /// The reads whose value differed from the model's, or that failed.
    public var failures: [String] = []
    /// The number of reads compared.
    public var compared = 0
    /// The number of reads expected to fail that did, with the code and words expected.
    public var refusals = 0

    private var random: SeededGenerator
    private var model: [Int: AggregateSample] = [:]
    private let keys: ClosedRange<Int>
    private static let labels: [String?] = ["apple", "apple pie", "Zebra", "éclair", "", "zèbre", nil]

    /// A check whose random choices follow `seed`, over items with keys in `keys`.
    public init(seed: UInt64, keys: ClosedRange<Int> = 1...60) {
        random = SeededGenerator(seed: seed)
        self.keys = keys
    }

    /// Runs `steps` random writes on `place`, each followed by `queries` random queries read by
    /// every reader of `readers` (one chosen at random per read) and compared with the model.
    public mutating func run(
        steps: Int, queries: Int, place: some AsyncDatabaseWriter & Sendable, readers: [any IndexValueReader]
    ) async throws {
        for _ in 0..<steps {
            try await write(place)
            for _ in 0..<queries {
                try await check(randomQuery(), readers: readers)
            }
        }
    }

    // MARK: Writes

    private mutating func randomSample(key: Int) -> AggregateSample {
        AggregateSample(
            id: key,
            amount: Int.random(in: 0..<5, using: &random) == 0 ? nil : Int.random(in: -50...50, using: &random),
            ratio: Int.random(in: 0..<4, using: &random) == 0
                ? nil : Double(Int.random(in: -40...40, using: &random)) * 0.25,
            label: Self.labels.randomElement(using: &random)!, bucket: Int.random(in: 0...4, using: &random))
    }

    private mutating func write(_ place: some AsyncDatabaseWriter) async throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<55:  // new items and updates, several in one transaction
            let samples = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                randomSample(key: Int.random(in: keys, using: &random))
            }
            try await place.write { tx in try await tx.write(samples) }
            for sample in samples { model[sample.id] = sample }
        case 55..<85:  // removals by key
            let removed = (0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: keys, using: &random) }
            _ = try await place.write { tx in try await tx.remove(AggregateSample.self, keys: removed) }
            for key in removed { model[key] = nil }
        case 85..<90:  // the whole collection
            _ = try await place.write { tx in try await tx.removeAll(AggregateSample.self) }
            model = [:]
        default:  // many new items at once
            let samples = (0..<20).map { _ in randomSample(key: Int.random(in: keys, using: &random)) }
            try await place.write { tx in try await tx.write(samples) }
            for sample in samples { model[sample.id] = sample }
        }
    }

    // MARK: Queries

    /// A query with its model: conditions, orderings, limit and offset.
    struct Query {
        var conditions: [(IndexCondition<AggregateSample>, (AggregateSample) -> Bool, String)] = []
        var orderings: [(column: String, descending: Bool)] = []
        var limit: (Int, Int)?

        var indexQuery: IndexQuery<AggregateSample> {
            var query = AggregateSample.index.query
            for (condition, _, _) in conditions { query = query.filter(condition) }
            for ordering in orderings {
                query = query.sorted(by: .column(ordering.column, ordering.descending ? .descending : .ascending))
            }
            if let (limit, offset) = limit { query = query.limit(limit, offset: offset) }
            return query
        }

        var description: String {
            "filter \(conditions.map(\.2)) order \(orderings) limit \(limit.map { "\($0)" } ?? "none")"
        }
    }

    private mutating func randomQuery() -> Query {
        var query = Query()
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                let value = Int.random(in: -50...50, using: &random)
                let upper = value + Int.random(in: 0...40, using: &random)
                query.conditions.append(
                    (
                        .column("amount", in: value...upper),
                        { $0.amount.map { (value...upper).contains($0) } ?? false },
                        "amount in \(value)...\(upper)"
                    ))
            case 1:
                let isNil = Bool.random(using: &random)
                query.conditions.append(
                    (.column("amount", isNil: isNil), { ($0.amount == nil) == isNil }, "amount nil \(isNil)"))
            case 2:
                let bound = Double(Int.random(in: -40...40, using: &random)) * 0.25
                query.conditions.append(
                    (.column("ratio", in: ..<bound), { $0.ratio.map { $0 < bound } ?? false }, "ratio < \(bound)"))
            case 3:
                let label = Self.labels.randomElement(using: &random)!
                query.conditions.append(
                    (.column("label", equals: label), { $0.label == label }, "label = \(label ?? "nil")"))
            case 4:
                let labels = (0..<2).compactMap { _ in Self.labels.randomElement(using: &random)! }
                query.conditions.append(
                    (.column("label", in: labels), { $0.label.map(labels.contains) ?? false }, "label in \(labels)"))
            case 5:
                let bucket = Int.random(in: 0...4, using: &random)
                query.conditions.append(
                    (.column("bucket", in: bucket...), { $0.bucket >= bucket }, "bucket >= \(bucket)"))
            case 6:
                let bucket = Int.random(in: 0...4, using: &random)
                query.conditions.append(
                    (.column("bucket", equals: bucket), { $0.bucket == bucket }, "bucket = \(bucket)"))
            default:
                let isNil = Bool.random(using: &random)
                query.conditions.append(
                    (.column("ratio", isNil: isNil), { ($0.ratio == nil) == isNil }, "ratio nil \(isNil)"))
            }
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            query.orderings.append(
                (AggregateSample.columns.randomElement(using: &random)!, Bool.random(using: &random)))
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
            query.limit = (Int.random(in: 0...15, using: &random), Int.random(in: 0...5, using: &random))
        }
        return query
    }

    /// The rows of `query` in the model: filtered, sorted (ties by key), paged.
    private func rows(of query: Query) -> [AggregateSample] {
        var rows = model.values.filter { sample in query.conditions.allSatisfy { $0.1(sample) } }
        rows.sort { a, b in
            for ordering in query.orderings {
                let (x, y) = (a.value(ordering.column), b.value(ordering.column))
                if x == y { continue }
                return ordering.descending ? Self.less(y, x) : Self.less(x, y)
            }
            return a.id < b.id
        }
        if let (limit, offset) = query.limit { rows = Array(rows.dropFirst(offset).prefix(limit)) }
        return rows
    }

    /// SQL's order of the values of one column: `NULL` first, numbers by value, text by bytes.
    static func less(_ x: IndexValue, _ y: IndexValue) -> Bool {
        switch (x, y) {
        case (.null, .null): false
        case (.null, _): true
        case (_, .null): false
        case (.integer(let a), .integer(let b)): a < b
        case (.real(let a), .real(let b)): a < b
        case (.text(let a), .text(let b)): Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        default: false
        }
    }

    private static func sum(_ values: [IndexValue]) -> (integer: Int, real: Double, count: Int) {
        var (integer, real, count) = (0, 0.0, 0)
        for value in values {
            switch value {
            case .integer(let number):
                integer += Int(number)
                real += Double(number)
                count += 1
            case .real(let number):
                real += number
                count += 1
            default: break
            }
        }
        return (integer, real, count)
    }

    /// The aggregates of the model's `values` of one column, as each read returns them.
    private static func aggregates(_ values: [IndexValue]) -> Aggregates {
        let present = values.filter { $0 != .null }
        let (integer, real, count) = sum(present)
        return Aggregates(
            count: present.count, sum: integer, total: real, min: present.min(by: less), max: present.max(by: less),
            average: count == 0 ? nil : real / Double(count))
    }

    struct Aggregates {
        var count: Int
        var sum: Int
        var total: Double
        var min: IndexValue?
        var max: IndexValue?
        var average: Double?
    }

    private mutating func check(_ query: Query, readers: [any IndexValueReader]) async throws {
        let rows = rows(of: query)
        let indexQuery = query.indexQuery
        let reader = readers.randomElement(using: &random)!
        func compare<Value: Sendable & Equatable>(
            _ what: String, _ read: IndexValueQuery<AggregateSample, Value>, _ expected: Value
        )
            async
        {
            compared += 1
            do {
                let value = try await reader.value(read)
                if value != expected {
                    failures.append("\(reader.name): \(what) of \(query.description): \(value), expected \(expected)")
                }
            } catch {
                failures.append("\(reader.name): \(what) of \(query.description) threw \(error)")
            }
        }
        // Every aggregate of every column that has it.
        for column in AggregateSample.columns {
            let expected = Self.aggregates(rows.map { $0.value(column) })
            await compare("count(of: \(column))", indexQuery.count(of: column), expected.count)
            await compare("min(of: \(column))", indexQuery.min(of: column), expected.min)
            await compare("max(of: \(column))", indexQuery.max(of: column), expected.max)
            if column != "label" {
                await compare(
                    "sum(of: \(column), as: Double)", indexQuery.sum(of: column, as: Double.self), expected.total)
                await compare("average(of: \(column))", indexQuery.average(of: column), expected.average)
            }
            if column == "amount" || column == "bucket" {
                await compare("sum(of: \(column))", indexQuery.sum(of: column), expected.sum)
            }
        }
        // Grouped by a random column, sorted by the group's value.
        let group = AggregateSample.columns.randomElement(using: &random)!
        let aggregated = AggregateSample.columns.filter { $0 != "label" }.randomElement(using: &random)!
        var groups: [(IndexValue, [AggregateSample])] = []
        for row in rows {
            if let offset = groups.firstIndex(where: { $0.0 == row.value(group) }) {
                groups[offset].1.append(row)
            } else {
                groups.append((row.value(group), [row]))
            }
        }
        groups.sort { Self.less($0.0, $1.0) }
        let grouping = indexQuery.grouped(by: group)
        await compare(
            "grouped(by: \(group)).count()", grouping.count(), groups.map { IndexGroup(group: $0.0, value: $0.1.count) }
        )
        let perGroup = groups.map { ($0.0, Self.aggregates($0.1.map { $0.value(aggregated) })) }
        await compare(
            "grouped(by: \(group)).count(of: \(aggregated))", grouping.count(of: aggregated),
            perGroup.map { IndexGroup(group: $0.0, value: $0.1.count) })
        await compare(
            "grouped(by: \(group)).sum(of: \(aggregated), as: Double)", grouping.sum(of: aggregated, as: Double.self),
            perGroup.map { IndexGroup(group: $0.0, value: $0.1.total) })
        await compare(
            "grouped(by: \(group)).average(of: \(aggregated))", grouping.average(of: aggregated),
            perGroup.map { IndexGroup(group: $0.0, value: $0.1.average) })
        await compare(
            "grouped(by: \(group)).min(of: label)", grouping.min(of: "label"),
            groups.map { IndexGroup(group: $0.0, value: Self.aggregates($0.1.map { $0.value("label") }).min) })
        await compare(
            "grouped(by: \(group)).max(of: \(aggregated))", grouping.max(of: aggregated),
            perGroup.map { IndexGroup(group: $0.0, value: $0.1.max) })
        await compare(
            "grouped(by: \(group)).sum(of: amount)", grouping.sum(of: "amount"),
            groups.map { IndexGroup(group: $0.0, value: Self.aggregates($0.1.map { $0.value("amount") }).sum) })
        // Distinct values, sorted.
        let distinctColumn = AggregateSample.columns.randomElement(using: &random)!
        var distinct: [IndexValue] = []
        for row in rows where !distinct.contains(row.value(distinctColumn)) {
            distinct.append(row.value(distinctColumn))
        }
        await compare(
            "distinct(\(distinctColumn))", indexQuery.distinct(distinctColumn), distinct.sorted(by: Self.less))
        // A projection of random columns, in the query's order.
        let projected = AggregateSample.columns.filter { _ in Bool.random(using: &random) }
        let read =
            switch projected.count {
            case 0: indexQuery.values()
            case 1: indexQuery.values(of: projected[0])
            case 2: indexQuery.values(of: projected[0], projected[1])
            case 3: indexQuery.values(of: projected[0], projected[1], projected[2])
            default: indexQuery.values(of: projected[0], projected[1], projected[2], projected[3])
            }
        await compare(
            "values(of: \(projected))", read,
            rows.map { row in IndexRow(key: row.id, values: projected.map(row.value)) })
        // What has no meaning is refused, naming the index and the column.
        try await refuse(indexQuery.sum(of: "label"), column: "label", reader: reader)
        try await refuse(indexQuery.sum(of: "ratio"), column: "ratio", reader: reader)
        try await refuse(indexQuery.average(of: "label"), column: "label", reader: reader)
        try await refuse(indexQuery.grouped(by: "nope").count(), column: "nope", reader: reader)
        try await refuse(indexQuery.values(of: "amount", "nope"), column: "nope", reader: reader)
    }

    private mutating func refuse<Value: Sendable>(
        _ read: IndexValueQuery<AggregateSample, Value>, column: String, reader: any IndexValueReader
    ) async throws {
        do {
            _ = try await reader.value(read)
            failures.append("\(reader.name): a read of '\(column)' was not refused")
        } catch let error as TroveError
            where error.code == .extensionFailed && error.message.contains("'\(AggregateSample.index.name)'")
            && error.message.contains("'\(column)'") && !error.message.contains("SELECT")
        {
            refusals += 1
        } catch {
            failures.append("\(reader.name): a read of '\(column)' was refused with \(error)")
        }
    }
}
