import Dispatch

/// The executor of an `async` transaction that waits for a connection of the pool: it holds the
/// transaction's task, without a thread, until the lane grants it a connection, then runs it on
/// that connection's queue, as ``QueueExecutor`` does.
///
/// The task enters this executor (`withTaskExecutorPreference`) right after it joined the lane's
/// queue of waiters, and suspends there: its job is parked here. ``grant(_:)``, called by the
/// transaction that gives the connection back, sends the job to the connection's queue; so the
/// task waits, runs its body and gives the connection back without a hop to another executor, and
/// none of it needs Swift's cooperative threads, which synchronous callers may all hold while
/// they wait for this very connection. ``fail(_:)`` (cancellation) runs it on a global queue,
/// where it finds no connection and throws.
final class ConnectionGrant: TaskExecutor, @unchecked Sendable {
    // @unchecked because `state` is only accessed under its lock.
    private enum State: @unchecked Sendable {
        // @unchecked because an UnownedJob is a reference to a job the runtime keeps alive until
        // it runs, which happens once, on one thread.
        case waiting(parked: UnownedJob?)
        case granted(PooledConnection)
        case failed(any Error)
    }

    private let state = Protected(State.waiting(parked: nil))

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queue: DispatchQueue? = state.withLock { state in
            switch state {
            case .waiting:
                state = .waiting(parked: job)
                return nil
            case .granted(let connection): return connection.queue
            case .failed: return DispatchQueue.global()
            }
        }
        if let queue { run(job, on: queue) }
    }

    /// Gives the task `connection`: its job runs on the connection's queue from now on.
    func grant(_ connection: PooledConnection) {
        settle(.granted(connection), on: connection.queue)
    }

    /// Ends the wait with `error`: the task finds no connection and throws it.
    func fail(_ error: any Error) {
        settle(.failed(error), on: DispatchQueue.global())
    }

    /// The connection granted, once the task runs here; or the error of the failed wait.
    func connection() throws -> PooledConnection {
        try state.withLock { state in
            switch state {
            case .granted(let connection): return connection
            case .failed(let error): throw error
            case .waiting: preconditionFailure("a transaction ran before its connection was granted")
            }
        }
    }

    private func settle(_ outcome: State, on queue: DispatchQueue) {
        let parked: UnownedJob? = state.withLock { state in
            guard case .waiting(let parked) = state else { return nil }
            state = outcome
            return parked
        }
        if let parked { run(parked, on: queue) }
    }

    private func run(_ job: UnownedJob, on queue: DispatchQueue) {
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
