import Foundation
import Testing
import Trove
import TroveTestSupport

/// Multi-valued index columns (`IndexColumn.values`) on a Trove file: random writes of every
/// kind, reopenings and rebuilds, each followed by random `contains` / `containsAny` /
/// `containsAll` queries (with a condition on another column, an ordering and a limit) whose
/// results must be exactly what a brute-force filter over a model returns; and the edges of
/// the conditions.
struct MultiValuedIndexTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func queriesMatchABruteForceModel(seed: UInt64) async throws {
        var workload = MultiValuedWorkload(seed: seed)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/multi.trove"
        var index = Tagged.index()
        var database = try Database(path: path, extensions: [index.databaseExtension])
        var checked = 0
        for _ in 0..<250 {
            switch Int.random(in: 0..<100, using: &workload.random) {
            case 0..<85:
                try await workload.randomWrite(on: database)
            case 85..<90:  // touch: the values stay
                let key = MultiValuedWorkload.keys.randomElement(using: &workload.random)!
                try await database.write { tx in try tx.touch(key: key, in: Tagged.collection) }
            case 90..<94:  // an untyped write of an item's bytes reaches the index too
                let item = workload.randomItem()
                let data = try JSONEncoder().encode(item)
                try await database.write { tx in try tx.setData(data, forKey: item.id, in: Tagged.collection) }
                workload.model[item.id] = item
            case 94..<97:  // reopen: the index is in the file, nothing is rebuilt
                database = try Database(path: path)
                let registration = try database.register(index.databaseExtension)
                #expect(registration == .unchanged)
            default:  // a new version: rebuilt from the items
                index = Tagged.index(version: index.version + 1)
                let registration = try database.register(index.databaseExtension)
                #expect(registration == .rebuilt)
            }
            // The side tables hold each item's distinct values, and nothing of items that are gone.
            let pairs = try rawQuery(
                path,
                "SELECT count(*) FROM \"trove_ext_tagged$tags\" UNION ALL SELECT count(*) FROM \"trove_ext_tagged$codes\""
            )
            let expectedPairs = [
                workload.model.values.map { Set($0.tags).count }.reduce(0, +),
                workload.model.values.map(\.codes.count).reduce(0, +),
            ].map(String.init)
            #expect(pairs == expectedPairs, "seed \(seed): rows of the side tables")
            for _ in 0..<6 {
                do {
                    try await workload.checkRandomQuery(index, on: database)
                } catch let mismatch as WorkloadMismatch {
                    Issue.record("seed \(seed): \(mismatch)")
                }
                checked += 1
            }
        }
        #expect(checked == 1_500)
    }

    private func database(with items: [Tagged]) throws -> Database {
        let database = try Database.temporary(extensions: [Tagged.index().databaseExtension])
        try database.write(items)
        return database
    }

    @Test func anItemMatchingSeveralValuesComesOnce() throws {
        let database = try database(with: [
            Tagged(id: "x", rank: 1, tags: ["a", "b", "a"], codes: [1, 2]),
            Tagged(id: "y", rank: 2, tags: ["b"], codes: []),
        ])
        let query = Tagged.index().query.filter(.containsAny("tags", ["a", "b", "b"]))
        #expect(try query.keys(in: database) == ["x", "y"])
        #expect(try query.count(in: database) == 2)
        let all = Tagged.index().query.filter(.containsAll("tags", ["a", "b", "a"]))
        #expect(try all.keys(in: database) == ["x"])
        let both = Tagged.index().query.filter(.contains("tags", "a"), .contains("codes", 2))
        #expect(try both.keys(in: database) == ["x"])
    }

    @Test func anyOfNoValuesMatchesNothingAndAllOfNoValuesMatchesEverything() throws {
        let database = try database(with: [
            Tagged(id: "x", rank: 1, tags: ["a"], codes: []),
            Tagged(id: "y", rank: 2, tags: [], codes: []),
        ])
        let query = Tagged.index().query
        #expect(try query.filter(.containsAny("tags", [String]())).keys(in: database) == [])
        #expect(try query.filter(.containsAll("tags", [String]())).keys(in: database) == ["x", "y"])
        #expect(
            try query.filter(.containsAll("tags", [String]()), .column("rank", equals: 2)).keys(in: database) == ["y"])
    }

    @Test func conditionsThatDoNotFitTheirColumnAreRefused() throws {
        let database = try database(with: [Tagged(id: "x", rank: 1, tags: ["a"], codes: [])])
        let query = Tagged.index().query
        let onScalar = #expect(throws: TroveError.self) { try query.filter(.contains("rank", 1)).items(in: database) }
        #expect(onScalar?.code == .extensionFailed)
        #expect(onScalar?.message.contains("holds one value per item") == true)
        let equalsOnMulti = #expect(throws: TroveError.self) {
            try query.filter(.column("tags", equals: "a")).items(in: database)
        }
        #expect(equalsOnMulti?.message.contains("holds several values per item") == true)
        let ordered = #expect(throws: TroveError.self) { try query.sorted(by: .column("tags")).items(in: database) }
        #expect(ordered?.message.contains("cannot be sorted by it") == true)
        let unknown = #expect(throws: TroveError.self) { try query.filter(.contains("nope", 1)).items(in: database) }
        #expect(unknown?.message.contains("has no column 'nope'") == true)
    }

    /// Aggregates, distinct values and projections read single-valued columns: one of a
    /// multi-valued column is refused in words, not run on a column the index's table lacks.
    @Test func aggregatesOfAMultiValuedColumnAreRefused() throws {
        let database = try database(with: [Tagged(id: "x", rank: 1, tags: ["a"], codes: [2])])
        let query = Tagged.index().query
        let sum = #expect(throws: TroveError.self) { try query.sum(of: "codes").value(in: database) }
        #expect(sum?.code == .extensionFailed)
        #expect(sum?.message.contains("aggregates, distinct values and projections read the columns that hold one") == true, "\(sum?.message ?? "")")
        let distinct = #expect(throws: TroveError.self) { try query.distinct("tags").value(in: database) }
        #expect(distinct?.message.contains("aggregates, distinct values and projections") == true)
        let values = #expect(throws: TroveError.self) { try query.values(of: "rank", "tags").value(in: database) }
        #expect(values?.message.contains("aggregates, distinct values and projections") == true)
        #expect(try query.sum(of: "rank").value(in: database) == 1)
    }

    @Test func aUniqueMultiValuedColumnIsRefusedAtRegistration() throws {
        let index = SecondaryIndex<Tagged>("unique_tags", columns: [.values("tags", unique: true) { $0.tags }])
        let error = #expect(throws: TroveError.self) {
            _ = try Database.temporary(extensions: [index.databaseExtension])
        }
        #expect(error?.code == .extensionFailed)
        #expect(
            error?.message
                == "The multi-valued column 'tags' of the index 'unique_tags' cannot be unique: Trove does not enforce uniqueness over several values per item. Define it without unique: true."
        )
    }

    /// The pairs of an item go with it, with its collection, and with the index when it is
    /// unregistered (its side tables are dropped with its table).
    @Test func removingTheItemTheCollectionOrTheIndexLeavesNoPairs() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/pairs.trove"
        let database = try Database(path: path, extensions: [Tagged.index().databaseExtension])
        func pairs() throws -> [String] {
            try rawQuery(path, "SELECT value FROM \"trove_ext_tagged$tags\" ORDER BY value")
        }
        try database.write([
            Tagged(id: "x", rank: 1, tags: ["a", "b", "a"], codes: [1]),
            Tagged(id: "y", rank: 1, tags: ["a"], codes: []),
        ])
        #expect(try pairs() == ["a", "a", "b"])
        _ = try database.remove(Tagged.self, key: "x")
        #expect(try pairs() == ["a"])
        #expect(try Tagged.index().query.filter(.contains("tags", "a")).keys(in: database) == ["y"])
        try database.write(Tagged(id: "y", rank: 1, tags: ["c"], codes: []))
        #expect(try pairs() == ["c"])
        _ = try database.removeAll(Tagged.self)
        #expect(try pairs() == [])
        try database.write(Tagged(id: "z", rank: 1, tags: ["d"], codes: []))
        #expect(try database.unregister("tagged"))
        let tables = try rawQuery(path, "SELECT name FROM sqlite_master WHERE name LIKE 'trove_ext_tagged%'")
        #expect(tables == [])
    }
}
