import Foundation
import Synchronization
import Testing
import Trove
@_spi(Testing) import TrovePostgres
import TroveTestSupport

/// The engines the observation tests run on: PostgreSQL only when a server is configured.
enum ObservingEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static let available: [ObservingEngine] = allCases.filter { $0 == .sqlite || TestServer.isConfigured }
}

/// A place that observes, with what the tests need to know of its engine: when a commit has
/// reached its observations (at once on a Trove file, whose commits tell them under the writer
/// lock; when `NOTIFY` brought it on PostgreSQL), and how many observations run.
struct ObservedPlace<Place: AsyncDatabaseWriter & AsyncDatabaseObserving>: Sendable {
    let place: Place
    /// Waits until the `count`th commit since the place opened has reached its observations.
    let delivered: @Sendable (_ count: Int) async throws -> Void
    /// The observations running now.
    let observerCount: @Sendable () -> Int
}

/// Counts the changes a loop over a store's `changes` has received; a commit has reached the
/// store's observations once its change is counted (the hub tells observations first).
final class ChangeCounter: Sendable {
    private let count = Mutex(0)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ changes: PostgresChanges) {
        let task = Task { [weak self] in
            for await _ in changes { self?.count.withLock { $0 += 1 } }
        }
        self.task.withLock { $0 = task }
    }

    /// Waits (at most 30 s, a bound and not a measurement) until `expected` changes arrived.
    func wait(for expected: Int) async throws {
        try await bounded(.seconds(30), "the notification of commit \(expected)") { [self] in
            while count.withLock({ $0 }) < expected {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }
}

/// Observation, written once for every engine that observes (`some AsyncDatabaseObserving`) and
/// run on a Trove file and on PostgreSQL: how many times the closure runs for commits inside and
/// outside what it read, coalescing, cancellation, errors. Then two PostgreSQL instances on one
/// schema, and the bounded buffer of `changes`.
///
/// Serialized: each PostgreSQL case opens a store or two (a pool and a listener each), and the
/// whole parallel run of the PostgreSQL suites needs many of the test server's connections.
@Suite(.serialized)
struct ObservationEngineTests {
    /// Runs `body` with a fresh place of `engine` that keeps `User.index`.
    func withPlace(
        _ engine: ObservingEngine,
        _ body: (any ObservedPlaceProtocol) async throws -> Void
    ) async throws {
        switch engine {
        case .sqlite:
            let database = try Database.temporary(
                extensions: [User.index.databaseExtension, User.fullTextSearch.databaseExtension])
            try await body(
                ObservedPlace(
                    place: database, delivered: { _ in }, observerCount: { database.runningObservationCount }))
        case .postgres:
            try await TestServer.withStore(
                extensions: [User.index.databaseExtension, User.fullTextSearch.databaseExtension]
            ) { store in
                let counter = ChangeCounter(store.changes)
                try await body(
                    ObservedPlace(
                        place: store, delivered: { try await counter.wait(for: $0) },
                        observerCount: { store.runningObservationCount }))
            }
        }
    }

    @Test(arguments: ObservingEngine.available)
    func runsOnlyForCommitsThatTouchWhatItRead(_ engine: ObservingEngine) async throws {
        try await withPlace(engine) { try await $0.runsOnlyForCommitsThatTouchWhatItRead() }
    }

    @Test(arguments: ObservingEngine.available)
    func collectionAndIndexReadsFollowTheirCollection(_ engine: ObservingEngine) async throws {
        try await withPlace(engine) { try await $0.collectionAndIndexReadsFollowTheirCollection() }
    }

    @Test(arguments: ObservingEngine.available)
    func cancellingTheLoopEndsTheObservation(_ engine: ObservingEngine) async throws {
        try await withPlace(engine) { try await $0.cancellingTheLoopEndsTheObservation() }
    }

    @Test(arguments: ObservingEngine.available)
    func anErrorOfTheClosureEndsTheObservation(_ engine: ObservingEngine) async throws {
        try await withPlace(engine) { try await $0.anErrorOfTheClosureEndsTheObservation() }
    }

    /// Two instances on one schema: an observation in the first runs again for a commit of the
    /// second (within a generous bound: the delay is measured in the benchmark), and not for a
    /// commit of the second outside what it read.
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func anObservationRunsAgainForACommitOfAnotherInstance() async throws {
        try await TestServer.withTwoStores { first, second in
            let counter = ChangeCounter(first.changes)
            try await second.write(Tally(id: "watched", value: 0))
            try await counter.wait(for: 1)
            let runs = Mutex(0)
            let observation = first.observe { tx in
                runs.withLock { $0 += 1 }
                return try await tx.read(Tally.self, key: "watched")?.value
            }
            let (initial, staleOutside, after) = try await bounded(.seconds(60), "the observation across instances") {
                var values = observation.makeAsyncIterator()
                let initial = try await values.next()
                try await second.write(Tally(id: "other", value: 1))
                try await counter.wait(for: 2)
                let staleOutside = values.isStale
                try await second.write(Tally(id: "watched", value: 1))
                // Returns when the notification of the other instance's commit made it stale.
                return (initial, staleOutside, try await values.next())
            }
            #expect(initial == 0)
            #expect(!staleOutside, "a commit of the other instance outside what it read made it stale")
            #expect(after == 1)
            #expect(runs.withLock { $0 } == 2)
        }
    }

    /// The rule behind it, shared by both engines (`ObservationState`): a commit numbered at most
    /// the snapshot number of the latest run changed nothing that run did not see; a later one
    /// that touches the region makes it stale; one that does not list its changes always does.
    @Test func aCommitTheLatestRunsSnapshotHeldDoesNotMakeItStale() {
        var region = ReadRegion()
        region.keys[Tally.collection] = ["watched"]
        let touched = [Tally.collection]
        func commit(_ number: UInt64) -> Changeset {
            Changeset(snapshot: number, updatedKeys: [Tally.collection: ["watched"]])
        }
        let state = ObservationState()
        state.beginComputing()
        state.computed(region: region, snapshot: 5)
        state.receive(commit(4), touched: touched)
        state.receive(commit(5), touched: touched)
        #expect(!state.isStale, "a commit the run's snapshot held made the observation stale")
        state.receive(commit(6), touched: touched)
        #expect(state.isStale)

        let flushed = ObservationState()
        flushed.beginComputing()
        flushed.computed(region: region, snapshot: 5)
        flushed.receive(Changeset(snapshot: 0, reloadReason: .missedChanges), touched: [])
        #expect(flushed.isStale, "a flush (anything may have changed) did not make the observation stale")
    }

    /// A notification can arrive after a run whose snapshot already held its commit: it must not
    /// make the observation stale (the run knows its snapshot's number in the change log). Each
    /// round observes right after the other instance's commit, so that the notification often
    /// arrives after the first run.
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func aLateNotificationOfACommitTheRunSawDoesNotMakeItStale() async throws {
        try await TestServer.withTwoStores { first, second in
            let counter = ChangeCounter(first.changes)
            for round in 1...20 {
                try await second.write(Tally(id: "k\(round)", value: round))
                var values = first.observe { tx in try await tx.read(Tally.self, key: "k\(round)")?.value }
                    .makeAsyncIterator()
                #expect(try await values.next() == round)
                try await counter.wait(for: round)
                #expect(!values.isStale, "round \(round): the notification of a commit the run saw made it stale")
            }
        }
    }

    /// Closing the store ends a running observation with the error of a closed store, rather than
    /// leaving its loop waiting for a commit that will never come.
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func closingTheStoreEndsItsObservationsWithAnError() async throws {
        let store = try await TestServer.openStore()
        defer { Task { await TestServer.dispose(store) } }
        try await store.write(Tally(id: "watched", value: 0))
        let observation = store.observe { tx in try await tx.read(Tally.self, key: "watched")?.value }
        let error = try await bounded(.seconds(30), "the end of the observation of a closed store") {
            var values = observation.makeAsyncIterator()
            _ = try await values.next()
            store.close()
            do {
                _ = try await values.next()
                return nil as TroveError?
            } catch let error as TroveError {
                return error
            }
        }
        #expect(error?.code == .misuse, "\(String(describing: error))")
        #expect(store.runningObservationCount == 0)
    }

    /// A loop over `changes` that does not keep up keeps at most `changesBufferLimit` changes;
    /// past it, one change marked `missedChanges` stands for those dropped, and the changes after
    /// it follow: the rule of a Trove file's `changes`.
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func aSlowChangesLoopGetsMissedChangesAndStaysBounded() async throws {
        let store = try await TestServer.openStore { $0.changesBufferLimit = 3 }
        defer { Task { await TestServer.dispose(store) } }
        let slow = store.changes
        let counter = ChangeCounter(store.changes)
        for value in 1...5 {
            try await store.write(Tally(id: "t\(value)", value: value))
        }
        try await counter.wait(for: 5)
        var iterator = slow.makeAsyncIterator()
        #expect(iterator.bufferedCount == 2)
        let missed = try #require(await iterator.next())
        #expect(missed.missedChanges)
        #expect(!missed.isComplete)
        #expect(missed.containsChange(forKey: "anything", in: "anywhere"))
        let fifth = try #require(await iterator.next())
        #expect(!fifth.missedChanges)
        #expect(fifth.items == [ItemAddress(collection: Tally.collection, key: "t5")])
    }
}

/// The body of the tests, generic over the place: written once, run on each engine.
protocol ObservedPlaceProtocol: Sendable {
    func runsOnlyForCommitsThatTouchWhatItRead() async throws
    func collectionAndIndexReadsFollowTheirCollection() async throws
    func cancellingTheLoopEndsTheObservation() async throws
    func anErrorOfTheClosureEndsTheObservation() async throws
}

/// The closure's error in ``ObservedPlace/anErrorOfTheClosureEndsTheObservation()``.
struct ObservationBodyError: Error, Equatable {}

extension ObservedPlace: ObservedPlaceProtocol {
    /// A point read runs again for a commit of its key, never for a commit of another key or
    /// collection; commits made while the consumer is busy coalesce into one run.
    func runsOnlyForCommitsThatTouchWhatItRead() async throws {
        try await place.write([Tally(id: "watched", value: 0), Tally(id: "other", value: 0)])
        var commits = 1
        try await delivered(commits)
        let runs = Mutex(0)
        var values = place.observe { tx in
            runs.withLock { $0 += 1 }
            return try await tx.read(Tally.self, key: "watched")?.value
        }.makeAsyncIterator()
        #expect(try await values.next() == 0)
        #expect(runs.withLock { $0 } == 1)

        // Outside the region: another key of the collection, another collection.
        for value in 1...3 {
            try await place.write(Tally(id: "other", value: value))
            commits += 1
            try await delivered(commits)
            #expect(!values.isStale, "a commit of another key made the observation stale")
        }
        try await place.write(makeUsers(1)[0])
        commits += 1
        try await delivered(commits)
        #expect(!values.isStale, "a commit of another collection made the observation stale")

        // Inside: the key it read.
        try await place.write(Tally(id: "watched", value: 1))
        commits += 1
        try await delivered(commits)
        // `#require`: a next() that no commit made stale would wait for ever.
        try #require(values.isStale)
        #expect(try await values.next() == 1)
        #expect(runs.withLock { $0 } == 2)

        // Three commits while the consumer is busy: one run, with the latest value.
        for value in 2...4 {
            try await place.write(Tally(id: "watched", value: value))
            commits += 1
        }
        try await delivered(commits)
        try #require(values.isStale)
        #expect(try await values.next() == 4)
        #expect(runs.withLock { $0 } == 3)

        // A removal of the key is inside too.
        _ = try await place.remove(Tally.self, key: "watched")
        commits += 1
        try await delivered(commits)
        try #require(values.isStale)
        // The value is `nil` (no item), not the end of the sequence.
        #expect(try await values.next() == .some(nil))
        #expect(runs.withLock { $0 } == 4)
    }

    /// `readAll`, `count(of:)`, an index query and a full-text search read their whole
    /// collection: any key of it counts, another collection does not.
    func collectionAndIndexReadsFollowTheirCollection() async throws {
        let users = makeUsers(4).map { user in
            var user = user
            user.bio = "a user of swift"
            return user
        }
        try await place.write(Array(users.prefix(2)))
        try await place.write(Tally(id: "a", value: 0))
        var commits = 2
        try await delivered(commits)
        var tallies = place.observe { tx in try await tx.readAll(Tally.self).count }.makeAsyncIterator()
        var userCount = place.observe { tx in try await tx.count(of: User.self) }.makeAsyncIterator()
        var adults = place.observe { tx in try await User.query.filter(.age(0...)).count(tx) }.makeAsyncIterator()
        var named = place.observe { tx in try await User.search(for: .prefixes(of: "swi")).count(tx) }
            .makeAsyncIterator()
        #expect(try await tallies.next() == 1)
        #expect(try await userCount.next() == 2)
        #expect(try await adults.next() == 2)
        #expect(try await named.next() == 2)

        try await place.write(Tally(id: "b", value: 0))
        commits += 1
        try await delivered(commits)
        try #require(tallies.isStale)
        #expect(!userCount.isStale, "a commit of tallies made a count of users stale")
        #expect(!adults.isStale, "a commit of tallies made an index query of users stale")
        #expect(!named.isStale, "a commit of tallies made a search of users stale")
        #expect(try await tallies.next() == 2)

        try await place.write(users[2])
        commits += 1
        try await delivered(commits)
        #expect(!tallies.isStale, "a commit of users made a read of all tallies stale")
        try #require(userCount.isStale)
        try #require(adults.isStale)
        try #require(named.isStale)
        #expect(try await userCount.next() == 3)
        #expect(try await adults.next() == 3)
        #expect(try await named.next() == 3)
    }

    /// Cancelling the task that iterates ends the loop (`next()` returns `nil`) and unregisters
    /// the observation.
    func cancellingTheLoopEndsTheObservation() async throws {
        try await place.write(Tally(id: "watched", value: 0))
        try await delivered(1)
        let observation = place.observe { tx in try await tx.read(Tally.self, key: "watched")?.value }
        let yielded = Mutex(0)
        let loop = Task {
            for try await _ in observation { yielded.withLock { $0 += 1 } }
            return "ended"
        }
        try await bounded(.seconds(30), "the first value") {
            while yielded.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(observerCount() == 1)
        loop.cancel()
        let ended = try await bounded(.seconds(30), "the end of the cancelled loop") { try await loop.value }
        #expect(ended == "ended")
        #expect(observerCount() == 0)
        #expect(yielded.withLock { $0 } == 1)
    }

    /// An error thrown by the closure ends the sequence with that error; the loop then ends.
    func anErrorOfTheClosureEndsTheObservation() async throws {
        try await place.write(Tally(id: "watched", value: 0))
        try await delivered(1)
        var values = place.observe { tx in
            let value = try await tx.read(Tally.self, key: "watched")?.value
            if value == 99 { throw ObservationBodyError() }
            return value
        }.makeAsyncIterator()
        #expect(try await values.next() == 0)
        try await place.write(Tally(id: "watched", value: 99))
        try await delivered(2)
        try #require(values.isStale)
        await #expect(throws: ObservationBodyError.self) { _ = try await values.next() }
        #expect(try await values.next() == nil)
        #expect(observerCount() == 0)
    }
}
