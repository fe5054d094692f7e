import Foundation
import Testing
import Trove
import TroveTestSupport

/// Runs `body` in a task that is cancelled after `seconds`: a change that is never noticed ends
/// the observation (its `next()` returns `nil`) and fails the test instead of hanging it.
private func withWatchdog(seconds: Int, _ body: @escaping @Sendable () async throws -> Void) async throws {
    let task = Task { try await body() }
    let watchdog = Task {
        try await Task.sleep(for: .seconds(seconds))
        task.cancel()
    }
    defer { watchdog.cancel() }
    try await task.value
}

/// Another process commits to the file (`trove-crash-writer insert`): an observation of this
/// process re-runs and sees the new items, and `database.changes` reports an external change,
/// both within the documented bound: about one `externalChangePollingInterval` (100 ms by
/// default), checked here with ample room for a loaded machine (10 s).
@Suite(.serialized)
struct ExternalChangeProcessTests {
    @Test func anotherProcessesCommitReachesObservationsAndChanges() async throws {
        try await withWatchdog(seconds: 120) {
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/observed.trove"
            let database = try Database(path: path)
            #expect(database.configuration.externalChangePollingInterval == .milliseconds(100))
            try await database.newConnection().write { tx in
                try tx.write(CrashWorkload.item(id: "seed", group: 0, salt: 1))
            }
            var changes = database.changes.makeAsyncIterator()
            var observation = database.observe { tx in try tx.count(of: CrashItem.self) }.makeAsyncIterator()
            #expect(try await observation.next() == 1)

            let child = try CrashWriterProcess(mode: "insert", path: path, extra: ["50"])
            let status = child.waitForExit()
            #expect(status == 0, "the child failed: \(child.errors)")
            #expect(child.lines == ["committed 50"])
            let committed = ContinuousClock.now

            let bound = Duration.seconds(10)
            #expect(try await observation.next() == 51)
            let observed = ContinuousClock.now - committed
            #expect(observed < bound, "the observation saw the commit after \(observed)")

            let changeset = try #require(await changes.next())
            let reported = ContinuousClock.now - committed
            #expect(changeset.reloadReason == .externalChange)
            #expect(reported < bound, "database.changes reported the commit after \(reported)")
        }
    }

    /// The same for a database opened read-only (as the `trove` command opens one): it never
    /// commits, so every change it notices is another's.
    @Test func anotherProcessesCommitReachesAReadOnlyDatabase() async throws {
        try await withWatchdog(seconds: 120) {
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/observed.trove"
            try await Database(path: path).newConnection().write { tx in
                try tx.write(CrashWorkload.item(id: "seed", group: 0, salt: 1))
            }
            var configuration = Configuration()
            configuration.isReadOnly = true
            let database = try Database(path: path, configuration: configuration)
            let reader = try database.newConnection()
            #expect(try await reader.read { try $0.count(of: CrashItem.self) } == 1)
            var changes = database.changes.makeAsyncIterator()
            var observation = database.observe { tx in try tx.count(of: CrashItem.self) }.makeAsyncIterator()
            #expect(try await observation.next() == 1)

            let child = try CrashWriterProcess(mode: "insert", path: path, extra: ["50"])
            #expect(child.waitForExit() == 0, "the child failed: \(child.errors)")
            #expect(try await observation.next() == 51)
            let changeset = try #require(await changes.next())
            #expect(changeset.reloadReason == .externalChange)
            #expect(try await reader.read { try $0.count(of: CrashItem.self) } == 51)
        }
    }
}
