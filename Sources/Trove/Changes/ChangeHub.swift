import Synchronization

/// Delivers changesets to the subscribers of ``DatabaseChanges``.
final class ChangeHub: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var continuations: [UInt64: AsyncStream<Changeset>.Continuation] = [:]
    }

    private let state = Mutex(State())

    func subscribe() -> AsyncStream<Changeset> {
        let (stream, continuation) = AsyncStream<Changeset>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.continuations[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ changeset: Changeset) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations {
            continuation.yield(changeset)
        }
    }

    deinit {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations {
            continuation.finish()
        }
    }
}
