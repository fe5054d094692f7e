import Foundation
import Synchronization
import Testing
import Trove
import TroveTestSupport
import TroveUserExtension

/// A clock the test moves by hand: `sleep(until:)` returns when ``advance(to:)`` reaches the date.
final class ManualClock: ActionClock {
    private struct Sleeper {
        var date: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }

    private let state: Mutex<State>

    init(_ now: Date) {
        state = Mutex(State(now: now))
    }

    var now: Date { state.withLock { $0.now } }

    /// Moves the clock to `date`, waking the sleepers it reaches.
    func advance(to date: Date) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = date
            let due = state.sleepers.filter { $0.value.date <= date }
            for id in due.keys { state.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    func sleep(until date: Date) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    if date <= state.now { return true }
                    state.sleepers[id] = Sleeper(date: date, continuation: continuation)
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}

/// What handlers and the runner's events reported, in order.
final class RunLog: Sendable {
    private let entries = Mutex<[String]>([])

    func add(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }

    /// Waits (in real time, at least 60 seconds: a sanitizer run on a loaded machine is slow)
    /// until `predicate` holds of the entries.
    func wait(until predicate: ([String]) -> Bool) async -> Bool {
        for _ in 0..<6_000 {
            if predicate(all) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return predicate(all)
    }
}

struct HandlerFailure: Error, CustomStringConvertible {
    var key: String
    var attempt: Int
    var description: String { "failure of \(key) at attempt \(attempt)" }
}

/// Scheduled actions (``ActionSchedule``, ``ActionRunner``), an extension written on the public
/// extension protocol: actions run at their dates in order, are tried again with back-off, are
/// dropped when their item changes or goes, persist, can be suspended, and run at least once
/// across a kill.
@Suite struct ScheduledActionsTests {
    static let t0 = Date(timeIntervalSince1970: 2_000_000)
    static let name = "actions"

    /// Items declare "expire" at t0 + group (none for a negative group) and, for an even group,
    /// "refresh" at t0 + group / 2; `retry` for both.
    static func schedule(retry: RetryPolicy = .default) -> ActionSchedule<CrashItem> {
        ActionSchedule<CrashItem>(name) { item in
            guard item.group >= 0 else { return [] }
            var actions = [ScheduledAction("expire", at: t0.addingTimeInterval(Double(item.group)), retry: retry)]
            if item.group % 2 == 0 {
                actions.append(ScheduledAction("refresh", at: t0.addingTimeInterval(Double(item.group) / 2), retry: retry))
            }
            return actions
        }
    }

    /// The item `key` of `group` (which may be negative: it then declares nothing).
    static func item(_ key: String, _ group: Int) -> CrashItem {
        var item = CrashWorkload.item(id: key, group: abs(group), salt: 5)
        item.group = group
        return item
    }

    /// Handlers that log "<action> <key> <attempt> @<seconds after t0>" and throw while
    /// `fails(key, attempt)`.
    static func handlers(
        _ log: RunLog, clock: ManualClock, fails: @escaping @Sendable (String, Int) -> Bool = { _, _ in false }
    ) -> [String: ActionRunner.Handler] {
        let handler: ActionRunner.Handler = { action in
            let at = clock.now.timeIntervalSince(t0)
            log.add("\(action.name) \(action.key) \(action.attempt) @\(at)")
            if fails(action.key, action.attempt) { throw HandlerFailure(key: action.key, attempt: action.attempt) }
        }
        return ["expire": handler, "refresh": handler]
    }

    static func pending(_ schedule: ActionSchedule<CrashItem>, _ database: Database) throws -> [PendingAction] {
        try database.newConnection().read { tx in try schedule.pendingActions(in: tx) }
    }

    static func write(_ database: Database, _ body: (ReadWriteTransaction) throws -> Void) throws {
        try database.newConnection().write(body)
    }

    /// Each action runs at its date and not before, in date order (declaration order for one
    /// date), once.
    @Test func actionsRunAtTheirDatesInOrderOnce() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let schedule = Self.schedule()
        let database = try Database(path: folder + "/dates.trove", extensions: [schedule.databaseExtension])
        try Self.write(database) { tx in
            try tx.write(Self.item("k5", 5))
            try tx.write(Self.item("k3", 3))
            try tx.write(Self.item("k9", 9))
            try tx.write(Self.item("k3b", 3))
        }
        let clock = ManualClock(Self.t0)
        let log = RunLog()
        let runner = ActionRunner(database: database, schedule: Self.name, clock: clock, handlers: Self.handlers(log, clock: clock))
        #expect(try await runner.runDue() == 0)
        #expect(try await runner.nextAction()?.key == "k3")
        clock.advance(to: Self.t0.addingTimeInterval(2.999))
        #expect(try await runner.runDue() == 0)
        clock.advance(to: Self.t0.addingTimeInterval(3))
        #expect(try await runner.runDue() == 2)
        #expect(log.all == ["expire k3 1 @3.0", "expire k3b 1 @3.0"])
        clock.advance(to: Self.t0.addingTimeInterval(100))
        #expect(try await runner.runDue() == 2)
        #expect(try await runner.runDue() == 0)
        #expect(log.all == ["expire k3 1 @3.0", "expire k3b 1 @3.0", "expire k5 1 @100.0", "expire k9 1 @100.0"])
        #expect(try Self.pending(schedule, database).isEmpty)
    }

    /// A handler that throws is tried again after the policy's delays (10 s, then twice as long
    /// each time, capped at 70 s), until the policy's last failure drops it and reports it failed;
    /// a handler that succeeds on a later try is done then.
    @Test func failedActionsAreTriedAgainWithBackOff() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let policy = RetryPolicy(maxFailures: 5, initialDelay: 10, multiplier: 2, maxDelay: 70)
        let schedule = Self.schedule(retry: policy)
        let database = try Database(path: folder + "/retry.trove", extensions: [schedule.databaseExtension])
        try Self.write(database) { tx in
            try tx.write(Self.item("never", 1))
            try tx.write(Self.item("third", 1))
        }
        let clock = ManualClock(Self.t0)
        let log = RunLog()
        let events = RunLog()
        let runner = ActionRunner(
            database: database, schedule: Self.name, clock: clock,
            handlers: Self.handlers(log, clock: clock) { key, attempt in key == "never" || attempt < 3 },
            onEvent: { event in
                switch event {
                case .ran(let action, let attempt): events.add("ran \(action.key) \(attempt)")
                case .retrying(let action, let attempt, let nextTry, _):
                    events.add("retry \(action.key) \(attempt) @\(nextTry.timeIntervalSince(Self.t0))")
                case .failed(let action, let attempt, let error): events.add("failed \(action.key) \(attempt) \(error)")
                }
            })
        // Tries at 1, 11 (1 + 10), 31 (11 + 20), 71 (31 + 40), 141 (71 + 70, not 80); "third" is
        // done at 31.
        let steps = [(1.0, 2), (10.999, 0), (11.0, 2), (30.9, 0), (31.0, 2), (70.9, 0), (71.0, 1), (140.9, 0), (141.0, 1)]
        for (at, expected) in steps {
            clock.advance(to: Self.t0.addingTimeInterval(at))
            #expect(try await runner.runDue() == expected, "at \(at)")
        }
        #expect(
            events.all == [
                "retry never 1 @11.0", "retry third 1 @11.0", "retry never 2 @31.0", "retry third 2 @31.0",
                "retry never 3 @71.0", "ran third 3", "retry never 4 @141.0", "failed never 5 failure of never at attempt 5",
            ])
        #expect(log.all.filter { $0.contains("never") } == (1...5).map { "expire never \($0) @\([1.0, 11.0, 31.0, 71.0, 141.0][$0 - 1])" })
        #expect(try Self.pending(schedule, database).isEmpty)
    }

    /// A write of an item's data drops its actions and declares the new item's (new declaration
    /// numbers, tries forgotten); a metadata write or a touch keeps them; a removal of the item or
    /// of its collection drops them; an item written by its own handler keeps its new actions.
    @Test func actionsAreDroppedWhenTheirItemChangesOrGoes() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let schedule = Self.schedule()
        let database = try Database(path: folder + "/drop.trove", extensions: [schedule.databaseExtension])
        try Self.write(database) { tx in
            for (key, group) in [("a", 5), ("b", 6), ("c", 7), ("d", 9)] { try tx.write(Self.item(key, group)) }
        }
        func summary() throws -> [String] {
            try Self.pending(schedule, database).map { "\($0.key) \($0.name) \($0.date.timeIntervalSince(Self.t0))" }
        }
        let before = try Self.pending(schedule, database)
        #expect(try summary() == ["b refresh 3.0", "a expire 5.0", "b expire 6.0", "c expire 7.0", "d expire 9.0"])
        try Self.write(database) { tx in
            _ = try tx.replaceMetadata(Data([1, 2]), forKey: "c", in: CrashItem.collection)
            try tx.touch(key: "d", in: CrashItem.collection)
        }
        let kept = try Self.pending(schedule, database)
        #expect(kept == before)
        try Self.write(database) { tx in
            try tx.write(Self.item("a", -1))  // declares nothing
            try tx.write(Self.item("b", 8))  // new dates
            _ = try tx.remove(CrashItem.self, key: "c")
        }
        #expect(try summary() == ["b refresh 4.0", "b expire 8.0", "d expire 9.0"])
        let renewed = try Self.pending(schedule, database).filter { $0.key == "b" }
        #expect(renewed.allSatisfy { new in before.allSatisfy { $0.declaration < new.declaration } })

        // A handler that writes its item: the runner's record leaves the new declaration alone.
        let clock = ManualClock(Self.t0.addingTimeInterval(4))
        let runner = ActionRunner(
            database: database, schedule: Self.name, clock: clock,
            handlers: [
                "refresh": { action in
                    try await action.database.write(Self.item(action.key, 30))
                }
            ])
        #expect(try await runner.runDue() == 1)
        #expect(try summary() == ["d expire 9.0", "b refresh 15.0", "b expire 30.0"])
        #expect(try Self.pending(schedule, database).allSatisfy { $0.attempts == 0 })

        try Self.write(database) { tx in _ = try tx.removeAll(CrashItem.self) }
        #expect(try summary().isEmpty)
    }

    /// A suspended runner starts nothing, even what falls due; resumed, it runs what is due at
    /// once. A commit that declares an action earlier than the one it sleeps for wakes it.
    @Test func suspendResumeAndWakeOnCommit() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let schedule = Self.schedule()
        let database = try Database(path: folder + "/suspend.trove", extensions: [schedule.databaseExtension])
        try Self.write(database) { tx in try tx.write(Self.item("s", 11)) }
        let clock = ManualClock(Self.t0)
        let log = RunLog()
        let runner = ActionRunner(database: database, schedule: Self.name, clock: clock, handlers: Self.handlers(log, clock: clock))
        await runner.suspend()
        let task = Task { try await runner.run() }
        clock.advance(to: Self.t0.addingTimeInterval(20))
        try await Task.sleep(for: .milliseconds(300))
        #expect(log.all.isEmpty)
        await runner.resume()
        #expect(await log.wait { $0 == ["expire s 1 @20.0"] }, "\(log.all)")

        // The runner sleeps until t0 + 981; a commit declares an action due now: it runs at once.
        try Self.write(database) { tx in try tx.write(Self.item("late", 981)) }
        try await Task.sleep(for: .milliseconds(100))
        try Self.write(database) { tx in try tx.write(Self.item("now", 19)) }
        #expect(await log.wait { $0.count == 2 }, "\(log.all)")
        #expect(log.all.last == "expire now 1 @20.0")
        // The clock reaching the later date wakes it.
        clock.advance(to: Self.t0.addingTimeInterval(981))
        #expect(await log.wait { $0.count == 3 }, "\(log.all)")
        #expect(log.all.last == "expire late 1 @981.0")
        // The handler logs before the runner records the action done, in its own transaction.
        for _ in 0..<6_000 where try !Self.pending(schedule, database).isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        try await task.value
        #expect(try Self.pending(schedule, database).isEmpty)
    }

    /// While a handler runs, the runner (an actor) takes other calls: a second `runDue()` then
    /// starts nothing, so the running action does not run twice at once.
    @Test func aSecondRunDueWhileOneRunsStartsNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let schedule = Self.schedule()
        let database = try Database(path: folder + "/reentrant.trove", extensions: [schedule.databaseExtension])
        try Self.write(database) { tx in try tx.write(Self.item("r", 1)) }
        let clock = ManualClock(Self.t0.addingTimeInterval(5))
        let log = RunLog()
        let release = RunLog()
        let runner = ActionRunner(
            database: database, schedule: Self.name, clock: clock,
            handlers: [
                "expire": { action in
                    log.add("started \(action.key) \(action.attempt)")
                    _ = await release.wait { !$0.isEmpty }
                }
            ])
        let first = Task { try await runner.runDue() }
        #expect(await log.wait { $0 == ["started r 1"] })
        #expect(try await runner.runDue() == 0)
        release.add("go")
        #expect(try await first.value == 1)
        #expect(log.all == ["started r 1"])
        #expect(try Self.pending(schedule, database).isEmpty)
    }

    /// Actions and their tries are in the file: a new instance of the database finds them as they
    /// were, and runs them.
    @Test func actionsSurviveClosingAndReopening() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/reopen.trove"
        let schedule = Self.schedule(retry: RetryPolicy(maxFailures: 3, initialDelay: 5))
        let clock = ManualClock(Self.t0.addingTimeInterval(1))
        let log = RunLog()
        let before: [PendingAction]
        do {
            let database = try Database(path: path, extensions: [schedule.databaseExtension])
            try Self.write(database) { tx in
                try tx.write(Self.item("x", 1))
                try tx.write(Self.item("y", 7))
            }
            let runner = ActionRunner(
                database: database, schedule: Self.name, clock: clock,
                handlers: Self.handlers(log, clock: clock) { _, attempt in attempt == 1 })
            #expect(try await runner.runDue() == 1)
            before = try Self.pending(schedule, database)
            #expect(before.map(\.key) == ["x", "y"])
            #expect(before.first?.failures == 1)
        }
        let database = try Database(path: path)
        #expect(try database.register(schedule.databaseExtension) == .unchanged)
        #expect(try Self.pending(schedule, database) == before)
        let runner = ActionRunner(database: database, schedule: Self.name, clock: clock, handlers: Self.handlers(log, clock: clock))
        clock.advance(to: Self.t0.addingTimeInterval(10))
        #expect(try await runner.runDue() == 2)
        #expect(log.all == ["expire x 1 @1.0", "expire x 2 @10.0", "expire y 1 @10.0"])
        #expect(try Self.pending(schedule, database).isEmpty)
    }
}

/// The brute-force model of a schedule: each item's declared actions with their tries.
struct ActionModel {
    struct Action: Equatable {
        var declaration: Int64
        var key: String
        var name: String
        var date: Double
        var nextTry: Double
        var attempts = 0
        var failures = 0
    }

    var actions: [Action] = []
    var nextDeclaration: Int64 = 1
    var ran: [String] = []
    let policy: RetryPolicy

    /// What the schedule declares for an item of `group` (see `ScheduledActionsTests.schedule`).
    mutating func write(_ key: String, group: Int) {
        actions.removeAll { $0.key == key }
        guard group >= 0 else { return }
        var declared = [("expire", Double(group))]
        if group % 2 == 0 { declared.append(("refresh", Double(group) / 2)) }
        for (name, date) in declared {
            actions.append(Action(declaration: nextDeclaration, key: key, name: name, date: date, nextTry: date))
            nextDeclaration += 1
        }
    }

    mutating func remove(_ key: String) {
        actions.removeAll { $0.key == key }
    }

    var pending: [Action] {
        actions.sorted { ($0.nextTry, $0.declaration) < ($1.nextTry, $1.declaration) }
    }

    /// Runs what is due at `now`; the handler fails while `fails(key, attempt)`.
    mutating func runDue(at now: Double, fails: (String, Int) -> Bool) {
        while let next = pending.first, next.nextTry <= now {
            let index = actions.firstIndex { $0.declaration == next.declaration }!
            actions[index].attempts += 1
            let attempt = actions[index].attempts
            ran.append("\(next.name) \(next.key) \(attempt) @\(now)")
            if fails(next.key, attempt) {
                actions[index].failures += 1
                if actions[index].failures >= policy.maxFailures {
                    actions.remove(at: index)
                } else {
                    actions[index].nextTry = now + policy.delay(afterFailure: actions[index].failures)
                }
            } else {
                actions.remove(at: index)
            }
        }
    }
}

extension ScheduledActionsTests {
    /// Random writes, removals, removals of the collection and clock advances leave the schedule
    /// equal to the model after each step: the same pending actions (declaration, date, next try,
    /// tries), and the same runs in the same order at the same times.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func followsRandomWritesLikeAModel(seed: UInt64) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let policy = RetryPolicy(maxFailures: 3, initialDelay: 2, multiplier: 2, maxDelay: 5)
        let schedule = Self.schedule(retry: policy)
        let database = try Database(path: folder + "/model.trove", extensions: [schedule.databaseExtension])
        let clock = ManualClock(Self.t0)
        let log = RunLog()
        // Keys ending in an even digit fail their first two attempts.
        let fails: @Sendable (String, Int) -> Bool = { key, attempt in
            (Int(String(key.last!))! % 2 == 0) && attempt <= 2
        }
        let runner = ActionRunner(
            database: database, schedule: Self.name, clock: clock, handlers: Self.handlers(log, clock: clock, fails: fails))
        var model = ActionModel(policy: policy)
        var random = SeededGenerator(seed: seed)
        var now = 0.0
        for step in 0..<80 {
            let choice = Int.random(in: 0..<20, using: &random)
            if choice < 9 {
                let writes = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    ("m\(Int.random(in: 0..<8, using: &random))", Int.random(in: -3..<Int(now) + 30, using: &random))
                }
                try Self.write(database) { tx in
                    for (key, group) in writes { try tx.write(Self.item(key, group)) }
                }
                for (key, group) in writes { model.write(key, group: group) }
            } else if choice < 12 {
                let key = "m\(Int.random(in: 0..<8, using: &random))"
                try Self.write(database) { tx in _ = try tx.remove(CrashItem.self, key: key) }
                model.remove(key)
            } else if choice == 12 {
                try Self.write(database) { tx in _ = try tx.removeAll(CrashItem.self) }
                model.actions.removeAll()
            } else {
                now += Double(Int.random(in: 0...6, using: &random))
                clock.advance(to: Self.t0.addingTimeInterval(now))
                try await runner.runDue()
                model.runDue(at: now, fails: fails)
            }
            let pending = try Self.pending(schedule, database).map {
                ActionModel.Action(
                    declaration: $0.declaration, key: $0.key, name: $0.name, date: $0.date.timeIntervalSince(Self.t0),
                    nextTry: $0.nextTry.timeIntervalSince(Self.t0), attempts: $0.attempts, failures: $0.failures)
            }
            #expect(pending == model.pending, "seed \(seed) step \(step)")
            #expect(log.all == model.ran, "seed \(seed) step \(step)")
            if pending != model.pending || log.all != model.ran { return }
        }
        #expect(model.ran.count > 10, "the model ran too little to mean much: \(model.ran.count)")
    }

    /// A process killed after an action's handler did its work and before its completion was
    /// recorded loses no action: the next start runs that action again (at least once, with
    /// attempt 2) and records it once; every other action runs and is recorded once.
    @Test func aKilledRunnerRunsTheInterruptedActionAgain() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/actions.trove"
        let logPath = folder + "/ran.log"
        let killed = ActionWorkload.killedKey

        let first = try CrashWriterProcess(mode: "actions", path: path, extra: [logPath])
        let reached = first.waitForLine(timeout: .seconds(60)) { $0 == "ran \(killed) 1" }
        if let problem = first.sigkill() {
            Issue.record("first run: \(problem)")
            return
        }
        #expect(reached, "the child never ran \(killed): \(first.lines.suffix(3))")
        #expect(!first.lines.contains("recorded \(killed)"))
        let database = try Database(path: path)
        #expect(try database.register(ActionWorkload.schedule.databaseExtension) == .unchanged)
        let left = try database.newConnection().read { tx in try ActionWorkload.schedule.pendingActions(in: tx) }
        #expect(left.map(\.key) == Array(ActionWorkload.keys.drop { $0 != killed }))
        #expect(left.first?.attempts == 1)

        let second = try CrashWriterProcess(mode: "actions", path: path, extra: [logPath])
        let finished = second.waitForLine(timeout: .seconds(60)) { $0 == "done" }
        _ = second.sigkill()
        #expect(finished, "the second child did not finish: \(second.lines.suffix(3))")
        let ran = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n").map(String.init)
        // Every action ran once, the killed one twice: first as attempt 1, then again as attempt 2.
        let keys = ActionWorkload.keys
        #expect(ran == ["a-0 1", "a-1 1", "a-2 1", "a-2 2", "a-3 1", "a-4 1", "a-5 1"])
        let recorded = (first.lines + second.lines).filter { $0.hasPrefix("recorded ") }.map { String($0.dropFirst(9)) }
        #expect(recorded == keys)
        #expect(try database.newConnection().read { tx in try ActionWorkload.schedule.pendingActions(in: tx) }.isEmpty)
    }
}
