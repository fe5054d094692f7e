import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// Multi-valued index columns on every engine, from the same query values: the model workload of
/// `MultiValuedIndexTests` (smaller), the generated conditions of an `@indexed` array and set
/// (the showcase's `Article`), a store reopened with a new version, and the refusal of a unique
/// multi-valued column.
struct MultiValuedEngineTests {
    /// Runs `body` with a fresh place of `place`'s kind holding `extensions`.
    private func run(
        _ place: Place, extensions: [DatabaseExtension], _ body: (any AsyncDatabaseWriter) async throws -> Void
    ) async throws {
        switch place {
        case .sqlite:
            try await body(try Database.temporary(extensions: extensions))
        case .postgres, .postgresWithoutIndex:
            try await TestServer.withStore(extensions: extensions) { try await body($0) }
        }
    }

    @Test(arguments: Place.indexed)
    func queriesMatchABruteForceModel(_ place: Place) async throws {
        for seed in [11, 12] as [UInt64] {
            try await run(place, extensions: [Tagged.index().databaseExtension]) { store in
                var workload = MultiValuedWorkload(seed: seed)
                for _ in 0..<60 {
                    try await workload.randomWrite(on: store)
                    for _ in 0..<4 {
                        do {
                            try await workload.checkRandomQuery(Tagged.index(), on: store)
                        } catch let mismatch as WorkloadMismatch {
                            Issue.record("\(place) seed \(seed): \(mismatch)")
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: Place.indexed)
    func generatedConditionsOfAnArrayAndASet(_ place: Place) async throws {
        let first = UUID()
        try await run(place, extensions: Article.databaseExtensions) { store in
            try await store.write([
                Article(id: "a1", tags: ["swift", "sql", "swift"], reviewerIDs: [1, 2], related: [first], rank: 3),
                Article(id: "a2", tags: ["sql"], reviewerIDs: [2], related: nil, rank: 1),
                Article(id: "a3", tags: [], reviewerIDs: [], related: [], rank: 2),
            ])
            #expect(try await Article.query.filter(.tags(contains: "sql")).keys(in: store) == ["a1", "a2"])
            #expect(
                try await Article.query.filter(.tags(containsAny: ["swift", "sql"])).sorted(by: .rank).keys(in: store)
                    == ["a2", "a1"])
            #expect(try await Article.query.filter(.tags(containsAll: ["swift", "sql"])).count(in: store) == 1)
            #expect(try await Article.query.filter(.tags(containsAll: [String]())).count(in: store) == 3)
            #expect(try await Article.query.filter(.reviewerIDs(containsAny: [Int]())).count(in: store) == 0)
            #expect(
                try await Article.query.filter(.reviewerIDs(contains: 2), .rank(2...)).keys(in: store) == ["a1"])
            #expect(try await Article.query.filter(.related(contains: first)).keys(in: store) == ["a1"])
            // An update that empties the values, then a removal.
            try await store.write(Article(id: "a1", tags: [], reviewerIDs: [2], related: nil, rank: 3))
            #expect(try await Article.query.filter(.tags(contains: "sql")).keys(in: store) == ["a2"])
            _ = try await store.remove(Article.self, key: "a2")
            #expect(try await Article.query.filter(.reviewerIDs(contains: 2)).keys(in: store) == ["a1"])
        }
    }

    @Test(arguments: Place.indexed)
    func aUniqueMultiValuedColumnIsRefused(_ place: Place) async throws {
        let index = SecondaryIndex<Tagged>("unique_tags", columns: [.values("tags", unique: true) { $0.tags }])
        let error = await #expect(throws: TroveError.self) {
            try await run(place, extensions: [index.databaseExtension]) { _ in }
        }
        #expect(error?.code == .extensionFailed)
        #expect(
            error?.message.contains("The multi-valued column 'tags' of the index 'unique_tags' cannot be unique")
                == true)
    }

    @Test(arguments: Place.indexed)
    func conditionsThatDoNotFitTheirColumnAreRefusedInTheSameWords(_ place: Place) async throws {
        try await run(place, extensions: [Tagged.index().databaseExtension]) { store in
            let query = Tagged.index().query
            let onScalar = await #expect(throws: TroveError.self) {
                try await query.filter(.contains("rank", 1)).items(in: store)
            }
            #expect(onScalar?.message.contains("holds one value per item") == true)
            let ordered = await #expect(throws: TroveError.self) {
                try await query.sorted(by: .column("tags")).items(in: store)
            }
            #expect(ordered?.message.contains("cannot be sorted by it") == true)
        }
    }

    @Test(arguments: Place.indexed)
    func aSearchNarrowedByAMultiValuedColumn(_ place: Place) async throws {
        let search = FullTextSearch<Tagged>("tagged_text", columns: [.column("tags") { $0.tags }])
        try await run(place, extensions: [Tagged.index().databaseExtension, search.databaseExtension]) { store in
            try await store.write([
                Tagged(id: "x", rank: 1, tags: ["apple"], codes: [1]),
                Tagged(id: "y", rank: 1, tags: ["apple"], codes: [2]),
                Tagged(id: "z", rank: 1, tags: ["pear"], codes: [1, 3]),
            ])
            let apples = search.query(for: .allWords(of: "apple"))
            #expect(try await apples.filter(Tagged.index(), .containsAny("codes", [1, 3])).keys(in: store) == ["x"])
            #expect(try await apples.filter(Tagged.index(), .containsAll("codes", [1, 2])).count(in: store) == 0)
        }
    }

    /// A store reopened on its schema with a new version of the index rebuilds it from the
    /// items, and the queries agree with the model still.
    @Test func aNewVersionRebuildsOnPostgres() async throws {
        guard TestServer.isConfigured else { return }
        let schema = TestServer.freshSchema()
        var workload = MultiValuedWorkload(seed: 21)
        let store = try await TestServer.openStore(schema: schema, extensions: [Tagged.index().databaseExtension])
        for _ in 0..<40 { try await workload.randomWrite(on: store) }
        store.close()
        let reopened = try await TestServer.openStore(
            schema: schema, extensions: [Tagged.index(version: 2).databaseExtension])
        for _ in 0..<40 {
            do {
                try await workload.checkRandomQuery(Tagged.index(version: 2), on: reopened)
            } catch let mismatch as WorkloadMismatch {
                Issue.record("\(mismatch)")
            }
        }
        await TestServer.dispose(reopened)
    }
}
