import Foundation
import Synchronization

/// A fixed set of connections of one kind (the readers, or the one writer) and the queue of the
/// transactions that wait for one, served first come, first served.
///
/// A transaction takes a free connection at once when there is one. Otherwise an `async` caller
/// suspends: its continuation (or, for a transaction whose body runs in its own task, its task
/// parked in a ``ConnectionGrant``) joins the queue and no thread waits for it; a synchronous caller
/// blocks its own thread, as any synchronous call does. When a transaction ends, its connection
/// goes straight to the first waiter, if any. A cancelled `async` waiter leaves the queue and
/// throws `CancellationError`.
final class ConnectionLane: Sendable {
    /// What to do with a connection granted to a waiter; called without the lane's lock held.
    typealias Grant = @Sendable (PooledConnection) -> Void

    /// A transaction waiting for a connection.
    struct Waiter: Sendable {
        var activity: TransactionActivity
        /// Takes the connection and releases it when its transaction ends.
        let grant: Grant
        /// Ends the wait with an error (cancellation).
        let fail: @Sendable (any Error) -> Void
    }

    struct State {
        var idle: [PooledConnection]
        var waiters = WaiterQueue()
        /// What runs on each connection, by ``PooledConnection/index``.
        var running: [TransactionActivity?]
        /// The running transactions already reported as too long, by connection (a connection
        /// is reported once per transaction).
        var reported: [Bool]
    }

    let kind: TransactionActivity.Kind
    /// Every connection of the lane.
    let connections: [PooledConnection]
    private let state: Protected<State>
    private let nextWaiterID = Atomic<UInt64>(0)

    init(kind: TransactionActivity.Kind, capacity: Int, label: String) {
        let connections = (0..<max(1, capacity)).map { PooledConnection(index: $0, label: "\(label).\($0)") }
        self.kind = kind
        self.connections = connections
        // Reversed, so that `popLast` hands out the first connections first: a lightly loaded
        // database opens and warms few of them.
        self.state = Protected(
            State(
                idle: connections.reversed(), running: Array(repeating: nil, count: connections.count),
                reported: Array(repeating: false, count: connections.count)))
    }

    // MARK: Asynchronous

    /// Runs `work` on a connection of the lane, on that connection's queue, once one is free.
    ///
    /// - Throws: What `work` throws, or `CancellationError` when the task is cancelled before a
    ///   connection was granted to it.
    func run<T: Sendable>(
        label: String?, fileID: String, line: Int,
        _ work: @escaping @Sendable (PooledConnection) throws -> T
    ) async throws -> T {
        let id = nextWaiterID.add(1, ordering: .relaxed).newValue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let grant: Grant = { connection in
                    connection.queue.async {
                        let result = Result { try self.perform(on: connection, work) }
                        self.release(connection)
                        continuation.resume(with: result)
                    }
                }
                let activity = TransactionActivity(
                    kind: kind, state: .waiting, label: label, fileID: fileID, line: line, since: .now)
                let outcome: Outcome = state.withLock { state in
                    // Under the lock: a cancellation handler that ran before found no waiter to
                    // remove, and one that runs after finds this one in the queue.
                    if Task.isCancelled { return .cancelled }
                    if let connection = state.idle.popLast() {
                        state.startRunning(activity, on: connection)
                        return .granted(connection)
                    }
                    state.waiters.append(
                        id, Waiter(activity: activity, grant: grant, fail: { continuation.resume(throwing: $0) }))
                    return .queued
                }
                switch outcome {
                case .granted(let connection): grant(connection)
                case .queued: break
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            if let waiter = state.withLock({ $0.waiters.remove(id) }) {
                waiter.fail(CancellationError())
            }
        }
    }

    /// What a transaction whose body runs in the caller's task (and may suspend) finds when it
    /// asks for a connection (``lease(label:fileID:line:)``).
    enum AsyncLease {
        /// A connection was free: it is the transaction's until ``release(_:)``.
        case granted(PooledConnection)
        /// Every connection is busy: the transaction waits in the queue under this identifier
        /// (for ``cancelWaiter(_:)``), its task parked in the ``ConnectionGrant`` it should
        /// prefer (`withTaskExecutorPreference`) until a connection is granted to it.
        case queued(UInt64, ConnectionGrant)
        /// The task is cancelled: no connection, no wait.
        case cancelled
    }

    /// Takes a free connection for a transaction whose body runs in the caller's task, or queues
    /// the transaction; holds no thread either way.
    ///
    /// A queued transaction's task waits parked in a ``ConnectionGrant``, holding no thread, until
    /// ``release(_:)`` grants it a connection; then it runs on that connection's queue. From the
    /// wait to the release nothing needs Swift's cooperative threads, which synchronous callers
    /// may all hold while they wait for a connection of this lane.
    func lease(label: String?, fileID: String, line: Int) -> AsyncLease {
        let activity = TransactionActivity(kind: kind, state: .waiting, label: label, fileID: fileID, line: line, since: .now)
        return state.withLock { state in
            // Under the lock: a cancellation handler that ran before found no waiter to remove,
            // and one that runs after finds this one in the queue.
            if Task.isCancelled { return .cancelled }
            // A connection is idle only while no one waits: ``release(_:)`` hands it to the first waiter.
            if let connection = state.idle.popLast() {
                state.startRunning(activity, on: connection)
                return .granted(connection)
            }
            let id = nextWaiterID.add(1, ordering: .relaxed).newValue
            let grant = ConnectionGrant()
            state.waiters.append(id, Waiter(activity: activity, grant: { grant.grant($0) }, fail: { grant.fail($0) }))
            return .queued(id, grant)
        }
    }

    /// Takes the waiter `id` out of the queue, if no connection was granted to it yet, and ends its
    /// wait with `CancellationError`.
    func cancelWaiter(_ id: UInt64) {
        if let waiter = state.withLock({ $0.waiters.remove(id) }) {
            waiter.fail(CancellationError())
        }
    }

    private enum Outcome {
        case granted(PooledConnection)
        case queued
        case cancelled
    }

    // MARK: Synchronous

    /// Runs `work` on a connection of the lane, on the caller's thread, once one is free; the
    /// caller's thread waits meanwhile.
    func runSynchronously<T>(label: String?, fileID: String, line: Int, _ work: (PooledConnection) throws -> T) throws -> T {
        let activity = TransactionActivity(kind: kind, state: .waiting, label: label, fileID: fileID, line: line, since: .now)
        let handoff = Handoff()
        let id = nextWaiterID.add(1, ordering: .relaxed).newValue
        let granted: PooledConnection? = state.withLock { state in
            if let connection = state.idle.popLast() {
                state.startRunning(activity, on: connection)
                return connection
            }
            state.waiters.append(
                id, Waiter(activity: activity, grant: { handoff.give($0) }, fail: { _ in }))
            return nil
        }
        let connection = granted ?? handoff.take()
        defer { release(connection) }
        return try perform(on: connection, work)
    }

    // MARK: Running and releasing

    private func perform<T>(on connection: PooledConnection, _ work: (PooledConnection) throws -> T) throws -> T {
        connection.ownerThread.store(currentThreadID(), ordering: .relaxed)
        defer { connection.ownerThread.store(0, ordering: .relaxed) }
        return try work(connection)
    }

    /// Hands `connection` to the first waiter, or makes it idle.
    func release(_ connection: PooledConnection) {
        let next: Waiter? = state.withLock { state in
            state.running[connection.index] = nil
            state.reported[connection.index] = false
            if let waiter = state.waiters.popFirst() {
                state.startRunning(waiter.activity, on: connection)
                return waiter
            }
            state.idle.append(connection)
            return nil
        }
        next?.grant(connection)
    }

    // MARK: Inspection

    /// Whether the current thread runs a transaction on a connection of this lane.
    var isRunningOnCurrentThread: Bool {
        let thread = currentThreadID()
        return connections.contains { $0.ownerThread.load(ordering: .relaxed) == thread }
    }

    /// The number of transactions waiting for a connection.
    var waiterCount: Int {
        state.withLock { $0.waiters.count }
    }

    /// The transactions running and waiting.
    var activities: [TransactionActivity] {
        state.withLock { state in state.running.compactMap { $0 } + state.waiters.activities }
    }

    /// The running transactions older than `threshold` not reported yet, now marked reported.
    func takeLongTransactions(olderThan threshold: Duration) -> [TransactionActivity] {
        let now = ContinuousClock.now
        return state.withLock { state in
            var found: [TransactionActivity] = []
            for index in state.running.indices {
                if let activity = state.running[index], !state.reported[index], now - activity.since >= threshold {
                    state.reported[index] = true
                    found.append(activity)
                }
            }
            return found
        }
    }
}

extension ConnectionLane.State {
    mutating func startRunning(_ activity: TransactionActivity, on connection: PooledConnection) {
        var running = activity
        running.state = .running
        running.since = .now
        self.running[connection.index] = running
        reported[connection.index] = false
    }
}

/// The waiters of a lane in arrival order, removable by identifier (for cancellation).
struct WaiterQueue {
    private var order: [UInt64] = []
    private var head = 0
    private var waiters: [UInt64: ConnectionLane.Waiter] = [:]

    var count: Int { waiters.count }

    var activities: [TransactionActivity] {
        order[head...].compactMap { waiters[$0]?.activity }
    }

    mutating func append(_ id: UInt64, _ waiter: ConnectionLane.Waiter) {
        order.append(id)
        waiters[id] = waiter
    }

    mutating func popFirst() -> ConnectionLane.Waiter? {
        while head < order.count {
            let id = order[head]
            head += 1
            if let waiter = waiters.removeValue(forKey: id) {
                compact()
                return waiter
            }
        }
        order.removeAll(keepingCapacity: true)
        head = 0
        return nil
    }

    mutating func remove(_ id: UInt64) -> ConnectionLane.Waiter? {
        guard let waiter = waiters.removeValue(forKey: id) else { return nil }
        compact()
        return waiter
    }

    /// Drops the identifiers of waiters gone, once they are most of the array.
    private mutating func compact() {
        let pending = order.count - head
        guard pending > 32, waiters.count * 2 < pending || head * 2 > order.count else { return }
        order = order[head...].filter { waiters[$0] != nil }
        head = 0
    }
}

/// Hands a connection from the thread that releases it to a synchronous waiter's thread.
private final class Handoff: @unchecked Sendable {
    // @unchecked because `connection` is only accessed while `condition` is locked.
    private let condition = NSCondition()
    private var connection: PooledConnection?

    func give(_ connection: PooledConnection) {
        condition.lock()
        self.connection = connection
        condition.signal()
        condition.unlock()
    }

    func take() -> PooledConnection {
        condition.lock()
        defer { condition.unlock() }
        while connection == nil {
            condition.wait()
        }
        return connection!
    }
}
