import Foundation
import Synchronization
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// What `PostgresStore.close()` does, as its documentation and the PostgreSQL article say (issue 30).
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct CloseTests {
    /// Closing ends the loops over `changes`; transactions started afterwards throw `misuse`,
    /// naming the store, without reaching the server; closing again does nothing.
    @Test func closeEndsChangesLoopsAndRefusesLaterTransactions() async throws {
        let store = try await TestServer.openStore()
        let schema = store.configuration.schema
        try await store.write { tx in try await tx.write(Tally(id: "a", value: 1)) }
        let ended = Mutex(false)
        let loop = Task {
            for await _ in store.changes {}
            ended.withLock { $0 = true }
        }
        store.close()
        // Waits at most a minute: a loop that close() did not end fails the test instead of hanging it.
        for _ in 0..<600 where !ended.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(ended.withLock { $0 }, "the loop over changes did not end when the store closed")
        loop.cancel()
        let calls: [(String, @Sendable () async throws -> Void)] = [
            ("read", { _ = try await store.read { tx in try await tx.read(Tally.self, key: "a") } }),
            ("point read", { _ = try await store.read(Tally.self, key: "a") }),
            ("write", { try await store.write { tx in try await tx.write(Tally(id: "b", value: 2)) } }),
        ]
        for (name, call) in calls {
            do {
                try await call()
                Issue.record("\(name) after close() succeeded")
            } catch let error as TroveError {
                #expect(error.code == .misuse, "\(name): \(error)")
                #expect(error.message.contains("was closed"), "\(name): \(error.message)")
                #expect(error.message.contains(schema), "\(name): \(error.message)")
                #expect(internalsShown(in: error.description).isEmpty, "\(name): \(error.description)")
            }
        }
        store.close()
        let other = try await TestServer.openStore(schema: schema)
        #expect(
            try await other.read { tx in try await tx.count(of: Tally.self) } == 1, "nothing was written after close")
        await TestServer.dispose(other)
    }

    /// A transaction under way when the store closes fails with a `server` error and commits
    /// nothing.
    @Test func aTransactionUnderWayFailsAndCommitsNothing() async throws {
        let store = try await TestServer.openStore()
        let schema = store.configuration.schema
        let started = AsyncStream<Void>.makeStream()
        let inFlight = Task {
            try await store.write { tx in
                _ = try await tx.read(Tally.self, key: "a")
                try await tx.write(Tally(id: "b", value: 2))
                started.continuation.yield()
                try await Task.sleep(for: .milliseconds(300))
                try await tx.write(Tally(id: "c", value: 3))
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        store.close()
        await #expect(throws: TroveError.self) { try await inFlight.value }
        do {
            try await inFlight.value
        } catch let error as TroveError {
            #expect(error.code == .server, "\(error)")
        }
        let other = try await TestServer.openStore(schema: schema)
        #expect(try await other.read { tx in try await tx.count(of: Tally.self) } == 0)
        await TestServer.dispose(other)
    }
}
