import Foundation

/// A value guarded by an `NSLock`.
///
/// The pool uses it rather than `Synchronization.Mutex` on purpose: its lock also hands
/// connections from one transaction to the next, and ThreadSanitizer sees the ordering an
/// `NSLock` (a pthread mutex) gives, where it cannot see a `Mutex` on Linux, so that a real race
/// on a connection's state would still be reported.
final class Protected<Value: Sendable>: @unchecked Sendable {
    // @unchecked because `value` is only accessed while `lock` is held, and it is Sendable, so
    // what `withLock` returns may cross threads.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
