import Foundation
import Synchronization
import Testing
import TroveTestSupport

@testable import Trove

/// Counts the runs of an observation's closure, from the connection's queue.
private final class RunCounter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .sequentiallyConsistent) }
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
}

private struct ObservationFailure: Error, Equatable {}

private func write(_ database: Database, _ body: @escaping @Sendable (ReadWriteTransaction) throws -> Void) async throws {
    try await database.newConnection().write(body)
}

/// Waits until `condition` holds, for at most about three minutes.
private func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<18_000 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Runs `body` in a task that is cancelled after five minutes: an observation that misses a commit
/// then ends (its `next()` returns `nil`) and the test fails instead of hanging. Generous, because
/// the whole suite in parallel on two cores can hold the cooperative threads for tens of seconds.
private func withWatchdog(_ body: @escaping @Sendable () async throws -> Void) async throws {
    let task = Task { try await body() }
    let watchdog = Task {
        try await Task.sleep(for: .seconds(300))
        task.cancel()
    }
    defer { watchdog.cancel() }
    try await task.value
}

/// The kinds of point reads of one key that an observation records.
enum PointRead: String, CaseIterable, Sendable {
    case typedByKey, typedContains, untypedData, untypedMetadata, untypedHasItem, dataAndMetadata

    func run(_ tx: ReadTransaction, key: String) throws -> String {
        switch self {
        case .typedByKey: try tx.read(Note.self, key: key)?.text ?? "-"
        case .typedContains: try tx.contains(Note.self, key: key) ? "yes" : "no"
        case .untypedData: try tx.data(forKey: key, in: Note.collection).map { "\($0.count)" } ?? "-"
        case .untypedMetadata: try tx.metadata(forKey: key, in: Note.collection).map { "\($0.count)" } ?? "-"
        case .untypedHasItem: try tx.hasItem(forKey: key, in: Note.collection) ? "yes" : "no"
        case .dataAndMetadata: try tx.dataAndMetadata(forKey: key, in: Note.collection).map { "\($0.data.count)" } ?? "-"
        }
    }
}

/// `database.observe`: the value now, then after each commit that changed what it read, and
/// never after one that did not.
struct ObservationTests {
    @Test func yieldsTheCurrentValueFirst() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase()
            try await write(database) { try $0.write(Note(id: "a", text: "first")) }
            var iterator = database.observe { tx in try tx.read(Note.self, key: "a") }.makeAsyncIterator()
            #expect(try await iterator.next() == Note(id: "a", text: "first"))
        }
    }

    /// One new value per relevant commit, none for commits to other collections or other keys,
    /// however long the consumer waits.
    @Test(arguments: PointRead.allCases)
    func rerunsOnlyForCommitsToTheKeyItRead(_ read: PointRead) async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase()
            try await write(database) { try $0.write(Note(id: "a", text: "one")) }
            let runs = RunCounter()
            var iterator = database.observe { tx in
                runs.increment()
                return try read.run(tx, key: "a")
            }.makeAsyncIterator()
            let first = try #require(try await iterator.next())

            for (round, text) in ["two words", "three words!"].enumerated() {
                let writer = Task {
                    try await Task.sleep(for: .milliseconds(50))
                    // Irrelevant: another collection, another key of the same collection.
                    try await write(database) { try $0.setData(Data([1, 2, 3]), forKey: "a", in: "elsewhere") }
                    try await write(database) { try $0.write(Note(id: "b", text: "other")) }
                    try await write(database) { _ = try $0.removeItem(forKey: "c", in: Note.collection) }
                    try await Task.sleep(for: .milliseconds(150))
                    let runsBefore = runs.value
                    try await write(database) { try $0.write(Note(id: "a", text: text)) }
                    return runsBefore
                }
                let value = try await iterator.next()
                #expect(try await writer.value == round + 1, "\(read): an irrelevant commit re-ran the closure")
                #expect(runs.value == round + 2, "\(read): not exactly one run for the relevant commit")
                if read == .typedByKey {
                    #expect(value == text)
                }
                if round == 0 && (read == .typedContains || read == .untypedHasItem) {
                    #expect(value == first)
                }
            }
        }
    }

    /// A region is recorded again at each run, cache hits included: a re-run that finds a key in
    /// the connection's cache still follows it.
    @Test func rerunsRecordCachedReadsToo() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase()
            try await write(database) {
                try $0.write(Note(id: "a", text: "a0"))
                try $0.write(Note(id: "b", text: "b0"))
            }
            var iterator = database.observe { tx in
                [try tx.read(Note.self, key: "a")?.text, try tx.read(Note.self, key: "b")?.text]
            }.makeAsyncIterator()
            #expect(try await iterator.next() == ["a0", "b0"])
            // The re-run reads "a" from the observation connection's cache: no SQL runs for it.
            try await write(database) { try $0.write(Note(id: "b", text: "b1")) }
            #expect(try await iterator.next() == ["a0", "b1"])
            try await write(database) { try $0.write(Note(id: "a", text: "a1")) }
            #expect(try await iterator.next() == ["a1", "b1"])
        }
    }

    /// Reads of a whole collection (`all()`, `keys`) follow every key of it, and no other
    /// collection.
    @Test(arguments: [false, true])
    func collectionReadsFollowTheWholeCollection(readsKeys: Bool) async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase()
            let runs = RunCounter()
            var iterator = database.observe { tx in
                runs.increment()
                return readsKeys ? try tx.keys(of: Note.self) : try tx.readAll(Note.self).map(\.id)
            }.makeAsyncIterator()
            #expect(try await iterator.next() == [])
            try await write(database) { try $0.setData(Data([1]), forKey: "x", in: "elsewhere") }
            try await write(database) { try $0.write(Note(id: "n1", text: "t")) }
            #expect(try await iterator.next() == ["n1"])
            #expect(runs.value == 2)
            try await write(database) { _ = try $0.removeAllItems(in: Note.collection) }
            #expect(try await iterator.next() == [])
            #expect(runs.value == 3)
        }
    }

    /// Reads of everything (`collections()`, `count()`) follow every collection.
    @Test func collectionListFollowsEverything() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase()
            var iterator = database.observe { tx in try tx.collections() }.makeAsyncIterator()
            #expect(try await iterator.next() == [])
            try await write(database) { try $0.setData(Data([1]), forKey: "x", in: "elsewhere") }
            #expect(try await iterator.next() == ["elsewhere"])
        }
    }

    /// An index query follows the index's collection as a whole, and an extension change of
    /// that index.
    @Test func indexQueriesFollowTheIndexCollection() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase(extensions: [MemberIndexes.members.databaseExtension])
            let runs = RunCounter()
            var iterator = database.observe { tx in
                runs.increment()
                return try MemberIndexes.members.query.filter(.column("age", in: 18...)).keys(tx)
            }.makeAsyncIterator()
            #expect(try await iterator.next() == [])
            let writer = Task {
                try await Task.sleep(for: .milliseconds(50))
                try await write(database) { try $0.write(Note(id: "n", text: "not a member")) }
                try await Task.sleep(for: .milliseconds(150))
                let before = runs.value
                try await write(database) { try $0.write(Member(id: "m", age: 30)) }
                return before
            }
            #expect(try await iterator.next() == ["m"])
            #expect(try await writer.value == 1)
            #expect(runs.value == 2)

            let region = ReadRegion(collections: [Member.collection], indexes: ["members": Member.collection])
            #expect(region.intersects(Changeset(snapshot: 1, changedExtensions: ["members"])))
            #expect(!region.intersects(Changeset(snapshot: 1, changedExtensions: ["members_by_handle"])))
        }
    }

    /// A slow consumer gets one value, the latest, for all the commits made while it was busy.
    @Test func commitsCoalesceWhileTheConsumerIsBusy() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase()
            let runs = RunCounter()
            var iterator = database.observe { tx in
                runs.increment()
                return try tx.count(in: Note.collection)
            }.makeAsyncIterator()
            #expect(try await iterator.next() == 0)
            let connection = try database.newConnection()
            for index in 0..<200 {
                try await connection.write { try $0.write(Note(id: "\(index)", text: "t")) }
            }
            #expect(try await iterator.next() == 200)
            #expect(runs.value == 2)
            // Nothing else is pending: the next value waits for the next commit.
            let writer = Task {
                try await Task.sleep(for: .milliseconds(150))
                let before = runs.value
                try await connection.write { try $0.write(Note(id: "last", text: "t")) }
                return before
            }
            #expect(try await iterator.next() == 201)
            #expect(try await writer.value == 2)
        }
    }

    @Test func removingDuplicatesSkipsEqualValues() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase()
            try await write(database) { try $0.write(Note(id: "a", text: "same")) }
            var iterator = database.observe { tx in try tx.read(Note.self, key: "a")?.text }
                .removingDuplicates().makeAsyncIterator()
            #expect(try await iterator.next() == "same")
            try await write(database) { try $0.write(Note(id: "a", text: "same")) }
            try await write(database) { try $0.write(Note(id: "a", text: "new")) }
            #expect(try await iterator.next() == "new")
        }
    }

    /// Cancelling the iterating task ends the observation: its registration goes. Between its
    /// runs it holds no connection: the one reader of the pool is free for `database.read`.
    @Test func cancellingReleasesTheObservation() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase { $0.maximumReaderCount = 1 }
            let values = RunCounter()
            let observation = database.observe { tx in try tx.count() }
            let task = Task {
                for try await _ in observation { values.increment() }
            }
            #expect(try await eventually { values.value == 1 })
            #expect(database.runningObservationCount == 1)
            #expect(try await eventually { database.transactionsInProgress.isEmpty })
            #expect(try await database.read { tx in try tx.count() } == 0)
            // The pool's reader is the only connection of the database.
            #expect(database.openConnectionCount == 1)
            task.cancel()
            try await task.value
            #expect(database.runningObservationCount == 0)
            #expect(!database.changeHub.isPolling)
        }
    }

    /// An error of the closure ends the sequence with it, and the observation with it.
    @Test func anErrorEndsTheSequence() async throws {
        try await withWatchdog {
            let database = try makeTemporaryDatabase()
            var iterator = database.observe { tx in
                let text = try tx.read(Note.self, key: "a")?.text
                if text == "fail" { throw ObservationFailure() }
                return text
            }.makeAsyncIterator()
            #expect(try await iterator.next() == .some(nil))
            try await write(database) { try $0.write(Note(id: "a", text: "fail")) }
            await #expect(throws: ObservationFailure()) { try await iterator.next() }
            #expect(database.runningObservationCount == 0)
            #expect(try await iterator.next() == nil)
        }
    }

    /// A loop in a `@MainActor` context gets its values on the main actor.
    @MainActor @Test func deliversOnTheMainActor() async throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        var received: [Int] = []
        // The closure runs on the observation connection's queue, outside any task: a run on the
        // iterating actor (inside the iterating task) would see a current task.
        let runsInsideATask = RunCounter()
        let observation = database.observe { tx in
            if withUnsafeCurrentTask(body: { $0 != nil }) { runsInsideATask.increment() }
            return try tx.count(in: Note.collection)
        }
        for try await count in observation {
            MainActor.assertIsolated("the value was not delivered on the main actor")
            received.append(count)
            if received.count == 2 { break }
            try await connection.write { try $0.write(Note(id: "a", text: "t")) }
        }
        #expect(received == [0, 1])
        #expect(runsInsideATask.value == 0, "the closure ran in the iterating task, on the main actor")
        #expect(database.runningObservationCount == 0)
    }
}

/// The typed questions of a changeset.
struct ChangesetTypedTests {
    @Test func typedHelpersAnswerForTheModelsCollection() throws {
        let changeset = Changeset(
            snapshot: 1, changedKeys: [Note.collection: ["a"]], removedKeys: [Note.collection: ["b"]])
        #expect(changeset.contains(Note.self))
        #expect(!changeset.contains(Member.self))
        #expect(changeset.contains(Note.self, key: "a"))
        #expect(changeset.contains(Note.self, key: "b"))
        #expect(!changeset.contains(Note.self, key: "c"))
        #expect(changeset.changedKeys(of: Note.self) == ["a"])
        #expect(changeset.removedKeys(of: Note.self) == ["b"])
        #expect(Changeset(snapshot: 2, removedCollections: [Note.collection]).contains(Note.self, key: "z"))
    }
}
