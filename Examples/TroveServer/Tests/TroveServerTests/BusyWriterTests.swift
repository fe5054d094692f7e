import Foundation
import GRDB
import Testing
import TroveServerApp

/// A write of either store waits for a lock that another connection of the file holds for a
/// moment, instead of failing with `SQLITE_BUSY` (a `500` under load).
///
/// Under the load test's write-heavy mix, GRDB's writer, without a busy timeout, can fail with
/// "database is locked": a reader of the pool takes the write-ahead log's write lock for a moment
/// when it finds the log's index header changing under it (``GRDBUserStore/busyTimeout``). Here
/// the other connection holds the lock for longer, so that a write finds it every time.
@Suite struct BusyWriterTests {
    @Test(arguments: RoutesTests.Store.allCases)
    func aWriteWaitsForAWriteLockThatAnotherConnectionHolds(store: RoutesTests.Store) async throws {
        let (directory, path, userStore) = try RoutesTests.makeStore(store)
        defer { try? FileManager.default.removeItem(at: directory) }

        // Another connection takes the write lock and keeps it for 200 ms, across two accesses.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path, configuration: configuration)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let writing = Task { try await userStore.create(Seed.user(1)) }
        try await Task.sleep(for: .milliseconds(200))
        try await other.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }

        try await writing.value
        #expect(try await userStore.user(id: Seed.id(1)) == Seed.user(1))
    }
}
