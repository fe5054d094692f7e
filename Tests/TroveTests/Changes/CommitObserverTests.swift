import Dispatch
import Foundation
import Synchronization
import Testing
import TroveTestSupport

@testable import Trove

/// What a commit observer received, and when. (`Locked`, not `Mutex`: ThreadSanitizer sees the
/// lock it holds.)
private final class Received: Sendable {
    let changesets = Locked<[Changeset]>([])
    /// The events of the commits and of the observer, in the order they happened.
    let events = Locked<[String]>([])

    var snapshots: [UInt64] { changesets.withLock { $0.map(\.snapshot) } }

    func log(_ event: String) {
        events.withLock { $0.append(event) }
    }
}

/// `database.addCommitObserver(_:)` hands synchronous code each commit's changeset, on the
/// committing thread, in commit order, before the next commit begins (issue 30).
struct CommitObserverTests {
    @Test func everyCommitReachesTheObserverOnceInCommitOrderFromManyConnections() throws {
        let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        let received = Received()
        let observer = database.addCommitObserver { changeset in
            received.changesets.withLock { $0.append(changeset) }
        }
        let writers = 4
        let commitsPerWriter = 500
        let connections = try (0..<writers).map { _ in try database.newConnection() }
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for commit in 0..<commitsPerWriter {
                try? connections[writer].write { tx in
                    try tx.setData(Data([1]), forKey: "\(writer)-\(commit)", in: "c")
                }
            }
        }
        // A transaction that changes nothing has no changeset.
        try database.newConnection().write { tx in _ = try tx.count() }
        let total = writers * commitsPerWriter
        #expect(received.snapshots == (1...UInt64(total)).map { $0 }, "one changeset per commit, in commit order")
        let keys = received.changesets.withLock { $0.flatMap { $0.insertedKeys["c"] ?? [] } }
        #expect(keys.count == total)
        #expect(Set(keys).count == total)
        withExtendedLifetime(observer) {}
    }

    /// The observer runs on the thread that committed, before the transaction returns and before
    /// any other commit's body begins: between its start and its end no other commit happens.
    @Test func theObserverRunsOnTheCommittingThreadBeforeTheNextCommitBegins() throws {
        let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        let received = Received()
        let threadOfObserver = Locked<[UInt64: UInt]>([:])
        let observer = database.addCommitObserver { changeset in
            received.log("observer \(changeset.snapshot) begins")
            received.changesets.withLock { $0.append(changeset) }
            threadOfObserver.withLock { $0[changeset.snapshot] = currentThreadID() }
            // Long enough for the other writers to try to commit meanwhile.
            Thread.sleep(forTimeInterval: 0.001)
            received.log("observer \(changeset.snapshot) ends")
        }
        let writers = 3
        let commitsPerWriter = 40
        let threadOfCommit = Locked<[UInt64: UInt]>([:])
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            let connection = try! database.newConnection()
            for commit in 0..<commitsPerWriter {
                let snapshot = try? connection.write { tx in
                    received.log("body")
                    try tx.setData(Data([1]), forKey: "\(writer)-\(commit)", in: "c")
                    return database.commitState.load(ordering: .sequentiallyConsistent) / 2 + 1
                }
                if let snapshot {
                    // The observer of this commit ran before `readWrite` returned.
                    let observed = received.snapshots.contains(snapshot)
                    received.log(observed ? "returned after its observer" : "returned before its observer")
                    threadOfCommit.withLock { $0[snapshot] = currentThreadID() }
                }
            }
        }
        let events = received.events.withLock { $0 }
        let early = events.count { $0 == "returned before its observer" }
        #expect(early == 0, "\(early) commits returned before their observer ran")
        var inside: String?
        for event in events {
            if event.hasSuffix("begins") {
                inside = event
            } else if event.hasSuffix("ends") {
                inside = nil
            } else if event == "body", let inside {
                Issue.record("a commit's body began while \(inside) was running")
                break
            }
        }
        #expect(received.snapshots.count == writers * commitsPerWriter)
        #expect(threadOfObserver.withLock { $0 } == threadOfCommit.withLock { $0 })
        withExtendedLifetime(observer) {}
    }

    /// Synchronous code follows a view's rows from the observer alone: after each commit returns,
    /// the row changes it received turn the previous contents into the new ones (seeded random
    /// commits, every storage).
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func viewRowChangesReachTheObserverBeforeTheCommitReturns(storage: View<Member>.Storage) throws {
        let view = ViewTestViews.byCity(storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension]) {
            $0.externalChangePollingInterval = nil
        }
        let received = Received()
        let observer = database.addCommitObserver { changeset in
            received.changesets.withLock { $0.append(changeset) }
        }
        let connection = try database.newConnection()
        let reader = try database.newConnection()
        let seed: UInt64 = 0x0B5E_4E00
        var random = SplitMix64(seed: seed)
        let keys = (0..<60).map { "m\($0)" }
        var contents: [String: [String]] = [:]
        for step in 0..<150 {
            try ViewModelTests.commitRandomBatch(
                connection, random: &random, keys: keys, cities: ["a", "b", "c", nil], maxBatch: 8)
            let changesets = received.changesets.withLock { changesets in
                defer { changesets.removeAll() }
                return changesets
            }
            try #require(changesets.count == 1, "commit \(step) (seed \(seed)): \(changesets.count) changesets")
            let replayed = (changesets[0].viewChanges[view.name] ?? ViewChanges()).applied(to: contents)
            contents = try reader.read { tx in try ViewTestViews.contents(view, tx) }
            try #require(replayed == contents, "commit \(step) (seed \(seed)): the row changes do not replay")
        }
        withExtendedLifetime(observer) {}
    }

    @Test func cancellingOrReleasingTheRegistrationStopsTheObserver() throws {
        let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        let connection = try database.newConnection()
        let first = Received()
        let second = Received()
        let cancelled = database.addCommitObserver { changeset in
            first.changesets.withLock { $0.append(changeset) }
        }
        var released: CommitObserver? = database.addCommitObserver { changeset in
            second.changesets.withLock { $0.append(changeset) }
        }
        #expect(database.changeHub.commitObserverCount == 2)
        try connection.write(Member(id: "a", age: 1))
        cancelled.cancel()
        cancelled.cancel()
        try connection.write(Member(id: "b", age: 2))
        released = nil
        try connection.write(Member(id: "c", age: 3))
        #expect(first.snapshots == [1])
        #expect(second.snapshots == [1, 2])
        #expect(database.changeHub.commitObserverCount == 0)
        #expect(released == nil)
    }

    /// An observer may cancel itself from inside its call; the commits after it do not reach it.
    @Test func anObserverCanCancelItself() throws {
        let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        let received = Received()
        let registration = Locked<CommitObserver?>(nil)
        let observer = database.addCommitObserver { changeset in
            received.changesets.withLock { $0.append(changeset) }
            registration.withLock { $0 }?.cancel()
        }
        registration.withLock { $0 = observer }
        let connection = try database.newConnection()
        try connection.write(Member(id: "a", age: 1))
        try connection.write(Member(id: "b", age: 2))
        #expect(received.snapshots == [1])
        // The registration holds the observer, which holds the registration: break the cycle.
        registration.withLock { $0 = nil }
    }

    /// Inside the observer, a read on another connection sees the commit, and the database's own
    /// `readWrite` throws `misuse` instead of waiting for the commit the observer is part of.
    @Test func insideTheObserverAReadSeesTheCommitAndAWriteIsRefused() throws {
        let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        let reader = try database.newConnection()
        let seen = Locked<[Int?]>([])
        let refusals = Locked<[TroveError.Code]>([])
        let observer = database.addCommitObserver { _ in
            let age = try? reader.read { tx in try tx.read(Member.self, key: "a")?.age }
            seen.withLock { $0.append(age ?? nil) }
            do {
                try database.write { tx in try tx.write(Member(id: "z", age: 0)) }
            } catch let error as TroveError {
                refusals.withLock { $0.append(error.code) }
            } catch {}
        }
        let connection = try database.newConnection()
        try connection.write(Member(id: "a", age: 1))
        try database.write { tx in try tx.write(Member(id: "a", age: 2)) }
        #expect(seen.withLock { $0 } == [1, 2])
        #expect(refusals.withLock { $0 } == [.misuse, .misuse])
        #expect(try reader.read { tx in try tx.read(Member.self, key: "z") } == nil)
        withExtendedLifetime(observer) {}
    }

    /// While an observer is registered the database polls the file, as it does for `changes`: a
    /// commit of another `Database` on the file (as another process's) reaches the observer as an
    /// external change, on the poller's queue; without observer, nothing polls.
    @Test func anotherInstancesCommitReachesTheObserverAsAnExternalChange() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = Configuration()
        // The test decides when the poller checks (`pollNow()`).
        configuration.externalChangePollingInterval = .seconds(3_600)
        let database = try Database(path: folder + "/db.trove", configuration: configuration)
        let other = try Database(path: folder + "/db.trove")
        #expect(!database.changeHub.isPolling)
        let received = Received()
        var observer: CommitObserver? = database.addCommitObserver { changeset in
            received.changesets.withLock { $0.append(changeset) }
        }
        #expect(database.changeHub.isPolling)
        // A loop over `changes` that starts and ends leaves the poller to the observer.
        do {
            let iterator = database.changes.makeAsyncIterator()
            withExtendedLifetime(iterator) {}
        }
        #expect(database.changeHub.subscriptionCount == 0)
        #expect(database.changeHub.isPolling)
        try other.newConnection().write(Member(id: "a", age: 1))
        #expect(database.changeHub.pollNow())
        let changesets = received.changesets.withLock { $0 }
        #expect(changesets.count == 1)
        #expect(changesets.first?.reloadReason == .externalChange)
        // Its own commits are not external.
        try database.newConnection().write(Member(id: "b", age: 2))
        #expect(database.changeHub.pollNow())
        #expect(received.changesets.withLock { $0.map(\.reloadReason) } == [.externalChange, nil])
        observer = nil
        #expect(!database.changeHub.isPolling)
        #expect(observer == nil)
    }

    /// The observer sees what `changes` sees, changeset for changeset.
    @Test func theObserverAndChangesReceiveTheSameChangesets() async throws {
        let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        let received = Received()
        let observer = database.addCommitObserver { changeset in
            received.changesets.withLock { $0.append(changeset) }
        }
        var changes = database.changes.makeAsyncIterator()
        let connection = try database.newConnection()
        // The synchronous forms, named apart: in an `async` function Swift picks the `async` twins.
        try syncReadWrite(connection) { tx in try tx.write(Member(id: "a", age: 1)) }
        try syncReadWrite(connection) { tx in
            try tx.write(Member(id: "b", age: 2))
            _ = try tx.remove(Member.self, key: "a")
        }
        _ = try syncReadWrite(connection) { tx in try tx.removeAll(Member.self) }
        var fromLoop: [Changeset] = []
        for _ in 0..<3 {
            fromLoop.append(try #require(await changes.next()))
        }
        let fromObserver = received.changesets.withLock { $0 }
        #expect(fromObserver.map(\.snapshot) == fromLoop.map(\.snapshot))
        #expect(fromObserver.map(\.insertedKeys) == fromLoop.map(\.insertedKeys))
        #expect(fromObserver.map(\.removedKeys) == fromLoop.map(\.removedKeys))
        #expect(fromObserver.map(\.removedCollections) == fromLoop.map(\.removedCollections))
        withExtendedLifetime(observer) {}
    }
}
