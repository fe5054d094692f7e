import Foundation
import Testing
import Trove
import TroveTestSupport

@testable import Trove

/// The database's own connections: ``Database/read(label:fileID:line:_:)-(_)`` and its twins.
struct DatabasePoolTests {
    // MARK: Parallel readers

    @Test func readersRunInParallel() async throws {
        let database = try makeTemporaryDatabase { $0.maximumReaderCount = 3 }
        try await database.write(Account(id: 1, balance: 10))
        // Three reads meet inside their bodies: only possible when they run at the same time.
        let barrier = Barrier(count: 3)
        let met = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await database.read { tx in
                        _ = try tx.read(Account.self, key: 1)
                        return barrier.arriveAndWait()
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(met == [true, true, true])
    }

    @Test func aReadRunsWhileTheWriterIsBusy() async throws {
        let database = try makeTemporaryDatabase()
        try await database.write(Account(id: 1, balance: 10))
        let gate = Gate()
        async let write: Bool = database.write { tx in
            try tx.write(Account(id: 1, balance: 20))
            return gate.wait()
        }
        #expect(await eventually { database.transactionsInProgress.contains { $0.state == .running } })
        // The writer holds its transaction until the read below ends: readers do not wait for it.
        let balance = try await database.read { tx in try tx.read(Account.self, key: 1)?.balance }
        gate.open()
        #expect(try await write)
        #expect(balance == 10)
        #expect(try await database.read(Account.self, key: 1)?.balance == 20)
    }

    // MARK: Snapshots

    @Test func everyReadSeesAConsistentSnapshotUnderConcurrentWrites() async throws {
        // A cache smaller than the accounts: a read mixes cached items and items from the file.
        let database = try makeTemporaryDatabase {
            $0.maximumReaderCount = 4
            $0.itemCacheLimit = 3
        }
        let accounts = 8
        try await database.write((0..<accounts).map { Account(id: $0, balance: 100) })
        let total = accounts * 100
        let writing = Locked(true)
        // Every read checks the invariant: transfers keep the sum of the balances constant.
        let sums = try await withThrowingTaskGroup(of: [Int].self) { group in
            group.addTask {
                defer { writing.withLock { $0 = false } }
                for step in 0..<400 {
                    let from = step % accounts
                    let to = (from + 1 + step % (accounts - 1)) % accounts
                    try await database.write { tx in
                        var a = try tx.read(Account.self, key: from)!
                        var b = try tx.read(Account.self, key: to)!
                        a.balance -= step % 7 + 1
                        try tx.write(a)  // Two writes: a reader between them would see a hole.
                        b.balance += step % 7 + 1
                        try tx.write(b)
                    }
                    await Task.yield()
                }
                return []
            }
            for _ in 0..<6 {
                group.addTask {
                    var sums: [Int] = []
                    // Reads as long as the writes go on (readers' caches stay warm in between).
                    while writing.current || sums.count < 20 {
                        sums.append(
                            try await database.read { tx in
                                // One statement per account: each must see the transaction's snapshot.
                                try (0..<accounts).reduce(0) { $0 + (try tx.read(Account.self, key: $1)?.balance ?? 0) }
                            })
                    }
                    return sums
                }
            }
            return try await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(sums.count >= 120)
        #expect(sums.allSatisfy { $0 == total }, "sums seen: \(Set(sums).sorted())")
    }

    // MARK: Caches

    @Test func everyReaderSeesTheWritesOfThePoolAndOfConnections() async throws {
        let readers = 4
        let database = try makeTemporaryDatabase { $0.maximumReaderCount = readers }
        try await database.write(Account(id: 1, balance: 1))
        // Reads the account on every reader at once (they meet at a barrier, so each runs on
        // its own reader), with a warm cache after the first round.
        func readOnEveryReader() async throws -> [Int?] {
            let barrier = Barrier(count: readers)
            return try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<readers {
                    group.addTask {
                        try await database.read { tx in
                            let balance = try tx.read(Account.self, key: 1)?.balance
                            return barrier.arriveAndWait() ? balance : -1
                        }
                    }
                }
                return try await group.reduce(into: [Int?]()) { $0.append($1) }
            }
        }
        #expect(try await readOnEveryReader() == [1, 1, 1, 1])
        try await database.write(Account(id: 1, balance: 2))
        #expect(try await readOnEveryReader() == [2, 2, 2, 2])
        let connection = try database.newConnection()
        try await connection.write(Account(id: 1, balance: 3))
        #expect(try await readOnEveryReader() == [3, 3, 3, 3])
        try await database.remove(Account.self, keys: [1])
        #expect(try await readOnEveryReader() == [nil, nil, nil, nil])
        // And a connection's cache sees the pool's writes.
        try await database.write(Account(id: 1, balance: 4))
        #expect(try await connection.read(Account.self, key: 1)?.balance == 4)
    }

    // MARK: Order of writes

    @Test func waitingWritesRunInTheOrderTheyWereAskedFor() async throws {
        let database = try makeTemporaryDatabase()
        let gate = Gate()
        let order = Locked<[Int]>([])
        let blocker = Task {
            try await database.write { _ in gate.wait() }
        }
        #expect(await eventually { database.transactionsInProgress.contains { $0.state == .running } })
        var writes: [Task<Void, any Error>] = []
        for index in 0..<20 {
            writes.append(
                Task {
                    try await database.write { tx in
                        order.withLock { $0.append(index) }
                        try tx.write(Account(id: index, balance: index))
                    }
                })
            // The next write asks only once this one waits.
            #expect(await eventually { database.waitingWriterCount == index + 1 })
        }
        gate.open()
        #expect(try await blocker.value)
        for write in writes { try await write.value }
        #expect(order.current == Array(0..<20))
    }

    // MARK: Bounded threads

    @Test func tenThousandTasksCompleteWithABoundedThreadCount() async throws {
        let database = try makeTemporaryDatabase { $0.maximumReaderCount = 4 }
        try await database.write((0..<100).map { Account(id: $0, balance: $0) })
        let tasks = 10_000
        // The first transactions hold their connections until every other task waits for one.
        let gate = Gate()
        // The count is the process's: the suites that run alongside have threads of their own,
        // so the bound is on what the burst adds (a thread per waiting task would add hundreds).
        let baseline = currentThreadCount()
        let (allWaited, threads, results) = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<tasks {
                group.addTask {
                    if index % 10 == 0 {
                        return try await database.write { tx in
                            _ = gate.wait()
                            try tx.write(Account(id: index % 100, balance: index))
                            return 1
                        }
                    }
                    return try await database.read { tx in
                        _ = gate.wait()
                        return try tx.read(Account.self, key: index % 100) == nil ? 0 : 1
                    }
                }
            }
            // 4 readers and the writer run; everything else waits, without a thread each.
            var threads: Int?
            let allWaited = await eventually {
                if let count = currentThreadCount() { threads = max(threads ?? 0, count) }
                return database.waitingReaderCount + database.waitingWriterCount == tasks - 5
            }
            gate.open()
            return (allWaited, threads, try await group.reduce(0, +))
        }
        #expect(allWaited, "waiting: \(database.waitingReaderCount) readers, \(database.waitingWriterCount) writers")
        #expect(results == tasks)
        if let threads, let baseline {
            // The suites alongside start threads too while this one runs: 72 were seen under
            // AddressSanitizer beside the extension suites, which run child processes and runners.
            #expect(threads - baseline <= 256, "threads while \(tasks) tasks waited: \(threads), before: \(baseline)")
        }
    }

    // MARK: Cancellation

    @Test func cancelledWaitersLeaveTheQueueAndThrowCancellationError() async throws {
        let database = try makeTemporaryDatabase { $0.maximumReaderCount = 2 }
        try await database.write(Account(id: 1, balance: 1))
        let gate = Gate()
        let blockers = (0..<2).map { _ in Task { try await database.read { _ in gate.wait() } } }
        #expect(await eventually { database.transactionsInProgress.filter { $0.state == .running }.count == 2 })
        let ran = Locked(0)
        let waiters = (0..<5).map { _ in
            Task {
                try await database.read { tx in
                    ran.withLock { $0 += 1 }
                    return try tx.read(Account.self, key: 1)?.balance
                }
            }
        }
        #expect(await eventually { database.waitingReaderCount == 5 })
        for waiter in waiters.prefix(3) { waiter.cancel() }
        for waiter in waiters.prefix(3) {
            await #expect(throws: CancellationError.self) { try await waiter.value }
        }
        #expect(database.waitingReaderCount == 2)
        gate.open()
        for blocker in blockers { #expect(try await blocker.value) }
        for waiter in waiters.suffix(2) { #expect(try await waiter.value == 1) }
        #expect(ran.current == 2)
    }

    @Test func aCancelledWaitingWriteIsNotApplied() async throws {
        let database = try makeTemporaryDatabase()
        let gate = Gate()
        let blocker = Task { try await database.write { _ in gate.wait() } }
        #expect(await eventually { database.transactionsInProgress.contains { $0.state == .running } })
        let write = Task { try await database.write(Account(id: 7, balance: 7)) }
        #expect(await eventually { database.waitingWriterCount == 1 })
        write.cancel()
        await #expect(throws: CancellationError.self) { try await write.value }
        #expect(database.waitingWriterCount == 0)
        gate.open()
        #expect(try await blocker.value)
        #expect(try await database.read(Account.self, key: 7) == nil)
    }

    @Test func aTaskCancelledBeforeItAsksThrowsAtOnce() async throws {
        let database = try makeTemporaryDatabase()
        let ran = Locked(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await database.read { _ in ran.withLock { $0 = true } }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.current)
    }

    // MARK: Busy

    @Test func noBusyErrorReachesTheCallerUnderAMixedLoad() async throws {
        // No busy timeout at all: a SQLITE_BUSY would surface at once.
        let database = try makeTemporaryDatabase {
            $0.maximumReaderCount = 3
            $0.busyTimeoutMilliseconds = 0
        }
        let connection = try database.newConnection()
        let errors = ErrorLog()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<24 {
                group.addTask {
                    for step in 0..<40 {
                        let operation = (task + step) % 4
                        do {
                            switch operation {
                            case 0: try await database.write(Account(id: step, balance: task))
                            case 1: _ = try await database.read { tx in try tx.count(of: Account.self) }
                            case 2: try await connection.write(Account(id: 100 + step, balance: task))
                            default: _ = try readSynchronously(database, key: step)
                            }
                        } catch {
                            let names = ["pool write", "pool read", "connection write", "synchronous pool read"]
                            errors.append("\(names[operation]): \(error)")
                        }
                    }
                }
            }
            group.addTask {
                // Checkpoints alongside, as SQLite's automatic ones would.
                for _ in 0..<20 {
                    do {
                        try await database.write { tx in
                            try tx.write(Account(id: 1_000, balance: 0))
                        }
                        try await connection.read { _ in }
                    } catch {
                        errors.append("pool write, then connection read: \(error)")
                    }
                }
            }
        }
        #expect(errors.all.isEmpty, "\(errors.all.prefix(5))")
    }

    /// SQLite's readers take the log's write lock for an instant when they find its index being
    /// updated; under load that instant lasts as long as the reader's thread waits for a core. A
    /// handle of this process holding the lock stands for it here.
    @Test func theWriterWaitsOutAMomentaryWriteLockWithABusyTimeoutOfZero() async throws {
        let database = try makeTemporaryDatabase { $0.busyTimeoutMilliseconds = 0 }
        try await database.write(Account(id: 1, balance: 1))
        let holder = try SQLiteConnection(path: database.path, access: .readWrite, key: database.configuration.encryptionKey)
        try holder.execute("BEGIN IMMEDIATE")
        // Released by a thread of its own: the tasks of a loaded test run may wait for a core
        // of the cooperative pool longer than the grace.
        let released = Locked<(any Error)?>(nil)
        // Handed over to that thread, which alone uses it from then on.
        nonisolated(unsafe) let handedOver = holder
        let releaser = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            do { try handedOver.execute("COMMIT") } catch { released.withLock { $0 = error } }
        }
        releaser.start()
        try await database.write(Account(id: 2, balance: 2))
        #expect(released.current == nil)
        #expect(try await database.read(Account.self, key: 2)?.balance == 2)
    }

    @Test func aWriteLockHeldPastTheGraceFailsWithABusyError() async throws {
        let database = try makeTemporaryDatabase { $0.busyTimeoutMilliseconds = 0 }
        try await database.write(Account(id: 1, balance: 1))
        let holder = try SQLiteConnection(path: database.path, access: .readWrite, key: database.configuration.encryptionKey)
        try holder.execute("BEGIN IMMEDIATE")
        // Timed around the synchronous write, so that waiting for a thread of the cooperative pool
        // (long on a loaded machine) is not counted. The upper bound only tells a retry loop that
        // gave up from one that waited for the holder; a loaded machine can stretch the grace.
        func writeTimed() -> (TroveError?, Duration) {
            let start = ContinuousClock.now
            let error = #expect(throws: TroveError.self) { try database.write(Account(id: 2, balance: 2)) }
            return (error, ContinuousClock.now - start)
        }
        let (error, waited) = writeTimed()
        try holder.execute("COMMIT")
        #expect(error?.sqliteResultCode == 5)
        #expect(error?.message.contains("busy timeout") == true)
        #expect(waited >= .milliseconds(400) && waited < .seconds(30), "\(waited)")
        try await database.write(Account(id: 2, balance: 2))
    }

    // MARK: Nesting

    @Test func nestedSynchronousTransactionsThrowInsteadOfDeadlocking() throws {
        let database = try makeTemporaryDatabase { $0.maximumReaderCount = 2 }
        #expect(
            try database.write { _ in
                isMisuse { try database.write { _ in } }
            })
        #expect(
            try database.write { _ in
                isMisuse { try database.read { _ in } }
            })
        #expect(
            try database.read { _ in
                isMisuse { try database.read { _ in } }
            })
        #expect(
            try database.read { _ in
                isMisuse { try database.write { _ in } }
            })
        // From a read-write transaction of a connection of the same database.
        let connection = try database.newConnection()
        #expect(
            try connection.write { _ in
                isMisuse { try database.write { _ in } }
            })
        // The database still works.
        try database.write(Account(id: 1, balance: 1))
        #expect(try database.read(Account.self, key: 1)?.balance == 1)
    }

    @Test func nestedSynchronousTransactionsInAsyncBodiesThrow() async throws {
        let database = try makeTemporaryDatabase { $0.maximumReaderCount = 2 }
        // The body of an async transaction runs on the connection's queue.
        #expect(
            try await database.write { _ in
                isMisuse { try database.write { _ in } }
            })
        #expect(
            try await database.read { _ in
                isMisuse { try database.read { _ in } }
            })
        #expect(
            try await database.read { _ in
                isMisuse { try database.write { _ in } }
            })
    }

    @Test func synchronousCallsFromManyThreadsShareTheQueues() throws {
        let database = try makeTemporaryDatabase { $0.maximumReaderCount = 2 }
        try database.write(Account(id: 0, balance: 0))
        let errors = ErrorLog()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                do {
                    try database.write { tx in
                        var account = try tx.read(Account.self, key: 0)!
                        account.balance += 1
                        try tx.write(account)
                    }
                    _ = try database.read(Account.self, key: 0)
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        #expect(errors.all.isEmpty)
        #expect(try database.read(Account.self, key: 0)?.balance == 400)
    }

    // MARK: Visibility of long transactions

    @Test func transactionsInProgressListsRunningAndWaitingTransactions() async throws {
        let database = try makeTemporaryDatabase { $0.longTransactionThreshold = nil }
        let gate = Gate()
        let blocker = Task { try await database.write(label: "import") { _ in gate.wait() } }
        #expect(await eventually { !database.transactionsInProgress.isEmpty })
        let waiter = Task { try await database.write(label: "second") { _ in } }
        #expect(await eventually { database.waitingWriterCount == 1 })
        let activities = database.transactionsInProgress
        #expect(activities.map(\.label) == ["import", "second"])
        #expect(activities.map(\.state) == [.running, .waiting])
        #expect(activities.allSatisfy { $0.kind == .write && $0.fileID.hasSuffix("DatabasePoolTests.swift") })
        #expect(activities[0].description.contains("write running \"import\""))
        gate.open()
        #expect(try await blocker.value)
        try await waiter.value
        #expect(database.transactionsInProgress.isEmpty)
    }

    @Test func aLongTransactionIsReportedOnce() async throws {
        let database = try makeTemporaryDatabase { $0.longTransactionThreshold = .milliseconds(20) }
        let reports = Locked<[TransactionActivity]>([])
        database.setLongTransactionHandler { activity in reports.withLock { $0.append(activity) } }
        let gate = Gate()
        let finished = Gate()
        // The slow transaction runs on a thread of its own, not in a task: under ThreadSanitizer the
        // suite's blocking tests can hold Swift's cooperative threads for minutes, and a task that
        // never starts is never reported (CI saw it). The watch itself runs on a queue of its own.
        let blocker = Thread {
            _ = try? database.read(label: "slow report") { _ in gate.wait() }
            finished.open()
        }
        blocker.start()
        #expect(await eventually { reports.current.contains { $0.label == "slow report" } })
        // Reported once, however long it runs on. (On a loaded machine another transaction, such as
        // the one that opens the database, may also pass the threshold: only this one's count matters.)
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        #expect(finished.wait())
        let slow = reports.current.filter { $0.label == "slow report" }
        #expect(slow.count == 1, "reported \(slow.count) times")
        #expect(slow.first?.kind == .read)
    }

    // MARK: Isolation

    @MainActor
    @Test func worksFromTheMainActorWithoutBlockingIt() async throws {
        let database = try makeTemporaryDatabase()
        try await database.write(Account(id: 1, balance: 1))
        let gate = Gate()
        // The read waits in its body for a job of the main actor, enqueued first: were the main
        // thread blocked in the read, the job could not run and the watchdog would end the wait.
        Task { @MainActor in gate.open() }
        let balance = try await database.read { tx in
            gate.wait() ? try tx.read(Account.self, key: 1)?.balance : nil
        }
        #expect(balance == 1)
    }

    // MARK: Lifetime

    @Test func theDatabaseAndItsFilesGoWhenTheLastReferenceDoes() async throws {
        var database: Database? = try makeTemporaryDatabase()
        try await database!.write(Account(id: 1, balance: 1))
        _ = try await database!.read(Account.self, key: 1)
        let folder = (database!.path as NSString).deletingLastPathComponent
        weak let weakDatabase = database
        database = nil
        #expect(weakDatabase == nil)
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    // MARK: Typed conveniences

    @Test func typedConveniencesOnTheDatabase() async throws {
        let database = try makeTemporaryDatabase()
        try await database.write(Account(id: 2, balance: 2))
        try await database.write([Account(id: 3, balance: 3), Account(id: 4, balance: 4), Account(id: 5, balance: 5)])
        #expect(try await database.read(Account.self, key: 2)?.balance == 2)
        #expect(try await database.read(Account.self, key: 3)?.balance == 3)
        #expect(try await database.read(Account.self, keys: [2, 9, 3]).map(\.id) == [2, 3])
        #expect(try await database.readAll(Account.self).count == 4)
        #expect(try await database.read { tx in try tx.filterExisting(Account.self, keys: [2, 9]).missing } == [9])
        #expect(try await database.remove(Account(id: 2, balance: 2)))
        #expect(try await database.remove(Account.self, keys: [3]) == 1)
        #expect(try await database.removeAll(Account.self) == 2)
        #expect(try await database.readAll(Account.self).isEmpty)
    }

    @Test func indexQueriesOnTheDatabase() async throws {
        let database = try makeTemporaryDatabase(extensions: [MemberIndexes.members.databaseExtension])
        try await database.write((0..<10).map {
            Member(id: "m\($0)", age: 20 + $0)
        })
        let query = MemberIndexes.members.query.filter(.column("age", in: 22..<25))
        #expect(try await query.count(in: database) == 3)
        #expect(try await query.keys(in: database) == ["m2", "m3", "m4"])
        #expect(try await query.sorted(by: .column("age"), .descending).first(in: database)?.id == "m4")
        #expect(try await query.items(in: database).map(\.age) == [22, 23, 24])
        #expect(try countSynchronously(query, in: database) == 3)
    }

    @Test func synchronousTypedConveniencesOnTheDatabase() throws {
        let database = try makeTemporaryDatabase()
        try database.write(Account(id: 1, balance: 1))
        try database.write([Account(id: 2, balance: 2), Account(id: 3, balance: 3)])
        #expect(try database.read(Account.self, key: 1)?.balance == 1)
        #expect(try database.read(Account.self, key: 2)?.balance == 2)
        #expect(try database.read(Account.self, keys: [1, 9, 2]).map(\.id) == [1, 2])
        #expect(try database.readAll(Account.self).count == 3)
        #expect(try database.read { tx in try tx.filterExisting(Account.self, keys: [1, 9]).missing } == [9])
        #expect(try database.remove(Account(id: 1, balance: 1)))
        #expect(try database.remove(Account.self, keys: [2]) == 1)
        #expect(try database.removeAll(Account.self) == 1)
        #expect(try database.readAll(Account.self).isEmpty)
    }
}

/// Whether `body` throws a ``TroveError`` of code misuse.
private func isMisuse(_ body: () throws -> Void) -> Bool {
    do {
        try body()
        return false
    } catch let error as TroveError {
        return error.code == .misuse
    } catch {
        return false
    }
}

/// A synchronous read, from an async context (where `read` without `await` would not compile).
private func readSynchronously(_ database: Database, key: Int) throws -> Account? {
    try database.read(Account.self, key: key)
}

/// A synchronous count, from an async context.
private func countSynchronously(_ query: IndexQuery<Member>, in database: Database) throws -> Int {
    try query.count(in: database)
}
