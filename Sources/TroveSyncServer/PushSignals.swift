import Foundation
import Synchronization

/// Wakes the pulls waiting on a partition when a push to it commits on this server: a count of
/// the partition's pushes, and the pulls waiting for it to pass a value.
final class PushSignals: Sendable {
    private struct Waiter {
        let generation: UInt64
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var generations: [String: UInt64] = [:]
        var waiters: [String: [UUID: Waiter]] = [:]
    }

    private let state = Mutex(State())

    /// The count of pushes to `partition` that logged something: read it before looking for
    /// changes, and wait for it to pass.
    func generation(of partition: String) -> UInt64 {
        state.withLock { $0.generations[partition, default: 0] }
    }

    /// Notes a push to `partition` and wakes its waiting pulls.
    func signal(_ partition: String) {
        let woken = state.withLock { state -> [Waiter] in
            state.generations[partition, default: 0] += 1
            return Array((state.waiters.removeValue(forKey: partition) ?? [:]).values)
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    /// Returns when a push to `partition` came after `generation`, after `timeout`, or when the
    /// task is cancelled, whichever is first.
    func wait(for partition: String, after generation: UInt64, upTo timeout: Duration) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: timeout)
            }
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let resumeNow = self.state.withLock { state -> Bool in
                            if state.generations[partition, default: 0] > generation || Task.isCancelled { return true }
                            state.waiters[partition, default: [:]][id] = Waiter(generation: generation, continuation: continuation)
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    let waiter = self.state.withLock { $0.waiters[partition]?.removeValue(forKey: id) }
                    waiter?.continuation.resume()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
