import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock of a connection, and the writer lock of a database: one holder at a time, taken
/// either by a thread that blocks while it waits (synchronous transactions) or by a task that
/// suspends, holding no thread (asynchronous transactions, whose bodies may suspend while they
/// hold it). Waiters of both kinds are served first come, first served.
///
/// A holder that asks for the lock again would wait for itself: a thread that holds it stops the
/// program with `misuse` (a programming error, as nested synchronous transactions always were), a
/// task that holds it, or a child task of one, gets ``TroveError/Code/misuse`` thrown.
final class TransactionLock: Sendable {
    fileprivate struct State: Sendable {
        var holder: Holder?
        var waiters: [UInt64: Waiter] = [:]
        /// The waiters' ids in arrival order, from `head` on (ids of removed waiters stay until passed).
        var order: [UInt64] = []
        var head = 0
        var nextWaiter: UInt64 = 0
    }

    fileprivate enum Holder: Equatable {
        case thread(UInt)
        case task
    }

    fileprivate enum Waiter: Sendable {
        case thread(ThreadParker)
        case task(CheckedContinuation<Void, any Error>)

        var holder: Holder {
            switch self {
            case .thread(let parker): .thread(parker.thread)
            case .task: .task
            }
        }
    }

    /// Guarded by an `NSLock` rather than a `Mutex`: ThreadSanitizer sees the ordering a pthread
    /// mutex gives (it cannot see a `Mutex` on Linux), which is what orders the accesses of one
    /// holder of the lock and the next to the state the lock protects.
    private let state = Protected(State())

    /// The locks that the current task holds, so that a nested asynchronous transaction of the
    /// same connection or database is refused instead of waiting for itself. Child tasks inherit
    /// it: a child that waits for its parent's lock would wait forever too.
    @TaskLocal private static var heldByTask: Set<ObjectIdentifier> = []

    /// Runs `body` holding the lock, blocking the current thread while it waits.
    ///
    /// - Parameters:
    ///   - misuse: The message with which the program stops when the current thread, or the task
    ///     it runs, holds the lock already.
    ///   - body: What to run holding the lock.
    func withLock<T>(misuse: @autoclosure () -> String, _ body: () throws -> T) rethrows -> T {
        let thread = currentThreadID()
        if Self.heldByTask.contains(ObjectIdentifier(self)) {
            preconditionFailure(misuse())
        }
        let outcome: (parker: ThreadParker?, nested: Bool) = state.withLock { state in
            if state.holder == .thread(thread) { return (nil, true) }
            if state.holder == nil {
                state.holder = .thread(thread)
                return (nil, false)
            }
            let parker = ThreadParker(thread: thread)
            state.enqueue(.thread(parker))
            return (parker, false)
        }
        if outcome.nested {
            preconditionFailure(misuse())
        }
        outcome.parker?.park()
        defer { release() }
        return try body()
    }

    /// Runs `body` holding the lock, suspending the current task while it waits.
    ///
    /// - Parameters:
    ///   - misuse: The message of the ``TroveError/Code/misuse`` error thrown when the current
    ///     task (or a task it is a child of) holds the lock already.
    ///   - body: What to run holding the lock; it may suspend.
    /// - Throws: The error of `body`; `CancellationError` when the task is cancelled while it
    ///   waits (the lock is then not taken); ``TroveError`` with code misuse when nested.
    func withLock<T>(misuse: @autoclosure () -> String, _ body: () async throws -> T) async throws -> T {
        let key = ObjectIdentifier(self)
        if Self.heldByTask.contains(key) {
            throw TroveError.misuse(misuse())
        }
        try await acquire()
        let result: T
        do {
            result = try await Self.$heldByTask.withValue(Self.heldByTask.union([key])) {
                try await body()
            }
        } catch {
            release()
            throw error
        }
        release()
        return result
    }

    /// Whether the current thread holds the lock synchronously.
    var isHeldByCurrentThread: Bool {
        let thread = currentThreadID()
        return state.withLock { $0.holder == .thread(thread) }
    }

    /// Whether the current task holds the lock, or a task it is a child of.
    var isHeldByCurrentTask: Bool {
        Self.heldByTask.contains(ObjectIdentifier(self))
    }

    private func acquire() async throws {
        let id: UInt64 = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted: Bool = state.withLock { state in
                    // Under the lock: a cancellation handler that ran before found no waiter to
                    // remove, and one that runs after finds this one queued.
                    if Task.isCancelled { return false }
                    if state.holder == nil {
                        state.holder = .task
                        return true
                    }
                    state.enqueue(.task(continuation), id: id)
                    return false
                }
                if granted {
                    continuation.resume()
                } else if Task.isCancelled, state.withLock({ $0.remove(id) }) == nil {
                    // Cancelled before it was queued: nothing else will resume it.
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            if case .task(let continuation)? = state.withLock({ $0.remove(id) }) {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Hands the lock to the first waiter, or frees it.
    private func release() {
        let next: Waiter? = state.withLock { state in
            let next = state.dequeue()
            state.holder = next?.holder
            return next
        }
        switch next {
        case .thread(let parker): parker.unpark()
        case .task(let continuation): continuation.resume()
        case nil: break
        }
    }
}

extension TransactionLock.State {
    fileprivate mutating func enqueue(_ waiter: TransactionLock.Waiter, id: UInt64? = nil) {
        let id = id ?? {
            nextWaiter += 1
            return nextWaiter
        }()
        waiters[id] = waiter
        order.append(id)
    }

    fileprivate mutating func dequeue() -> TransactionLock.Waiter? {
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

    fileprivate mutating func remove(_ id: UInt64) -> TransactionLock.Waiter? {
        guard let waiter = waiters.removeValue(forKey: id) else { return nil }
        compact()
        return waiter
    }

    /// Drops the passed and removed ids once they are most of `order`.
    private mutating func compact() {
        let pending = order.count - head
        guard pending > 32, waiters.count * 2 < pending || head * 2 > order.count else { return }
        order = order[head...].filter { waiters[$0] != nil }
        head = 0
    }
}

/// A thread waiting for a ``TransactionLock``: parked on a condition until the holder hands it
/// the lock.
private final class ThreadParker: @unchecked Sendable {
    // @unchecked because `isUnparked` is only accessed while `condition` is locked.
    let thread: UInt
    private let condition = NSCondition()
    private var isUnparked = false

    init(thread: UInt) {
        self.thread = thread
    }

    func park() {
        condition.lock()
        while !isUnparked {
            condition.wait()
        }
        condition.unlock()
    }

    func unpark() {
        condition.lock()
        isUnparked = true
        condition.signal()
        condition.unlock()
    }
}

/// The identifier of the current thread.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
