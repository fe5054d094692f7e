import Foundation
import Synchronization

/// The time an ``ActionRunner`` goes by: the real one by default (``SystemActionClock``); a test
/// gives one it moves by hand.
public protocol ActionClock: Sendable {
    /// The current date.
    var now: Date { get }
    /// Returns once ``now`` reached `date`, at once if it has. Throws `CancellationError` when the
    /// task is cancelled before.
    func sleep(until date: Date) async throws
}

/// The real clock: `Date()`, and `Task.sleep`.
public struct SystemActionClock: ActionClock {
    /// The real clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }

    /// Sleeps until `date`, at most a minute at a time, so that a change of the system's clock is
    /// seen within a minute.
    public func sleep(until date: Date) async throws {
        while true {
            let left = date.timeIntervalSinceNow
            guard left > 0 else { return }
            try await Task.sleep(for: .seconds(min(left, 60)))
        }
    }
}

/// What a handler learns of the action it runs (see ``ActionRunner``).
public struct ActionContext: Sendable {
    /// The key of the item that declared the action.
    public let key: String
    /// The action's name.
    public let name: String
    /// The date the item declared.
    public let date: Date
    /// Which start of the action this is, from 1: more than 1 when an earlier start threw, or
    /// was cut short by a crash before its completion was recorded and may have done its work.
    /// A handler whose work must not be done twice checks it.
    public let attempt: Int
    /// How many times the handler threw before.
    public let failures: Int
    /// The database, to read or write the item.
    public let database: Database
}

/// What happened to an action the runner ran (see ``ActionRunner/init(database:schedule:clock:handlers:onEvent:)``).
public enum ActionEvent: Sendable {
    /// The handler returned, and the action was recorded done.
    case ran(PendingAction, attempt: Int)
    /// The handler threw: the action runs again at `nextTry`.
    case retrying(PendingAction, attempt: Int, nextTry: Date, error: any Error)
    /// The handler threw for the last time its ``RetryPolicy`` allows: the action is dropped.
    case failed(PendingAction, attempt: Int, error: any Error)
}

/// Runs the actions of an ``ActionSchedule`` when they are due, one at a time, in the order of
/// their dates, each with the handler of its name.
///
/// ```swift
/// let runner = ActionRunner(database: database, schedule: "note_actions", handlers: [
///     "expire": { action in
///         try await action.database.write { tx in _ = try tx.remove(Note.self, key: action.key) }
///     }
/// ])
/// let task = Task { try await runner.run() }
/// ```
///
/// ``run()`` runs until its task is cancelled: it runs what is due, then sleeps until the next
/// action's date, or until a commit declares actions (an earlier one wakes it), or until
/// ``resume()``. ``runDue()`` runs what is due now, once.
///
/// For each action, the runner counts a start in a write transaction, runs the handler, and then
/// records the outcome in another write transaction: done (the action is dropped), or failed (it
/// runs again after the delay of its ``RetryPolicy``, or is dropped when that was its last
/// failure: the runner reports ``ActionEvent/failed(_:attempt:error:)``). An action whose item
/// changed or went while its handler ran is not recorded: the item's write dropped it, and
/// declared the new item's actions.
///
/// - Important: An action runs **at least once**, not exactly once. A crash (or a kill) after the
///   handler did its work and before the completion is recorded leaves the action in the file,
///   and the next runner runs it again, with a higher ``ActionContext/attempt``. A handler whose
///   work must not happen twice makes it idempotent (writes the item, in the same transaction as
///   its work when the work is in the database, so that the item no longer declares the action),
///   or checks ``ActionContext/attempt``. Run one runner per schedule and file: two would run the
///   same action twice.
public actor ActionRunner {
    /// Runs one action.
    public typealias Handler = @Sendable (ActionContext) async throws -> Void

    private let database: Database
    private let schedule: String
    private let clock: any ActionClock
    private let handlers: [String: Handler]
    private let onEvent: @Sendable (ActionEvent) -> Void
    private let table: ActionTable
    private let wake = WakeSignal()
    private var isRunning = false
    /// Whether a call of ``runDue()`` is running actions: the actor is reentrant while a handler
    /// runs, and a second call must not start the same action again.
    private var isRunningDue = false

    /// Whether the runner is suspended: it starts no action until ``resume()``.
    public private(set) var isSuspended = false

    /// A runner of the schedule registered as `schedule` on `database`.
    ///
    /// - Parameters:
    ///   - database: The database, with the schedule registered.
    ///   - schedule: The name of the ``ActionSchedule``.
    ///   - clock: The clock; the real one by default.
    ///   - handlers: The handler of each action name. An action without one fails, as if its
    ///     handler threw.
    ///   - onEvent: Told what happened to each action run, after its outcome is recorded.
    public init(
        database: Database, schedule: String, clock: any ActionClock = SystemActionClock(),
        handlers: [String: Handler], onEvent: @escaping @Sendable (ActionEvent) -> Void = { _ in }
    ) {
        self.database = database
        self.schedule = schedule
        self.clock = clock
        self.handlers = handlers
        self.onEvent = onEvent
        self.table = ActionTable(name: schedule)
    }

    /// Stops starting actions: the one running finishes and is recorded; the others wait, in
    /// the file, until ``resume()``.
    public func suspend() {
        isSuspended = true
    }

    /// Starts running actions again after ``suspend()``: those that fell due meanwhile run at once.
    public func resume() {
        isSuspended = false
        wake.signal()
    }

    /// The action that runs next, if any.
    ///
    /// - Throws: ``TroveError`` when the schedule is not registered, or SQLite fails.
    public func nextAction() async throws -> PendingAction? {
        let table = self.table
        let schedule = self.schedule
        return try await database.read { tx in
            try table.pending(in: tx.extensionTables(named: schedule), limit: 1).first
        }
    }

    /// Runs every action due by the clock's ``ActionClock/now``, one after the other, in order;
    /// nothing when suspended, or while another call (or ``run()``) runs actions.
    ///
    /// - Returns: The number of actions run.
    /// - Throws: ``TroveError`` when the schedule is not registered, or SQLite fails;
    ///   `CancellationError` when the task was cancelled while a handler ran (the action runs
    ///   again next time).
    @discardableResult
    public func runDue() async throws -> Int {
        guard !isRunningDue else { return 0 }
        isRunningDue = true
        defer { isRunningDue = false }
        var count = 0
        while !isSuspended, !Task.isCancelled, let action = try await nextAction(), action.nextTry <= clock.now {
            try await run(action)
            count += 1
        }
        return count
    }

    /// Runs the actions as they fall due, until the task is cancelled: then it returns, once the
    /// action running, if any, is recorded.
    ///
    /// - Throws: ``TroveError`` when the schedule is not registered, or SQLite fails; with code
    ///   ``TroveError/Code/misuse`` when the runner runs already.
    public func run() async throws {
        guard !isRunning else {
            throw TroveError(
                code: .misuse,
                message: "The action runner of the schedule '\(schedule)' is running already: run() runs once at a time.",
                extensionName: schedule)
        }
        isRunning = true
        defer { isRunning = false }
        let watcher = watchCommits()
        defer { watcher.cancel() }
        while !Task.isCancelled {
            let next: Date?
            do {
                try await runDue()
                next = isSuspended ? nil : try await nextAction()?.nextTry
            } catch is CancellationError {
                // A transaction refused to wait, or a handler was cut short, by the cancellation.
                return
            }
            await wait(until: next)
        }
    }

    // MARK: Running one action

    /// Runs `action` and records its outcome.
    private func run(_ action: PendingAction) async throws {
        let table = self.table
        let schedule = self.schedule
        let id = action.declaration
        let started = try await database.write { tx in
            try tx.withExtensionContext(named: schedule) { try table.recordStart(of: id, in: $0) }
        }
        guard started else { return }
        let attempt = action.attempts + 1
        let context = ActionContext(
            key: action.key, name: action.name, date: action.date, attempt: attempt, failures: action.failures,
            database: database)
        do {
            guard let handler = handlers[action.name] else {
                throw TroveError(
                    code: .misuse,
                    message:
                        "The action runner of the schedule '\(schedule)' has no handler for the action '\(action.name)' of the item '\(action.key)'.",
                    extensionName: schedule)
            }
            try await handler(context)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            try await recordFailure(of: action, attempt: attempt, error: error)
            return
        }
        try await database.write { tx in
            try tx.withExtensionContext(named: schedule) { try table.recordDone(id, in: $0) }
        }
        onEvent(.ran(action, attempt: attempt))
    }

    /// Records that the handler of `action` threw `error`: it runs again later, or is dropped.
    private func recordFailure(of action: PendingAction, attempt: Int, error: any Error) async throws {
        let table = self.table
        let schedule = self.schedule
        let id = action.declaration
        let failures = action.failures + 1
        if failures >= action.retry.maxFailures {
            try await database.write { tx in
                try tx.withExtensionContext(named: schedule) { try table.recordDone(id, in: $0) }
            }
            onEvent(.failed(action, attempt: attempt, error: error))
        } else {
            let nextTry = clock.now.addingTimeInterval(action.retry.delay(afterFailure: failures))
            let message = String(describing: error)
            try await database.write { tx in
                try tx.withExtensionContext(named: schedule) {
                    try table.recordFailure(of: id, nextTry: nextTry, error: message, in: $0)
                }
            }
            onEvent(.retrying(action, attempt: attempt, nextTry: nextTry, error: error))
        }
    }

    // MARK: Waiting

    /// Wakes the runner after every commit that changed the schedule (or may have: another
    /// process wrote the file).
    private func watchCommits() -> Task<Void, Never> {
        let wake = self.wake
        let schedule = self.schedule
        let changes = database.changes.makeAsyncIterator()
        return Task {
            var changes = changes
            while let changeset = await changes.next() {
                if changeset.extensionNotes[schedule] != nil || changeset.changedExtensions.contains(schedule)
                    || changeset.reloadReason != nil
                {
                    wake.signal()
                }
            }
        }
    }

    /// Returns at `date` (never when `nil`), when woken, or when the task is cancelled.
    private func wait(until date: Date?) async {
        let clock = self.clock
        let wake = self.wake
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await wake.wait() }
            if let date {
                group.addTask { try? await clock.sleep(until: date) }
            }
            await group.next()
            group.cancelAll()
        }
    }
}

/// Wakes a waiting runner: a signal sent while no one waits is kept for the next wait.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Wakes the waiter, or the next one.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when signalled (at once if a signal is pending), or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            signal()
        }
    }
}
