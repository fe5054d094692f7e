import Foundation
import Trove

/// An item with two multi-valued index columns (an array with repeated values, a set) and a
/// single-valued one, coded through the Codable fallback: the model of the multi-valued index
/// tests, on every engine.
public struct Tagged: Persistable, Codable, Equatable, Sendable {
    /// Coded through `Codable`.
    public typealias Coder = CodableCoder<Tagged>
    /// The collection of the items.
    public static let collection = "tagged"
    /// The key.
    public var id: String
    /// A single-valued column.
    public var rank: Int
    /// A multi-valued column whose list may repeat a value.
    public var tags: [String]
    /// A multi-valued column from a set.
    public var codes: Set<Int>

    /// An item.
    public init(id: String, rank: Int, tags: [String], codes: Set<Int>) {
        self.id = id
        self.rank = rank
        self.tags = tags
        self.codes = codes
    }

    /// The index of the tests: `rank`, and the multi-valued `tags` and `codes`.
    public static func index(version: Int = 1) -> SecondaryIndex<Tagged> {
        SecondaryIndex(
            "tagged", version: version,
            columns: [.column("rank") { $0.rank }, .values("tags") { $0.tags }, .values("codes") { $0.codes }])
    }
}

/// Seeded random writes of `Tagged` items (inserts, updates that change, shrink, empty or keep
/// the values, with values repeated inside one list, removals, removals of the collection,
/// rolled-back transactions) kept in a brute-force model, and random queries of the multi-valued
/// columns (combined with a condition on `rank`, an ordering and a limit) whose results the model
/// computes.
public struct MultiValuedWorkload: Sendable {
    /// The keys the workload writes.
    public static let keys = (0..<30).map { "t\($0)" }
    static let tags = ["a", "b", "c", "d", "swift", "é"]
    static let codes = [-1, 0, 1, 2, 3, 40]

    /// The generator of every random choice.
    public var random: SeededGenerator
    /// The items as they must be stored.
    public var model: [String: Tagged] = [:]

    /// A workload whose choices are a function of `seed`.
    public init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// A random item at `key` (or a random key): 0 to 5 tags, drawn with repetition.
    public mutating func randomItem(key: String? = nil) -> Tagged {
        let tagCount = Int.random(in: 0...5, using: &random)
        let tags = (0..<tagCount).map { _ in Self.tags.randomElement(using: &random)! }
        let codes = Set(
            (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.codes.randomElement(using: &random)! })
        return Tagged(
            id: key ?? Self.keys.randomElement(using: &random)!, rank: Int.random(in: 0..<5, using: &random),
            tags: tags,
            codes: codes)
    }

    /// Runs one random write on `place` and records it in the model.
    public mutating func randomWrite<P: AsyncDatabaseWriter>(on place: P) async throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<40:  // inserts and updates, several in one transaction
            let items = (0..<Int.random(in: 1...4, using: &random)).map { _ in randomItem() }
            try await place.write(items)
            for item in items { model[item.id] = item }
        case 40..<55:  // updates that keep the values, or shrink or empty them
            guard var item = model.values.sorted(by: { $0.id < $1.id }).randomElement(using: &random) else { return }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: item.rank = Int.random(in: 0..<5, using: &random)
            case 1:
                item.tags = Array(item.tags.dropLast(Int.random(in: 1...2, using: &random)))
                item.codes = Set(item.codes.dropFirst())
            default:
                item.tags = []
                item.codes = []
            }
            try await place.write(item)
            model[item.id] = item
        case 55..<70:  // removals of keys
            let removed = Array(Self.keys.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
            let count = try await place.write { tx in try await tx.remove(Tagged.self, keys: removed) }
            let expected = removed.filter { model[$0] != nil }.count
            for key in removed { model[key] = nil }
            if count != expected { throw WorkloadMismatch(description: "removed \(count) items, not \(expected)") }
        case 70..<73:  // the whole collection
            _ = try await place.write { tx in try await tx.removeAll(Tagged.self) }
            model.removeAll()
        case 73..<80:  // a write then a removal in one transaction that throws: nothing of it stays
            let item = randomItem()
            let removed = Self.keys.randomElement(using: &random)!
            do {
                _ = try await place.write { (tx: P.WritingTransaction) async throws -> Int in
                    try await tx.write(item)
                    _ = try await tx.remove(Tagged.self, key: removed)
                    throw RolledBack()
                }
            } catch is RolledBack {}
        default:  // an insert or update of one item, then its removal, in one transaction
            let item = randomItem()
            _ = try await place.write { tx in
                try await tx.write(item)
                return try await tx.remove(item)
            }
            model[item.id] = nil
        }
    }

    /// A random query and the items the model says it returns, in order.
    public mutating func randomQuery(_ index: SecondaryIndex<Tagged>) -> (IndexQuery<Tagged>, [Tagged], String) {
        var query = index.query
        var filters: [(Tagged) -> Bool] = []
        var description: [String] = []
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            let (condition, filter, text) = randomMultiValuedCondition()
            query = query.filter(condition)
            filters.append(filter)
            description.append(text)
        }
        if Bool.random(using: &random) {
            let low = Int.random(in: 0..<5, using: &random)
            let high = Int.random(in: low..<6, using: &random)
            query = query.filter(.column("rank", in: low..<high))
            filters.append { (low..<high).contains($0.rank) }
            description.append("rank in \(low)..<\(high)")
        }
        var expected = model.values.filter { item in filters.allSatisfy { $0(item) } }
        let order = Int.random(in: 0..<3, using: &random)
        switch order {
        case 0:
            expected.sort { Array($0.id.utf8).lexicographicallyPrecedes($1.id.utf8) }
        default:
            let descending = order == 2
            query = query.sorted(by: .column("rank", descending ? .descending : .ascending))
            expected.sort { left, right in
                if left.rank != right.rank { return descending ? left.rank > right.rank : left.rank < right.rank }
                return Array(left.id.utf8).lexicographicallyPrecedes(right.id.utf8)
            }
            description.append("sorted by rank\(descending ? " descending" : "")")
        }
        if Bool.random(using: &random) {
            let (limit, offset) = (Int.random(in: 0..<6, using: &random), Int.random(in: 0..<4, using: &random))
            query = query.limit(limit, offset: offset)
            expected = Array(expected.dropFirst(offset).prefix(limit))
            description.append("limit \(limit) offset \(offset)")
        }
        return (query, expected, description.joined(separator: ", "))
    }

    /// Runs a random query on `place` and throws when its items, keys, count or first item differ
    /// from the model's.
    public mutating func checkRandomQuery(_ index: SecondaryIndex<Tagged>, on place: some AsyncDatabaseReader)
        async throws
    {
        let (query, expected, description) = randomQuery(index)
        let items = try await query.items(in: place)
        let keys = try await query.keys(in: place)
        let count = try await query.count(in: place)
        let first = try await query.first(in: place)
        guard items == expected, keys == expected.map(\.id), count == expected.count, first == expected.first else {
            throw WorkloadMismatch(
                description:
                    "\(description): got \(items.map(\.id)) (keys \(keys), count \(count), first \(first?.id ?? "none")), expected \(expected.map(\.id))"
            )
        }
    }

    private mutating func randomMultiValuedCondition() -> (IndexCondition<Tagged>, (Tagged) -> Bool, String) {
        let onTags = Bool.random(using: &random)
        let count = Int.random(in: 0...3, using: &random)
        if onTags {
            let values = (0..<count).map { _ in Self.tags.randomElement(using: &random)! }
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let value = Self.tags.randomElement(using: &random)!
                return (.contains("tags", value), { $0.tags.contains(value) }, "tags contains \(value)")
            case 1:
                return (
                    .containsAny("tags", values), { item in values.contains { item.tags.contains($0) } },
                    "tags any \(values)"
                )
            default:
                return (
                    .containsAll("tags", values), { item in values.allSatisfy { item.tags.contains($0) } },
                    "tags all \(values)"
                )
            }
        }
        let values = (0..<count).map { _ in Self.codes.randomElement(using: &random)! }
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let value = Self.codes.randomElement(using: &random)!
            return (.contains("codes", value), { $0.codes.contains(value) }, "codes contains \(value)")
        case 1:
            return (
                .containsAny("codes", values), { item in values.contains { item.codes.contains($0) } },
                "codes any \(values)"
            )
        default:
            return (
                .containsAll("codes", values), { item in values.allSatisfy { item.codes.contains($0) } },
                "codes all \(values)"
            )
        }
    }
}

/// The error that rolls a transaction of the workload back.
struct RolledBack: Error {}

/// A difference between what a store returned and what the model says.
public struct WorkloadMismatch: Error, CustomStringConvertible {
    /// What differed.
    public var description: String
}
