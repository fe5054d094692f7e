import Synchronization

/// Delivers changesets to the subscribers of ``DatabaseChanges`` and to the running
/// observations (``DatabaseObservation``).
final class ChangeHub: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var continuations: [UInt64: AsyncStream<Changeset>.Continuation] = [:]
        /// The running observations. Each is told of every commit on the committing thread and
        /// only decides whether the commit touched its region: it never runs a query there.
        var observers: [UInt64: ObservationState] = [:]
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

    /// Hands `changeset` to every subscriber and observer. Called under the database's writer
    /// lock, so that everyone receives the changesets in commit order: it only enqueues them,
    /// or (for an observer) matches them against a read region and sets a flag.
    func publish(_ changeset: Changeset) {
        let (continuations, observers) = state.withLock { state in
            (
                state.continuations.isEmpty ? [] : Array(state.continuations.values),
                state.observers.isEmpty ? [] : Array(state.observers.values)
            )
        }
        for continuation in continuations {
            continuation.yield(changeset)
        }
        for observer in observers {
            observer.receive(changeset)
        }
    }

    /// Adds `observer` to the observers told of every commit.
    ///
    /// - Returns: The identifier that ``removeObserver(_:)`` takes.
    func addObserver(_ observer: ObservationState) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.observers[id] = observer
            return id
        }
    }

    /// Removes the observer that ``addObserver(_:)`` returned `id` for.
    func removeObserver(_ id: UInt64) {
        _ = state.withLock { $0.observers.removeValue(forKey: id) }
    }

    /// The number of running observations.
    var observerCount: Int {
        state.withLock { $0.observers.count }
    }

    deinit {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations {
            continuation.finish()
        }
    }
}
