import Synchronization

/// Delivers changesets to the subscribers of ``DatabaseChanges`` and to the running
/// observations (``DatabaseObservation``), and runs the ``ExternalChangePoller`` while there is
/// at least one of them.
final class ChangeHub: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var subscriptions: [UInt64: ChangesSubscription] = [:]
        /// The running observations. Each is told of every commit on the committing thread and
        /// only decides whether the commit touched its region: it never runs a query there.
        var observers: [UInt64: ObservationState] = [:]
        /// The values of `observers`, kept apart so that a commit takes them without allocating.
        var observerList: [ObservationState] = []
        /// The poller, while there are subscriptions or observers and the configuration asks
        /// for one.
        var poller: ExternalChangePoller?

        var isObserved: Bool { !subscriptions.isEmpty || !observers.isEmpty }
    }

    private let state = Mutex(State())
    /// Counts the checks of every poller of this hub (for tests: it stops growing once the last
    /// observer is gone).
    let pollCount = Atomic<UInt64>(0)

    /// Subscribes to the changesets of every later commit, buffering at most `limit` of them.
    ///
    /// - Parameter database: The database, whose poller starts if this is its first observer.
    /// - Returns: The subscription and the identifier that ``unsubscribe(_:)`` takes.
    func subscribe(limit: Int, database: Database) -> (ChangesSubscription, UInt64) {
        let subscription = ChangesSubscription(limit: limit)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscriptions[id] = subscription
            startPollerIfNeeded(&state, database: database)
            return id
        }
        return (subscription, id)
    }

    /// Ends the subscription that ``subscribe(limit:database:)`` returned `id` for.
    func unsubscribe(_ id: UInt64) {
        let (subscription, poller) = state.withLock { state in
            (state.subscriptions.removeValue(forKey: id), stopPollerIfUnobserved(&state))
        }
        subscription?.finish()
        poller?.stop()
    }

    /// Hands `changeset` to every subscriber and observer. Called under the database's writer
    /// lock, so that everyone receives the changesets in commit order: it only buffers them, or
    /// (for an observer) matches them against a read region and sets a flag.
    func publish(_ changeset: Changeset) {
        let (subscriptions, observers) = state.withLock { state in
            (state.subscriptions.isEmpty ? [] : Array(state.subscriptions.values), state.observerList)
        }
        for subscription in subscriptions {
            subscription.deliver(changeset)
        }
        if !observers.isEmpty {
            let touched = changeset.touchedCollections
            for observer in observers {
                observer.receive(changeset, touched: touched)
            }
        }
    }

    /// Adds `observer` to the observers told of every commit.
    ///
    /// - Parameter database: The database, whose poller starts if this is its first observer.
    /// - Returns: The identifier that ``removeObserver(_:)`` takes.
    func addObserver(_ observer: ObservationState, database: Database) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.observers[id] = observer
            state.observerList = Array(state.observers.values)
            startPollerIfNeeded(&state, database: database)
            return id
        }
    }

    /// Removes the observer that ``addObserver(_:database:)`` returned `id` for.
    func removeObserver(_ id: UInt64) {
        let poller = state.withLock { state in
            if state.observers.removeValue(forKey: id) != nil {
                state.observerList = Array(state.observers.values)
            }
            return stopPollerIfUnobserved(&state)
        }
        poller?.stop()
    }

    /// The number of running observations.
    var observerCount: Int {
        state.withLock { $0.observers.count }
    }

    /// The number of loops over ``Database/changes`` running now.
    var subscriptionCount: Int {
        state.withLock { $0.subscriptions.count }
    }

    /// Whether a poller runs now (for tests).
    var isPolling: Bool {
        state.withLock { $0.poller != nil }
    }

    /// Makes the running poller, if any, check the file now (for tests).
    ///
    /// - Returns: Whether a poller ran.
    @discardableResult
    func pollNow() -> Bool {
        guard let poller = state.withLock({ $0.poller }) else { return false }
        poller.checkNow()
        return true
    }

    private func startPollerIfNeeded(_ state: inout State, database: Database) {
        guard state.poller == nil, let interval = database.configuration.externalChangePollingInterval else {
            return
        }
        let poller = ExternalChangePoller(database: database, interval: interval)
        state.poller = poller
        poller.start()
    }

    /// Takes the poller out when nothing observes the database any more; the caller stops it
    /// outside the lock.
    private func stopPollerIfUnobserved(_ state: inout State) -> ExternalChangePoller? {
        guard !state.isObserved else { return nil }
        let poller = state.poller
        state.poller = nil
        return poller
    }

    deinit {
        let (subscriptions, poller) = state.withLock { state in
            let taken = (Array(state.subscriptions.values), state.poller)
            state.subscriptions.removeAll()
            state.poller = nil
            return taken
        }
        for subscription in subscriptions {
            subscription.finish()
        }
        poller?.stop()
    }
}

/// The changesets waiting for one loop over ``Database/changes``: at most `limit` of them.
///
/// When a changeset arrives and `limit` are waiting, they are all dropped with it, and one
/// changeset marked ``Changeset/ReloadReason/missedChanges`` waits instead: the buffer never
/// holds more than `limit` changesets, however slow the loop.
final class ChangesSubscription: Sendable {
    private struct State {
        /// The waiting changesets are `buffer[head...]`.
        var buffer: [Changeset] = []
        var head = 0
        var waiter: CheckedContinuation<Changeset?, Never>?
        var finished = false

        var count: Int { buffer.count - head }

        mutating func removeFirst() -> Changeset? {
            guard head < buffer.count else { return nil }
            let first = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            return first
        }
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The number of changesets waiting (for tests).
    var bufferedCount: Int {
        state.withLock { $0.count }
    }

    /// Hands `changeset` to the waiting loop, or buffers it.
    func deliver(_ changeset: Changeset) {
        let waiter: CheckedContinuation<Changeset?, Never>? = state.withLock { state in
            if state.finished { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.count >= limit {
                state.buffer.removeAll()
                state.head = 0
                state.buffer.append(.reload(.missedChanges, snapshot: changeset.snapshot))
            } else {
                state.buffer.append(changeset)
            }
            return nil
        }
        waiter?.resume(returning: changeset)
    }

    /// The next changeset, waiting for it if none is buffered.
    ///
    /// - Returns: `nil` once the subscription is finished or the task is cancelled.
    func next() async -> Changeset? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Changeset?, Never>) in
                let now: Changeset?? = state.withLock { state in
                    if let first = state.removeFirst() { return .some(first) }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            finish()
        }
    }

    /// Ends the subscription: drops the buffer and wakes the waiting loop with `nil`.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            state.buffer.removeAll()
            state.head = 0
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: nil)
    }
}
