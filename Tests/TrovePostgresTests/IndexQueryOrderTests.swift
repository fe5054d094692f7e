import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// An item keyed by a signed integer, with an index whose values repeat: most of a query's
/// order is the order of ties, by key.
struct Ranked: Persistable, Codable, Equatable, DatabaseExtensionProviding {
    typealias Coder = CodableCoder<Ranked>
    static let collection = "ranked"
    static let index = SecondaryIndex<Ranked>(
        "ranked_index", columns: [.column("group") { $0.group }, .column("label") { $0.label }])
    static var databaseExtensions: [DatabaseExtension] { [index.databaseExtension] }

    var id: Int
    var group: Int
    var label: String?
}

/// An item keyed by an unsigned integer, some above `Int64.max`, which a Trove file orders by
/// length then text past the largest signed value.
struct UnsignedRanked: Persistable, Codable, Equatable, DatabaseExtensionProviding {
    typealias Coder = CodableCoder<UnsignedRanked>
    static let collection = "unsigned-ranked"
    static let index = SecondaryIndex<UnsignedRanked>("unsigned_ranked_index", columns: [.column("group") { $0.group }])
    static var databaseExtensions: [DatabaseExtension] { [index.databaseExtension] }

    var id: UInt64
    var group: Int
}

/// The order of index queries on PostgreSQL is a Trove file's: ties (and queries without an
/// ordering) by key, by value for an integer key type (9 before 10, -5 before -1), and the same
/// items for the same clauses. Each query runs on both, and both are checked against Swift's
/// sort of the items.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct IndexQueryOrderTests {
    /// Keys whose text order is not their value order, around zero, across lengths, at the ends.
    static let keys: [Int] = [
        -1_000, -100, -11, -10, -9, -5, -1, 0, 1, 2, 5, 9, 10, 11, 19, 20, 99, 100, 101, 1_000, 1_000_000, .max, .min,
        .max - 1, .min + 1,
    ]

    /// Runs `body` with a Trove file and a PostgreSQL store that hold the same `items`.
    func withBoth<Item: Persistable & DatabaseExtensionProviding>(
        _ items: [Item], _ body: (Database, PostgresStore) async throws -> Void
    ) async throws {
        let database = try Database.temporary(models: [Item.self])
        try await database.write(items)
        let store = try await TestServer.openStore(models: [Item.self])
        do {
            try await store.write(items)
            try await body(database, store)
        } catch {
            await TestServer.dispose(store)
            throw error
        }
        await TestServer.dispose(store)
    }

    @Test func integerKeyTiesComeInTheOrderOfAFile() async throws {
        let items = Self.keys.enumerated().map { offset, key in
            Ranked(id: key, group: offset % 3, label: offset % 4 == 0 ? nil : "l\(offset % 2)")
        }
        try await withBoth(items) { database, store in
            let queries: [(String, IndexQuery<Ranked>, [Ranked])] = [
                ("no ordering", Ranked.index.query, items.sorted { $0.id < $1.id }),
                (
                    "by group", Ranked.index.query.sorted(by: .column("group")),
                    items.sorted { ($0.group, $0.id) < ($1.group, $1.id) }
                ),
                (
                    "by group, descending", Ranked.index.query.sorted(by: .column("group", .descending)),
                    items.sorted { $0.group != $1.group ? $0.group > $1.group : $0.id < $1.id }
                ),
                (
                    "one group", Ranked.index.query.filter(.column("group", equals: 1)),
                    items.filter { $0.group == 1 }.sorted { $0.id < $1.id }
                ),
                (
                    "by label, nil first", Ranked.index.query.sorted(by: .column("label")),
                    items.sorted { ($0.label ?? "", $0.label == nil ? 0 : 1, $0.id) < ($1.label ?? "", $1.label == nil ? 0 : 1, $1.id) }
                ),
            ]
            for (name, query, sorted) in queries {
                let expected = sorted.map(\.id)
                let inFile = try await query.keys(in: database)
                let onServer = try await query.keys(in: store)
                #expect(inFile == expected, "\(name): the file")
                #expect(onServer == inFile, "\(name): PostgreSQL and the file differ")
                #expect(try await query.items(in: store) == sorted, "\(name)")
                let page = query.limit(5, offset: 3)
                #expect(try await page.keys(in: store) == Array(expected.dropFirst(3).prefix(5)), "\(name), a page")
                #expect(try await page.keys(in: database) == Array(expected.dropFirst(3).prefix(5)), "\(name), a page")
            }
        }
    }

    @Test func unsignedKeysAboveTheLargestSignedOneComeInTheOrderOfAFile() async throws {
        let keys: [UInt64] = [
            0, 1, 9, 10, UInt64(Int64.max) - 1, UInt64(Int64.max), UInt64(Int64.max) + 1, 9_999_999_999_999_999_999,
            10_000_000_000_000_000_000, .max - 1, .max,
        ]
        let items = keys.reversed().map { UnsignedRanked(id: $0, group: 0) }
        try await withBoth(items) { database, store in
            let query = UnsignedRanked.index.query.sorted(by: .column("group"))
            let inFile = try await query.keys(in: database)
            #expect(inFile == keys)
            #expect(try await query.keys(in: store) == inFile)
        }
    }

    /// Random queries (conditions on the group and the label, orderings, limits and offsets) on
    /// random items: PostgreSQL returns what the file returns, and both return Swift's answer.
    @Test func randomQueriesReturnWhatAFileReturns() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("IndexQueryOrderTests.randomQueriesReturnWhatAFileReturns: seed \(seed)")
        var random = SeededGenerator(seed: seed)
        var byKey: [Int: Ranked] = [:]
        for _ in 0..<120 {
            let key = Bool.random(using: &random) ? Int.random(in: -50...150, using: &random) : Self.keys.randomElement(using: &random)!
            byKey[key] = Ranked(
                id: key, group: Int.random(in: 0..<4, using: &random),
                label: [nil, "a", "b", "c"].randomElement(using: &random)!)
        }
        let items = Array(byKey.values)
        try await withBoth(items) { database, store in
            for round in 0..<40 {
                var query = Ranked.index.query
                var matching = items
                if Bool.random(using: &random) {
                    let groups = (0..<4).filter { _ in Bool.random(using: &random) }
                    query = query.filter(.column("group", in: groups))
                    matching = matching.filter { groups.contains($0.group) }
                }
                if Bool.random(using: &random) {
                    let bound = Int.random(in: 0..<4, using: &random)
                    query = query.filter(.column("group", in: bound...))
                    matching = matching.filter { $0.group >= bound }
                }
                if Bool.random(using: &random) {
                    query = query.filter(.column("label", isNil: false))
                    matching = matching.filter { $0.label != nil }
                }
                let descending = Bool.random(using: &random)
                let ordered = Bool.random(using: &random)
                if ordered {
                    query = query.sorted(by: .column("group", descending ? .descending : .ascending))
                }
                var expected = matching.sorted { left, right in
                    if ordered && left.group != right.group {
                        return descending ? left.group > right.group : left.group < right.group
                    }
                    return left.id < right.id
                }.map(\.id)
                if Bool.random(using: &random) {
                    let limit = Int.random(in: 0...10, using: &random)
                    let offset = Int.random(in: 0...10, using: &random)
                    query = query.limit(limit, offset: offset)
                    expected = Array(expected.dropFirst(offset).prefix(limit))
                }
                let inFile = try await query.keys(in: database)
                #expect(inFile == expected, "seed \(seed), round \(round): the file")
                #expect(try await query.keys(in: store) == inFile, "seed \(seed), round \(round): PostgreSQL")
                #expect(try await query.count(in: store) == expected.count, "seed \(seed), round \(round): count")
            }
        }
    }
}
