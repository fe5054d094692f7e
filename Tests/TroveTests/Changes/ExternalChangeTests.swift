import Foundation
import Synchronization
import Testing
import TroveTestSupport

@testable import Trove

/// Runs `body` in a task that is cancelled after five minutes, so that a missed change fails the
/// test instead of hanging it (see ObservationTests: the whole suite on two cores can hold the
/// cooperative threads for tens of seconds).
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

/// Commits that another `Database` instance on the same file makes (as another process would)
/// reach observations and `database.changes`, marked as external; this instance's own commits
/// never do; the poller runs only while something observes.
///
/// The poll interval is an hour in the tests that decide themselves when the poller checks
/// (`pollNow()`), so that they do not depend on timing.
@Suite struct ExternalChangeTests {
    private static func open(_ path: String, interval: Duration? = .seconds(3_600)) throws -> Database {
        var configuration = Configuration()
        configuration.externalChangePollingInterval = interval
        return try Database(path: path, configuration: configuration)
    }

    @Test func anotherInstancesCommitReachesChangesAndObservations() async throws {
        try await withWatchdog {
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let database = try Self.open(folder + "/db.trove")
            let other = try Self.open(folder + "/db.trove", interval: nil)
            let reader = try database.newConnection()
            try syncReadWrite(reader) { tx in try tx.write(Note(id: "a", text: "mine")) }
            #expect(try syncRead(reader) { try $0.read(Note.self, key: "a")?.text } == "mine")

            var changes = database.changes.makeAsyncIterator()
            var observation = database.observe { tx in try tx.read(Note.self, key: "a")?.text }.makeAsyncIterator()
            #expect(try await observation.next() == "mine")
            #expect(database.changeHub.isPolling)
            database.changeHub.pollNow()
            #expect(database.changeHub.isPollerConnectionReadOnly == false)

            try syncReadWrite(other.newConnection()) { tx in try tx.write(Note(id: "a", text: "theirs")) }
            #expect(database.changeHub.pollNow())
            // The check published before it returned.
            try #require(changes.bufferedCount == 1)
            let changeset = try #require(await changes.next())
            #expect(changeset.reloadReason == .externalChange)
            #expect(!changeset.isComplete && !changeset.isEmpty)
            #expect(changeset.contains(Note.self, key: "zzz"))
            #expect(try await observation.next() == "theirs")
            // A connection that cached the item reads the other instance's value.
            #expect(try syncRead(reader) { try $0.read(Note.self, key: "a")?.text } == "theirs")
        }
    }

    /// A database opened read-only (as `trove` and inspection tools open one) observes the
    /// commits of the instance that writes: `changes` reports them as external, observations run
    /// again, and its connections' caches lose what they held.
    @Test func aReadOnlyDatabaseSeesAnotherInstancesCommits() async throws {
        try await withWatchdog {
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let writer = try Self.open(folder + "/db.trove", interval: nil)
            try syncReadWrite(writer.newConnection()) { tx in try tx.write(Note(id: "a", text: "first")) }
            var configuration = Configuration()
            configuration.externalChangePollingInterval = .seconds(3_600)
            configuration.isReadOnly = true
            let database = try Database(path: folder + "/db.trove", configuration: configuration)
            let reader = try database.newConnection()
            #expect(try syncRead(reader) { try $0.read(Note.self, key: "a")?.text } == "first")
            // Nothing observes yet, so no poller runs: the connection's next transaction notices
            // the commit by itself and drops the cached item.
            try syncReadWrite(writer.newConnection()) { tx in try tx.write(Note(id: "a", text: "unobserved")) }
            #expect(try syncRead(reader) { try $0.read(Note.self, key: "a")?.text } == "unobserved")

            var changes = database.changes.makeAsyncIterator()
            var observation = database.observe { tx in try tx.read(Note.self, key: "a")?.text }.makeAsyncIterator()
            #expect(try await observation.next() == "unobserved")
            #expect(database.changeHub.isPolling)
            #expect(database.changeHub.pollNow())
            #expect(changes.bufferedCount == 0, "nothing changed yet")
            // Its poller reads the file without the right to write it: a read-write connection
            // that is the last to close checkpoints the log into the file.
            #expect(database.changeHub.isPollerConnectionReadOnly == true)

            for text in ["second", "third"] {
                try syncReadWrite(writer.newConnection()) { tx in try tx.write(Note(id: "a", text: text)) }
                #expect(database.changeHub.pollNow())
                try #require(changes.bufferedCount == 1)
                let changeset = try #require(await changes.next())
                #expect(changeset.reloadReason == .externalChange)
                #expect(try await observation.next() == text)
                // The connection had cached the item: it reads the writer's value.
                #expect(try syncRead(reader) { try $0.read(Note.self, key: "a")?.text } == text)
                #expect(try await database.read { try $0.read(Note.self, key: "a")?.text } == text)
            }
            #expect(throws: TroveError.self) {
                try syncReadWrite(reader) { tx in try tx.write(Note(id: "b", text: "refused")) }
            }
        }
    }

    /// The other instance commits, then this one, before the poller checks: this instance's
    /// commit does not hide the other's.
    @Test func anOwnCommitAfterAnExternalOneDoesNotHideIt() async throws {
        try await withWatchdog {
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let database = try Self.open(folder + "/db.trove")
            let other = try Self.open(folder + "/db.trove", interval: nil)
            let connection = try database.newConnection()
            try syncReadWrite(connection) { tx in try tx.write(Note(id: "a", text: "0")) }
            var changes = database.changes.makeAsyncIterator()
            #expect(database.changeHub.pollNow())  // opens the poller's connection

            try syncReadWrite(other.newConnection()) { tx in try tx.write(Note(id: "b", text: "theirs")) }
            try syncReadWrite(connection) { tx in try tx.write(Note(id: "a", text: "1")) }
            database.changeHub.pollNow()
            try #require(changes.bufferedCount == 2)
            let own = try #require(await changes.next())
            #expect(own.isComplete && own.updatedKeys(of: Note.self) == ["a"])
            let external = try #require(await changes.next())
            #expect(external.reloadReason == .externalChange)
        }
    }

    /// Many commits of this instance, the poller checking between them: no changeset is marked
    /// external, from the very first commit (which writes the instance's token into the file).
    @Test(arguments: [false, true])
    func ownCommitsAreNeverExternal(committedBeforeObserving: Bool) async throws {
        try await withWatchdog {
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let database = try Self.open(folder + "/db.trove")
            let connection = try database.newConnection()
            if committedBeforeObserving {
                try syncReadWrite(connection) { tx in try tx.write(Note(id: "first", text: "")) }
            }
            var changes = database.changes.makeAsyncIterator()
            database.changeHub.pollNow()
            for n in 0..<40 {
                try syncReadWrite(connection) { tx in try tx.write(Note(id: "k\(n % 7)", text: "\(n)")) }
                if n % 3 == 0 { database.changeHub.pollNow() }
            }
            database.changeHub.pollNow()
            for _ in 0..<40 {
                let changeset = try #require(await changes.next())
                #expect(changeset.isComplete, "snapshot \(changeset.snapshot)")
            }
            #expect(changes.bufferedCount == 0)
        }
    }

    /// With the default interval, an observation notices the other instance's commit by itself.
    @Test func theTimerNoticesWithoutHelp() async throws {
        try await withWatchdog {
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let database = try Self.open(folder + "/db.trove", interval: .milliseconds(20))
            let other = try Self.open(folder + "/db.trove", interval: nil)
            var observation = database.observe { tx in try tx.count(of: Note.self) }.makeAsyncIterator()
            #expect(try await observation.next() == 0)
            try syncReadWrite(other.newConnection()) { tx in try tx.write(Note(id: "x", text: "")) }
            #expect(try await observation.next() == 1)
        }
    }

    @Test func nothingPollsWithoutObserversOrWhenDisabled() async throws {
        let database = try makeTemporaryDatabase()
        try syncReadWrite(database.newConnection()) { tx in try tx.write(Note(id: "a", text: "")) }
        #expect(!database.changeHub.isPolling)
        #expect(database.changeHub.pollCount.load(ordering: .relaxed) == 0)
        let disabled = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        let iterator = disabled.changes.makeAsyncIterator()
        #expect(!disabled.changeHub.isPolling)
        _ = iterator
    }

    /// The poller starts with the first observer (an observation or a loop over `changes`) and
    /// stops when the last one ends: its checks stop counting.
    @Test func pollingStopsWhenTheLastObserverGoesAway() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = .milliseconds(5) }
            let hub = database.changeHub
            var changes: DatabaseChanges.Iterator? = database.changes.makeAsyncIterator()
            #expect(hub.isPolling)
            var observation: DatabaseObservation<Int>.Iterator? =
                database.observe { tx in try tx.count(of: Note.self) }.makeAsyncIterator()
            #expect(try await observation?.next() == 0)
            #expect(try await eventually { hub.pollCount.load(ordering: .relaxed) >= 3 })

            changes = nil
            #expect(hub.subscriptionCount == 0)
            #expect(hub.isPolling, "an observation still runs")
            let counted = hub.pollCount.load(ordering: .relaxed)
            #expect(try await eventually { hub.pollCount.load(ordering: .relaxed) >= counted + 3 })

            observation = nil
            #expect(hub.observerCount == 0)
            #expect(!hub.isPolling)
            // A check under way when it stopped may still count; after it, none.
            try await Task.sleep(for: .milliseconds(200))
            let stopped = hub.pollCount.load(ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(300))
            #expect(hub.pollCount.load(ordering: .relaxed) == stopped)

            // It starts again with the next observer, and a cancelled loop stops it too.
            let task = Task {
                for await _ in database.changes {}
            }
            #expect(try await eventually { hub.isPolling })
            task.cancel()
            await task.value
            #expect(try await eventually { !hub.isPolling })
            #expect(hub.subscriptionCount == 0)
            _ = changes
            _ = observation
        }
    }
}

/// The hub hands a commit only to the observations of the collections it touched: observations
/// of other collections are indexed away from it once their closure has run.
struct ObserverIndexTests {
    @Test func idleObservationsOfOtherCollectionsAreIndexedAway() async throws {
        let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        var iterators: [DatabaseObservation<Int>.Iterator] = []
        for index in 0..<10 {
            let collection = "other-\(index)"
            var iterator =
                index % 2 == 0
                ? database.observe { tx in try tx.data(forKey: "k", in: collection)?.count ?? 0 }.makeAsyncIterator()
                : database.observe { tx in try tx.count(in: collection) }.makeAsyncIterator()
            #expect(try await iterator.next() == 0)
            iterators.append(iterator)
        }
        var everything = database.observe { tx in try tx.count() }.makeAsyncIterator()
        #expect(try await everything.next() == 0)
        let counts = database.changeHub.indexCounts
        #expect(counts.unindexed == 1, "only the observation of everything sees every commit")
        #expect(counts.collections == 10)
        // A commit to one of them still reaches it.
        try await database.newConnection().write { tx in try tx.setData(Data([1]), forKey: "k", in: "other-0") }
        #expect(try await iterators[0].next() == 1)
        #expect(try await everything.next() == 1)
        iterators.removeAll()
        _ = everything
        #expect(database.changeHub.indexCounts.collections == 0)
    }
}
