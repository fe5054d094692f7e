import Foundation
import Synchronization
import Testing
import Trove
@_spi(Testing) import TrovePostgres

/// Two stores with their own pools, caches and listeners on one schema: two app instances.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct TwoInstanceTests {
    /// Opens two stores on one fresh schema and runs `body`; drops the schema after.
    func withTwoStores(
        _ configure: @escaping (inout PostgresStore.Configuration) -> Void = { _ in },
        _ body: (PostgresStore, PostgresStore) async throws -> Void
    ) async throws {
        let schema = TestServer.freshSchema()
        let first = try await TestServer.openStore(schema: schema, extensions: [User.index.databaseExtension], configure)
        let second = try await TestServer.openStore(schema: schema, extensions: [User.index.databaseExtension], configure)
        defer { second.close() }
        do {
            try await body(first, second)
        } catch {
            await TestServer.dispose(first)
            throw error
        }
        await TestServer.dispose(first)
    }

    @Test func writeInOneIsReadInTheOther() async throws {
        try await withTwoStores { first, second in
            let users = makeUsers(20)
            try await first.write { tx in try await tx.write(users) }
            let read = try await second.read { tx in try await tx.readAll(User.self) }
            #expect(read == users.sorted { $0.userID.itemKey < $1.userID.itemKey })
            let adults = try await User.query.filter(.age(18...)).count(in: second)
            #expect(adults == users.filter { $0.age >= 18 }.count)
        }
    }

    /// The second store caches an item; the first changes it; the second's very next read, with
    /// no wait for the notification, returns the new value. Many rounds, with removals too.
    ///
    /// Bounded: fails with ``TimedOut`` instead of hanging when a transaction never answers.
    ///
    /// With `notifications: false`, the second store does not listen: every read must catch up
    /// from the change log alone (on loopback the notification usually arrives first, which
    /// would hide a broken catch-up).
    @Test(arguments: [true, false])
    func cachedItemIsNeverStaleAfterTheOtherCommits(notifications: Bool) async throws {
        try await bounded(.seconds(120), "60 rounds of cached reads and the other's commits") {
            try await cachedReadsRounds(notifications: notifications)
        }
    }

    private func cachedReadsRounds(notifications: Bool) async throws {
        try await withTwoStores { first, second in
            if !notifications { second.stopListening() }
            var user = makeUsers(1)[0]
            try await first.write { tx in try await tx.write(user) }
            for round in 0..<60 {
                // Read twice: the second read is served by the cache.
                _ = try await second.read { tx in try await tx.read(User.self, key: user.userID) }
                #expect(try await second.read { tx in try await tx.read(User.self, key: user.userID) } == user)
                #expect(second.cachedItemCount > 0, "the item should be cached, else this test proves nothing")
                if round % 10 == 9 {
                    try await first.remove(user)
                    #expect(try await second.read(User.self, key: user.userID) == nil, "round \(round), one statement")
                    #expect(try await second.read { tx in try await tx.read(User.self, key: user.userID) } == nil)
                    #expect(try await second.read { tx in try await tx.contains(User.self, key: user.userID) } == false)
                }
                user.age = round
                user.name = "round \(round)"
                try await first.write { tx in try await tx.write(user) }
                // The read of one statement (no transaction) first, then a transaction's.
                #expect(try await second.read(User.self, key: user.userID) == user, "round \(round), one statement")
                let seen = try await second.read { tx in try await tx.read(User.self, key: user.userID) }
                #expect(seen == user, "round \(round)")
            }
        }
    }

    /// Every read of a read transaction sees one snapshot: while one store moves amounts between
    /// two tallies (their sum stays 100), the other store's transactions read both, one statement
    /// each (its cache is off, so both go to the server), and never see a sum other than 100.
    @Test func aReadTransactionSeesOneSnapshot() async throws {
        try await withTwoStores({ $0.itemCacheLimit = 0 }) { first, second in
            try await first.write { tx in
                try await tx.write(Tally(id: "a", value: 50))
                try await tx.write(Tally(id: "b", value: 50))
            }
            let transfers = 300
            let writer = Task {
                for step in 0..<transfers {
                    try await first.write { tx in
                        var a = try #require(try await tx.read(Tally.self, key: "a"))
                        var b = try #require(try await tx.read(Tally.self, key: "b"))
                        let amount = step % 7 - 3
                        a.value -= amount
                        b.value += amount
                        try await tx.write(a)
                        try await tx.write(b)
                    }
                }
            }
            let reads = 400
            var torn: [Int] = []
            for _ in 0..<reads {
                let sum = try await second.read { tx in
                    let a = try await tx.read(Tally.self, key: "a")?.value ?? 0
                    let b = try await tx.read(Tally.self, key: "b")?.value ?? 0
                    return a + b
                }
                if sum != 100 { torn.append(sum) }
            }
            try await writer.value
            #expect(torn.isEmpty, "\(torn.count) of \(reads) read transactions saw a sum other than 100: \(torn.prefix(5))")
        }
    }

    /// Read-modify-write increments from both stores at once: every one counts.
    @Test func concurrentIncrementsFromBothLoseNothing() async throws {
        try await withTwoStores { first, second in
            try await first.write { tx in try await tx.write(Tally(id: "hits", value: 0)) }
            let perTask = 15
            let tasksPerStore = 4
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in [first, second] {
                    for _ in 0..<tasksPerStore {
                        group.addTask {
                            for _ in 0..<perTask {
                                try await store.write { tx in
                                    var counter = try #require(try await tx.read(Tally.self, key: "hits"))
                                    counter.value += 1
                                    try await tx.write(counter)
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let expected = 2 * tasksPerStore * perTask
            #expect(try await first.read { tx in try await tx.read(Tally.self, key: "hits") }?.value == expected)
            #expect(try await second.read { tx in try await tx.read(Tally.self, key: "hits") }?.value == expected)
        }
    }

    /// A commit in the first store reaches the second's `changes`, naming what changed.
    @Test func changesReachTheOtherInstance() async throws {
        try await withTwoStores { first, second in
            let changes = second.changes
            let user = makeUsers(1)[0]
            try await first.write { tx in try await tx.write(user) }
            try await first.write { tx in _ = try await tx.removeAll(User.self) }
            var iterator = changes.makeAsyncIterator()
            let written = try #require(await iterator.next())
            #expect(written.items == [ItemAddress(User.self, key: user.userID)])
            #expect(written.containsChange(forKey: user.userID.itemKey, in: "users"))
            #expect(!written.containsChange(forKey: "another", in: "users"))
            let cleared = try #require(await iterator.next())
            #expect(cleared.clearedCollections == ["users"])
            #expect(cleared.number == written.number + 1)
        }
    }

    /// A store that acknowledged writes and then went away (closed without any goodbye) lost
    /// none of them: the other store reads them all.
    @Test func acknowledgedWritesOutliveTheirInstance() async throws {
        try await withTwoStores { first, second in
            let users = makeUsers(30)
            for user in users {
                try await second.write { tx in try await tx.write(user) }
            }
            second.close()
            #expect(try await first.read { tx in try await tx.count(of: User.self) } == users.count)
        }
    }

    /// A transaction that conflicts is run again; with a single attempt allowed, the conflict is a
    /// clear `writeConflict` error and nothing of it is committed.
    @Test(arguments: [1, 3])
    func conflictsAreRetriedThenReported(attempts: Int) async throws {
        try await withTwoStores({ $0.maximumWriteAttempts = attempts }) { first, second in
            try await first.write { tx in try await tx.write(Tally(id: "c", value: 0)) }
            let runs = RunCounter()
            let increment: @Sendable () async throws -> Void = {
                try await first.write { tx in
                    var counter = try #require(try await tx.read(Tally.self, key: "c"))
                    if runs.next() == 1 {
                        // Another instance commits to the same item after this snapshot.
                        try await second.write { other in try await other.write(Tally(id: "c", value: 100)) }
                    }
                    counter.value += 1
                    try await tx.write(counter)
                }
            }
            if attempts == 1 {
                let error = await #expect(throws: TroveError.self) { try await increment() }
                #expect(error?.code == .writeConflict)
                #expect(try await first.read { tx in try await tx.read(Tally.self, key: "c") }?.value == 100)
            } else {
                try await increment()
                #expect(runs.count == 2)
                #expect(try await first.read { tx in try await tx.read(Tally.self, key: "c") }?.value == 101)
            }
        }
    }
}

/// Counts the runs of a transaction body (which may run more than once).
final class RunCounter: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}

