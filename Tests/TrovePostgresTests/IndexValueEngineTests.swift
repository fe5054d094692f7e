import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// The aggregates, groups, distinct values and projections of a secondary index on PostgreSQL:
/// the model check of `IndexValueQueryTests` (written once, in TroveTestSupport), smaller, on a
/// `PostgresStore`, through its places and its transactions.
struct IndexValueEngineTests {
    /// Random writes, updates, removals and removals of the collection, then random queries whose
    /// every aggregate, grouped aggregate, distinct list and projection must be what the model
    /// computes (the same model a Trove file is checked against).
    @Test(.enabled(if: TestServer.isConfigured, "needs a PostgreSQL server"), arguments: [11, 12] as [UInt64])
    func valuesMatchABruteForceModel(seed: UInt64) async throws {
        try await TestServer.withStore(extensions: [AggregateSample.index.databaseExtension]) { store in
            var check = IndexValueModelCheck(seed: seed)
            try await check.run(
                steps: 25, queries: 2, place: store,
                readers: [
                    AsyncPlaceValueReader(store, name: "postgres"),
                    AsyncTransactionValueReader(store, name: "postgres-transaction"),
                ])
            #expect(
                check.failures.isEmpty,
                "\(check.failures.count) of \(check.compared) reads differ: \(check.failures.prefix(5))")
            #expect(check.compared > 500)
            #expect(check.refusals == 25 * 2 * 5)
        }
    }

    /// An integer sum beyond 64 bits throws `overflow` on PostgreSQL too (whose own `sum` of a
    /// `bigint` would not overflow: it is exact, and cast back).
    @Test(.enabled(if: TestServer.isConfigured, "needs a PostgreSQL server"))
    func anIntegerSumThatOverflowsThrows() async throws {
        try await TestServer.withStore(extensions: [AggregateSample.index.databaseExtension]) { store in
            try await store.write([
                AggregateSample(id: 1, amount: Int.max, ratio: nil, label: nil, bucket: 0),
                AggregateSample(id: 2, amount: 1, ratio: nil, label: nil, bucket: 0),
            ])
            let query = AggregateSample.index.query
            do {
                _ = try await query.sum(of: "amount").value(in: store)
                Issue.record("the sum did not overflow")
            } catch let error as TroveError {
                #expect(error.code == .overflow)
                #expect(error.message.contains("'amount'") && error.message.contains("'index_value_samples'"))
            }
            #expect(try await query.sum(of: "amount", as: Double.self).value(in: store) == Double(Int.max) + 1)
        }
    }
}
