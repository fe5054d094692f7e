import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock held for the whole of a transaction, that knows which thread holds it.
///
/// Taking it again on the thread that holds it would deadlock; instead it stops the program
/// with a message that names the misuse, as GRDB's scheduling watchdog does.
final class TransactionLock: Sendable {
    private let lock = NSLock()
    /// The thread that holds the lock, 0 when none. Relaxed ordering is enough: only a thread's
    /// own ID matters to it, and only that thread writes it, under the lock.
    private let owner = Atomic<UInt>(0)

    /// Runs `body` while holding the lock.
    ///
    /// - Parameters:
    ///   - misuse: The message of the precondition failure when the current thread already holds
    ///     the lock.
    ///   - body: The work to do under the lock.
    /// - Returns: What `body` returns.
    func withLock<T>(misuse: @autoclosure () -> String, _ body: () throws -> T) rethrows -> T {
        let thread = currentThreadID()
        if owner.load(ordering: .relaxed) == thread {
            preconditionFailure(misuse())
        }
        lock.lock()
        owner.store(thread, ordering: .relaxed)
        defer {
            owner.store(0, ordering: .relaxed)
            lock.unlock()
        }
        return try body()
    }

    /// Whether the current thread holds the lock.
    var isHeldByCurrentThread: Bool {
        owner.load(ordering: .relaxed) == currentThreadID()
    }
}

/// An identifier of the current thread, cheap to get and compare.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
