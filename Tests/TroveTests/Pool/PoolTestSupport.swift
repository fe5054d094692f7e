import Foundation
import Testing
import Trove

/// A gate that bodies of transactions wait at until the test opens it, with a watchdog: a wait
/// that times out returns `false` and opens the gate for every later wait (so that a broken
/// promise fails the test instead of hanging it).
final class Gate: @unchecked Sendable {
    // @unchecked because `isOpen` is only accessed while `condition` is locked.
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the gate opens, at most `seconds`. Returns whether it opened.
    func wait(seconds: Double = watchdogSeconds) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) {
                if isOpen { return true }
                isOpen = true
                condition.broadcast()
                return false
            }
        }
        return true
    }
}

/// A barrier for `count` parties, with a watchdog: `arriveAndWait` returns `false` when the
/// others did not all arrive in time.
final class Barrier: @unchecked Sendable {
    // @unchecked because `arrived` is only accessed while `condition` is locked.
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0

    init(count: Int) {
        self.count = count
    }

    func arriveAndWait(seconds: Double = watchdogSeconds) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        while arrived < count {
            if !condition.wait(until: deadline) { return arrived >= count }
        }
        return true
    }
}

/// A value shared by the bodies of transactions and the test.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked because `value` is only accessed while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&value) }
    }

    var current: Value { lock.withLock { value } }
}

/// How long a watchdog waits before it declares a hang. Generous: on a loaded machine with
/// 2 cores the full suite starves threads; a passing test returns as soon as it can.
let watchdogSeconds: Double = 120

/// Polls `condition` until it holds, at most `seconds`; returns whether it held.
func eventually(seconds: Double = watchdogSeconds, _ condition: () -> Bool) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

/// The number of threads of this process, from /proc/self/status (Linux), or `nil`.
func currentThreadCount() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
    }
    return nil
}
