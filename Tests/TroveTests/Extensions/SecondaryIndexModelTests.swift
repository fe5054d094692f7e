import Foundation
import Testing
import Trove
import TroveTestSupport

/// Random writes of every kind, rollbacks and reopenings, each followed by random queries of
/// every shape whose results must be exactly what a brute-force filter over a model of the
/// items returns.
struct SecondaryIndexModelTests {
    private static let keys = (0..<40).map { "m\($0)" }
    private static let cities: [String?] = ["Paris", "Lyon", "Zürich", "Ålesund", nil]
    private static let scores: [Double] = [-3, 0.5, 1, 2.25]
    private static let columns = ["age", "city", "score", "active", "visits"]

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func queriesMatchABruteForceModel(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/model.trove"
        let index = MemberIndexes.members
        var database: Database? = try Database(path: path, extensions: [index.databaseExtension])
        var connection = try database!.newConnection()
        var model: [String: Member] = [:]
        var checkedQueries = 0

        for step in 0..<300 {
            let operation = Int.random(in: 0..<100, using: &random)
            switch operation {
            case 0..<30:  // typed writes, several in one transaction
                let members = (0..<Int.random(in: 1...4, using: &random)).map { _ in randomMember(&random) }
                try connection.write { tx in try tx.write(members) }
                for member in members { model[member.id] = member }
            case 30..<42:  // untyped write of the bytes of a member, with or without metadata
                let member = randomMember(&random)
                let data = try CodableCoder<Member>.encodedData(member)
                let metadata = try member.metadata.map { try CodableCoder<MemberStats>.encodedData($0) }
                try connection.write { tx in
                    try tx.setData(data, metadata: metadata, forKey: member.id, in: Member.collection)
                }
                model[member.id] = member
            case 42..<50:  // untyped replacement of the data alone: the metadata stays
                let key = Self.keys.randomElement(using: &random)!
                var member = randomMember(&random, key: key)
                let data = try CodableCoder<Member>.encodedData(member)
                let replaced = try connection.write { tx in try tx.replaceData(data, forKey: key, in: Member.collection) }
                #expect(replaced == (model[key] != nil))
                if let old = model[key] {
                    member.metadata = old.metadata
                    model[key] = member
                }
            case 50..<60:  // metadata alone, typed or untyped
                let key = Self.keys.randomElement(using: &random)!
                let stats = Bool.random(using: &random) ? MemberStats(visits: Int.random(in: 0..<5, using: &random)) : nil
                if Bool.random(using: &random) {
                    _ = try connection.write { tx in try tx.setMetadata(stats, for: Member.self, key: key) }
                } else {
                    let bytes = try stats.map { try CodableCoder<MemberStats>.encodedData($0) }
                    _ = try connection.write { tx in try tx.replaceMetadata(bytes, forKey: key, in: Member.collection) }
                }
                model[key]?.metadata = stats
            case 60..<72:  // removals of keys, typed and untyped
                let removed = Array(Self.keys.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
                try connection.write { tx in
                    _ = try tx.remove(Member.self, keys: removed.prefix(1))
                    _ = try tx.removeItems(forKeys: removed.dropFirst(), in: Member.collection)
                }
                for key in removed { model[key] = nil }
            case 72..<75:  // the whole collection
                try connection.write { tx in _ = try tx.removeAll(Member.self) }
                model.removeAll()
            case 75..<77:  // everything, with writes after it in the same transaction
                let member = randomMember(&random)
                try connection.write { tx in
                    try tx.write(Note(id: "n", text: "other collection"))
                    _ = try tx.removeAllItems()
                    try tx.write(member)
                }
                model = [member.id: member]
            case 77..<82:  // touch, and writes to another collection
                try connection.write { tx in
                    try tx.touch(key: Self.keys.randomElement(using: &random)!, in: Member.collection)
                    try tx.write(Note(id: "n\(step)", text: "x"))
                }
            case 82..<90:  // a transaction that writes, then throws: nothing of it stays
                struct Failure: Error {}
                let member = randomMember(&random)
                let removed = Self.keys.randomElement(using: &random)!
                _ = try? connection.write { tx in
                    try tx.write(member)
                    _ = try tx.remove(Member.self, key: removed)
                    throw Failure()
                }
            default:  // reopen: the index is in the file, nothing is rebuilt
                connection = try Database(path: path).newConnection()
                database = nil
                database = try Database(path: path)
                #expect(try database!.register(index.databaseExtension) == .unchanged)
                connection = try database!.newConnection()
            }
            for _ in 0..<6 {
                try checkRandomQuery(index: index, connection: connection, model: model, random: &random)
                checkedQueries += 1
            }
        }
        #expect(checkedQueries == 1_800)
    }

    private func randomMember(_ random: inout SeededGenerator, key: String? = nil) -> Member {
        Member(
            id: key ?? Self.keys.randomElement(using: &random)!,
            age: Int.random(in: 0..<10, using: &random),
            city: Self.cities.randomElement(using: &random)!,
            score: Self.scores.randomElement(using: &random)!,
            active: Bool.random(using: &random),
            metadata: Bool.random(using: &random) ? MemberStats(visits: Int.random(in: 0..<5, using: &random)) : nil)
    }

    /// The column values of `member`, as the brute force compares them.
    private func value(of column: String, _ member: Member) -> IndexValue {
        switch column {
        case "age": member.age.indexValue
        case "city": member.city.indexValue
        case "score": member.score.indexValue
        case "active": member.active.indexValue
        default: member.metadata?.visits.indexValue ?? .null
        }
    }

    private func randomValue(of column: String, _ random: inout SeededGenerator) -> IndexValue {
        switch column {
        case "age": Int.random(in: -1..<11, using: &random).indexValue
        case "city": Self.cities.randomElement(using: &random)!.indexValue
        case "score": Self.scores.randomElement(using: &random)!.indexValue
        case "active": Bool.random(using: &random).indexValue
        default: Int.random(in: 0..<5, using: &random).indexValue
        }
    }

    private func checkRandomQuery(
        index: SecondaryIndex<Member>, connection: Connection, model: [String: Member], random: inout SeededGenerator
    ) throws {
        var conditions: [IndexCondition<Member>] = []
        var filters: [(Member) -> Bool] = []
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let column = Self.columns.randomElement(using: &random)!
            let (condition, filter) = randomCondition(column, &random)
            conditions.append(condition)
            filters.append(filter)
        }
        var orderings: [IndexOrder<Member>] = []
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            orderings.append(
                .column(Self.columns.randomElement(using: &random)!, Bool.random(using: &random) ? .ascending : .descending))
        }
        let limit: (Int, Int)? = Bool.random(using: &random)
            ? (Int.random(in: 0..<8, using: &random), Int.random(in: 0..<6, using: &random)) : nil

        var expected = model.values.filter { member in filters.allSatisfy { $0(member) } }
        expected.sort { left, right in
            for ordering in orderings {
                let (a, b) = (value(of: ordering.column, left), value(of: ordering.column, right))
                if a == b { continue }
                return ordering.direction == .ascending ? isLess(a, b) : isLess(b, a)
            }
            return Array(left.id.utf8).lexicographicallyPrecedes(right.id.utf8)
        }
        if let (count, offset) = limit {
            expected = Array(expected.dropFirst(offset).prefix(count))
        }

        let description = "conditions \(conditions), orderings \(orderings), limit \(String(describing: limit))"
        try connection.read { tx in
            var query = index.query
            for condition in conditions { query = query.filter(condition) }
            for ordering in orderings { query = query.sorted(by: ordering) }
            if let (count, offset) = limit { query = query.limit(count, offset: offset) }
            let items = try query.items(tx)
            #expect(items == expected, "\(description)")
            #expect(try query.keys(tx) == expected.map(\.id), "\(description)")
            #expect(try query.count(tx) == expected.count, "\(description)")
            #expect(try query.first(tx) == expected.first, "\(description)")
        }
    }

    private func randomCondition(_ column: String, _ random: inout SeededGenerator) -> (
        IndexCondition<Member>, (Member) -> Bool
    ) {
        let a = randomValue(of: column, &random)
        let b = randomValue(of: column, &random)
        let (low, high) = isLess(b, a) ? (b, a) : (a, b)
        let value = { (member: Member) in self.value(of: column, member) }
        func condition(_ predicate: IndexConditionShape) -> IndexCondition<Member> {
            predicate.condition(column: column)
        }
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            return (condition(.equals(a)), { value($0) == a })
        case 1:
            let values = [a, b, randomValue(of: column, &random)]
            return (condition(.oneOf(values)), { member in values.contains(value(member)) && value(member) != .null })
        case 2:
            return (condition(.halfOpen(low, high)), { v in self.inRange(value(v), low, true, high, false) })
        case 3:
            return (condition(.closed(low, high)), { v in self.inRange(value(v), low, true, high, true) })
        case 4:
            return (condition(.from(a)), { v in self.inRange(value(v), a, true, nil, false) })
        case 5:
            return (condition(.upTo(a)), { v in self.inRange(value(v), nil, false, a, false) })
        case 6:
            return (condition(.through(a)), { v in self.inRange(value(v), nil, false, a, true) })
        default:
            let isNil = Bool.random(using: &random)
            return (.column(column, isNil: isNil), { (value($0) == .null) == isNil })
        }
    }

    private func inRange(_ v: IndexValue, _ lower: IndexValue?, _ lowerIn: Bool, _ upper: IndexValue?, _ upperIn: Bool)
        -> Bool
    {
        guard v != .null else { return false }
        if let lower, lower != .null {
            if isLess(v, lower) || (!lowerIn && v == lower) { return false }
        } else if lower == .null {
            return false
        }
        if let upper, upper != .null {
            if isLess(upper, v) || (!upperIn && v == upper) { return false }
        } else if upper == .null {
            return false
        }
        return true
    }

    /// SQLite's order of the values of one column: NULL first, text and blobs by bytes.
    private func isLess(_ a: IndexValue, _ b: IndexValue) -> Bool {
        switch (a, b) {
        case (.null, .null): false
        case (.null, _): true
        case (_, .null): false
        case (.integer(let x), .integer(let y)): x < y
        case (.real(let x), .real(let y)): x < y
        case (.text(let x), .text(let y)): Array(x.utf8).lexicographicallyPrecedes(y.utf8)
        case (.blob(let x), .blob(let y)): x.lexicographicallyPrecedes(y)
        default: false
        }
    }
}

/// The shapes of conditions, built through the typed factories from values of the column's
/// Swift type.
private enum IndexConditionShape {
    case equals(IndexValue), oneOf([IndexValue]), halfOpen(IndexValue, IndexValue), closed(IndexValue, IndexValue)
    case from(IndexValue), upTo(IndexValue), through(IndexValue)

    func condition(column: String) -> IndexCondition<Member> {
        switch column {
        case "city": make(column, { Self.text($0) })
        case "score": make(column, { Self.real($0) })
        default: make(column, { Self.integer($0) })
        }
    }

    /// The condition over values of type `Value`; a `nil` bound (a NULL drawn for an optional
    /// column) makes a condition that matches nothing, as the model expects.
    private func make<Value: IndexValueConvertible & Comparable>(_ column: String, _ convert: (IndexValue) -> Value?)
        -> IndexCondition<Member>
    {
        let nothing = IndexCondition<Member>.column(column, in: [Value]())
        switch self {
        case .equals(let a): return .column(column, equals: convert(a))
        case .oneOf(let values): return .column(column, in: values.map(convert))
        case .halfOpen(let a, let b):
            guard let a = convert(a), let b = convert(b) else { return nothing }
            return .column(column, in: a..<b)
        case .closed(let a, let b):
            guard let a = convert(a), let b = convert(b) else { return nothing }
            return .column(column, in: a...b)
        case .from(let a):
            guard let a = convert(a) else { return nothing }
            return .column(column, in: a...)
        case .upTo(let a):
            guard let a = convert(a) else { return nothing }
            return .column(column, in: ..<a)
        case .through(let a):
            guard let a = convert(a) else { return nothing }
            return .column(column, in: ...a)
        }
    }

    private static func integer(_ value: IndexValue) -> Int? { if case .integer(let v) = value { Int(v) } else { nil } }
    private static func real(_ value: IndexValue) -> Double? { if case .real(let v) = value { v } else { nil } }
    private static func text(_ value: IndexValue) -> String? { if case .text(let v) = value { v } else { nil } }
}

extension ValueCoder {
    /// The bytes of `value`, as an untyped write stores them.
    static func encodedData(_ value: Value) throws -> Data {
        var writer = BinaryWriter()
        try encode(value, to: &writer)
        return Data(writer.bytes)
    }
}
