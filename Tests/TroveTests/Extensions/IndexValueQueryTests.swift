import Foundation
import Synchronization
import Testing
import Trove
import TroveTestSupport

/// Reads with `value(tx)` inside a synchronous read transaction of a SQLite place.
struct SyncTransactionValueReader<Place: DatabaseReader & Sendable>: IndexValueReader {
    let place: Place
    let name: String

    func value<Value: Sendable>(_ query: IndexValueQuery<AggregateSample, Value>) async throws -> Value {
        func read() throws -> Value { try place.read { tx in try query.value(tx) } }
        return try read()
    }
}

/// Reads with `value(in:)` on a SQLite place, synchronously.
struct SyncPlaceValueReader<Place: DatabaseReader & Sendable>: IndexValueReader {
    let place: Place
    let name: String

    func value<Value: Sendable>(_ query: IndexValueQuery<AggregateSample, Value>) async throws -> Value {
        func read() throws -> Value { try query.value(in: place) }
        return try read()
    }
}

/// The aggregates, groups, distinct values and projections of a secondary index
/// (`IndexValueQuery`) on a Trove file: a model check over every place, and what the model check
/// cannot see (an overflow, no decoding).
struct IndexValueQueryTests {
    static let steps = ProcessInfo.processInfo.environment["TROVE_INDEX_VALUE_STEPS"].flatMap { Int($0) } ?? 80

    /// Random writes, updates, removals and removals of the collection, each followed by random
    /// queries whose every aggregate, grouped aggregate, distinct list and projection must be
    /// what a brute-force model of the items computes, read in every form of every SQLite place.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func valuesMatchABruteForceModel(seed: UInt64) async throws {
        let database = try Database.temporary(extensions: [AggregateSample.index.databaseExtension])
        let connection = try database.newConnection()
        let readers: [any IndexValueReader] = [
            SyncTransactionValueReader(place: connection, name: "transaction"),
            SyncPlaceValueReader(place: connection, name: "connection"),
            SyncPlaceValueReader(place: database, name: "database"),
            AsyncPlaceValueReader(connection, name: "connection-async"),
            AsyncPlaceValueReader(database, name: "database-async"),
            AsyncTransactionValueReader(database, name: "any-engine-transaction"),
        ]
        var check = IndexValueModelCheck(seed: seed)
        try await check.run(steps: Self.steps, queries: 3, place: connection, readers: readers)
        #expect(
            check.failures.isEmpty,
            "\(check.failures.count) of \(check.compared) reads differ: \(check.failures.prefix(5))")
        #expect(check.compared > 1_000)
        #expect(check.refusals == Self.steps * 3 * 5)
    }

    /// An integer sum beyond 64 bits throws `overflow`, naming the index and the column, instead
    /// of wrapping or crashing; the same sum as a `Double` is read.
    @Test func anIntegerSumThatOverflowsThrows() throws {
        let database = try Database.temporary(extensions: [AggregateSample.index.databaseExtension])
        try database.write([
            AggregateSample(id: 1, amount: Int.max, ratio: nil, label: nil, bucket: 0),
            AggregateSample(id: 2, amount: 1, ratio: nil, label: nil, bucket: 0),
        ])
        let query = AggregateSample.index.query
        let error = #expect(throws: TroveError.self) { try query.sum(of: "amount").value(in: database) }
        #expect(error?.code == .overflow)
        #expect(error?.message.contains("'amount'") == true && error?.message.contains("'index_value_samples'") == true)
        #expect(error?.message.contains("SELECT") == false)
        let total = try query.sum(of: "amount", as: Double.self).value(in: database)
        #expect(total == Double(Int.max) + 1)
        // The grouped sum too.
        let grouped = #expect(throws: TroveError.self) {
            try query.grouped(by: "bucket").sum(of: "amount").value(in: database)
        }
        #expect(grouped?.code == .overflow)
        // A sum that only passes through the limit fits.
        #expect(try query.sorted(by: .column("amount")).limit(1).sum(of: "amount").value(in: database) == 1)
    }

    /// Aggregates and projections read the index's table alone: no item is decoded (the items
    /// query, on the same fresh connection, decodes them).
    @Test func valuesDecodeNoItem() throws {
        let database = try Database.temporary(extensions: [AggregateSample.index.databaseExtension])
        try database.write(
            (1...20).map { AggregateSample(id: $0, amount: $0, ratio: 0.5, label: "l\($0 % 3)", bucket: $0 % 4) })
        let connection = try database.newConnection()
        let query = AggregateSample.index.query.filter(.column("bucket", in: 1...)).sorted(
            by: .column("amount", .descending))
        let before = AggregateSample.decodings.load(ordering: .relaxed)
        let rows = try query.limit(3).values(of: "amount", "label").value(in: connection)
        #expect(
            rows == [
                IndexRow(key: 19, values: [.integer(19), .text("l1")]),
                IndexRow(key: 18, values: [.integer(18), .text("l0")]),
                IndexRow(key: 17, values: [.integer(17), .text("l2")]),
            ])
        #expect(try query.sum(of: "amount").value(in: connection) == 210 - (4 + 8 + 12 + 16 + 20))
        #expect(try query.distinct("label").value(in: connection) == [.text("l0"), .text("l1"), .text("l2")])
        #expect(AggregateSample.decodings.load(ordering: .relaxed) == before)
        _ = try query.items(in: connection)
        #expect(AggregateSample.decodings.load(ordering: .relaxed) >= before + 15)
    }
}
