import Foundation
import Synchronization
import Testing
import TroveTestSupport

@testable import Trove

/// Runs `body` in a task that is cancelled after five minutes: an observation that misses a
/// commit then ends and the test fails instead of hanging (see ObservationTests).
private func withWatchdog(_ body: @escaping @Sendable () async throws -> Void) async throws {
    let task = Task { try await body() }
    let watchdog = Task {
        try await Task.sleep(for: .seconds(300))
        task.cancel()
    }
    defer { watchdog.cancel() }
    try await task.value
}

/// Waits until `condition` holds, for at most about three minutes.
private func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<18_000 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// The latest value an observation delivered, shared with the test.
private final class Latest: Sendable {
    private let value = Atomic<Int>(-1)
    private let deliveries = Atomic<Int>(0)
    func store(_ newValue: Int) {
        value.store(newValue, ordering: .sequentiallyConsistent)
        deliveries.add(1, ordering: .sequentiallyConsistent)
    }
    var current: Int { value.load(ordering: .sequentiallyConsistent) }
    var count: Int { deliveries.load(ordering: .sequentiallyConsistent) }
}

private func counter(_ tx: ReadTransaction) throws -> Int {
    guard let data = try tx.data(forKey: "counter", in: "counters") else { return 0 }
    return Int(String(decoding: data, as: UTF8.self)) ?? -2
}

private func setCounter(_ tx: ReadWriteTransaction, _ value: Int) throws {
    try tx.setData(Data(String(value).utf8), forKey: "counter", in: "counters")
}

/// A commit from the caller's thread, through the pool's synchronous `write`.
private func writeSynchronously(_ database: Database, _ value: Int) throws {
    try database.write { (tx: ReadWriteTransaction) in try setCounter(tx, value) }
}

/// Observations run their closure on the database's reader pool: they hold no connection between
/// runs, share the readers with `database.read`, and lose no commit made while a run waits for a
/// reader or runs.
struct ObservationPoolTests {
    /// Many observations share the pool's few readers: the database opens no connection per
    /// observation, and every observation still gets its new value.
    @Test func manyObservationsShareTheReaders() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase {
                $0.maximumReaderCount = 2
                $0.externalChangePollingInterval = nil
            }
            var iterators: [DatabaseObservation<Int>.Iterator] = []
            for _ in 0..<30 {
                var iterator = database.observe(counter).makeAsyncIterator()
                #expect(try await iterator.next() == 0)
                iterators.append(iterator)
            }
            #expect(database.openConnectionCount <= 2, "\(database.openConnectionCount) connections")
            try await database.write { tx in try setCounter(tx, 7) }
            for index in iterators.indices {
                #expect(try await iterators[index].next() == 7)
            }
            // The writer and at most two readers.
            #expect(database.openConnectionCount <= 3, "\(database.openConnectionCount) connections")
            #expect(database.runningObservationCount == 30)
            iterators.removeAll()
            #expect(database.runningObservationCount == 0)
        }
    }

    /// An observation whose task is cancelled while its run waits for a reader ends quietly,
    /// like any cancelled observation: the loop ends without an error and the registration goes.
    @Test func cancellingWhileWaitingForAReaderEndsQuietly() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase {
                $0.maximumReaderCount = 1
                $0.externalChangePollingInterval = nil
            }
            let release = DispatchSemaphore(value: 0)
            let holding = Atomic<Bool>(false)
            // Holds the only reader until released.
            let holder = Task {
                try await database.read { _ in
                    holding.store(true, ordering: .sequentiallyConsistent)
                    release.wait()
                }
            }
            #expect(try await eventually { holding.load(ordering: .sequentiallyConsistent) })
            let values = Atomic<Int>(0)
            let observer = Task {
                for try await _ in database.observe(counter) { values.add(1, ordering: .relaxed) }
            }
            #expect(try await eventually { database.waitingReaderCount == 1 })
            observer.cancel()
            try await observer.value
            #expect(values.load(ordering: .relaxed) == 0)
            #expect(database.runningObservationCount == 0)
            release.signal()
            try await holder.value
        }
    }

    /// No lost update: a writer hammers one key while observations of it run on a pool of two
    /// readers kept busy by other reads (so that runs wait for a reader, and more than
    /// ``ObservationState/pendingLimit`` commits arrive meanwhile), with consumers of different
    /// speeds. Once the writer is done and every observation waits for a commit, each has
    /// delivered the final value: a commit after a run's snapshot that it did not match would
    /// leave one waiting on an older value for ever.
    @Test func noCommitIsLostWhileRunsWaitOrRun() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase {
                $0.maximumReaderCount = 2
                $0.externalChangePollingInterval = nil
            }
            let observers = 4
            let latest = (0..<observers).map { _ in Latest() }
            var consumers: [Task<Void, any Error>] = []
            for index in 0..<observers {
                let latest = latest[index]
                consumers.append(
                    Task {
                        for try await value in database.observe(counter) {
                            latest.store(value)
                            // Consumers of different speeds: some coalesce many commits.
                            if index % 2 == 1 { try await Task.sleep(for: .microseconds(200 * index)) }
                        }
                    })
            }
            #expect(try await eventually { latest.allSatisfy { $0.current == 0 } })
            let stop = Atomic<Bool>(false)
            let busyReaders = Task {
                while !stop.load(ordering: .relaxed) {
                    _ = try await database.read { tx in try tx.count() }
                }
            }
            var final = 0
            for round in 1...6 {
                for step in 1...150 {
                    final = round * 1_000 + step
                    let value = final
                    if step % 3 == 0 {
                        try writeSynchronously(database, value)
                    } else {
                        try await database.write { tx in try setCounter(tx, value) }
                    }
                }
                // Every commit is published: once all the observations wait, nothing more comes.
                #expect(try await eventually { database.changeHub.waitingObserverCount == observers })
                for index in 0..<observers {
                    #expect(latest[index].current == final, "observation \(index) lost an update in round \(round)")
                }
            }
            stop.store(true, ordering: .relaxed)
            try await busyReaders.value
            for consumer in consumers { consumer.cancel() }
            for consumer in consumers { try await consumer.value }
            #expect(database.runningObservationCount == 0)
        }
    }

    /// The state machine of one run, without threads, against a brute-force model: after a run
    /// whose snapshot includes every commit up to `snapshot`, the observation is stale whenever a
    /// commit after `snapshot` touched its region (no lost update), and otherwise only when more
    /// than ``ObservationState/pendingLimit`` commits arrived during the run (then the dropped
    /// ones are not looked at).
    @Test func commitsDuringARunAreMatchedAgainstItsSnapshot() {
        var generator = SeededGenerator(seed: 11)
        let region = ReadRegion(keys: ["c": ["k"]])
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...60, using: &generator)
            // Bursts of relevant commits, then irrelevant ones, so that the newest commits kept
            // may all be irrelevant while older dropped ones were not.
            let relevantUntil = Int.random(in: 0...count, using: &generator)
            let relevant = (1...count).map { $0 <= relevantUntil && Bool.random(using: &generator) }
            let snapshot = Int.random(in: 0...count, using: &generator)
            let state = ObservationState()
            state.beginComputing()
            for number in 1...count {
                let key = relevant[number - 1] ? "k" : "other"
                state.receive(Changeset(snapshot: UInt64(number), changedKeys: ["c": [key]]), touched: ["c"])
            }
            state.computed(region: region, snapshot: UInt64(snapshot))
            let mustRerun = (snapshot..<count).contains { relevant[$0] }
            let description = "\(count) commits, relevant \(relevant), snapshot \(snapshot)"
            if mustRerun {
                #expect(state.isStale, "lost update: \(description)")
            } else if count <= ObservationState.pendingLimit {
                #expect(!state.isStale, "needless run: \(description)")
            }
        }
    }
}
