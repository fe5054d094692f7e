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
    private let owner = Mutex<UInt?>(nil)

    /// Runs `body` while holding the lock.
    ///
    /// - Parameters:
    ///   - misuse: The message of the precondition failure when the current thread already holds
    ///     the lock.
    ///   - body: The work to do under the lock.
    /// - Returns: What `body` returns.
    func withLock<T>(misuse: @autoclosure () -> String, _ body: () throws -> T) rethrows -> T {
        let thread = currentThreadID()
        if owner.withLock({ $0 }) == thread {
            preconditionFailure(misuse())
        }
        lock.lock()
        owner.withLock { $0 = thread }
        defer {
            owner.withLock { $0 = nil }
            lock.unlock()
        }
        return try body()
    }

    /// Whether the current thread holds the lock.
    var isHeldByCurrentThread: Bool {
        owner.withLock { $0 } == currentThreadID()
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
