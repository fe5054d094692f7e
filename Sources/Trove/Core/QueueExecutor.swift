import Dispatch

/// The executor on which the body of an asynchronous transaction runs: the serial dispatch queue
/// of the connection that runs it.
///
/// A transaction's body does SQLite's work, which blocks its thread (I/O, waits for locks); on
/// Swift's cooperative pool (one thread per core) a few such bodies would hold every thread, and
/// readers meant to run in parallel would wait for each other. A task that prefers this executor
/// (`withTaskExecutorPreference`) runs its nonisolated code on the queue's thread instead; code
/// isolated to an actor still runs on the actor.
final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked because `queue` is a dispatch queue, safe to use from any thread, and immutable.
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
