import Synchronization

/// Delivers changesets to the subscribers of ``DatabaseChanges``, to the running observations
/// (``DatabaseObservation``) and to the commit observers (``Database/addCommitObserver(_:)``), and
/// runs the ``ExternalChangePoller`` while there is at least one of them.
final class ChangeHub: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var subscriptions: [UInt64: ChangesSubscription<Changeset>] = [:]
        /// The commit observers, in the order they were added: each is called on the committing
        /// thread with every changeset.
        var commitObservers: [(id: UInt64, entry: CommitObserver.Entry)] = []
        /// The running observations. Each is told of every commit on the committing thread and
        /// only decides whether the commit touched its region: it never runs a query there.
        var observers: [UInt64: ObservationState] = [:]
        /// The values of `observers`, kept apart so that a commit takes them without allocating.
        var observerList: [ObservationState] = []
        /// The observers told of every commit: those whose closure runs now (they must see every
        /// commit meanwhile, see ``ObservationState``) and those that read everything.
        var unindexed: [UInt64: ObservationState] = [:]
        /// The other observers, by the collections their region reads (whole or by key): a
        /// commit is handed only to the observers of the collections it touched.
        var byCollection: [String: [UInt64: ObservationState]] = [:]
        /// The collections under which each observer is in `byCollection`.
        var indexedCollections: [UInt64: [String]] = [:]

        mutating func removeFromIndex(_ id: UInt64) {
            unindexed.removeValue(forKey: id)
            for collection in indexedCollections.removeValue(forKey: id) ?? [] {
                byCollection[collection]?.removeValue(forKey: id)
                if byCollection[collection]?.isEmpty == true {
                    byCollection.removeValue(forKey: collection)
                }
            }
        }
        /// The poller, while there are subscriptions or observers and the configuration asks
        /// for one.
        var poller: ExternalChangePoller?

        var isObserved: Bool { !subscriptions.isEmpty || !observers.isEmpty || !commitObservers.isEmpty }
    }

    private let state = Mutex(State())
    /// Counts the checks of every poller of this hub (for tests: it stops growing once the last
    /// observer is gone).
    let pollCount = Atomic<UInt64>(0)

    /// Subscribes to the changesets of every later commit, buffering at most `limit` of them.
    ///
    /// - Parameter database: The database, whose poller starts if this is its first observer.
    /// - Returns: The subscription and the identifier that ``unsubscribe(_:)`` takes.
    func subscribe(limit: Int, database: Database) -> (ChangesSubscription<Changeset>, UInt64) {
        let subscription = ChangesSubscription<Changeset>(limit: limit) { .reload(.missedChanges, snapshot: $0.snapshot) }
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

    /// Hands `changeset` to every subscriber, to the observers whose region may intersect it, and
    /// to the commit observers. Called under the database's writer lock, so that everyone receives
    /// the changesets in commit order: it only buffers them, or (for an observer) matches them
    /// against a read region and sets a flag; the commit observers run their code there, on the
    /// committing thread, before the next commit can begin.
    ///
    /// Observers are indexed by the collections they read, so that a commit costs nothing for
    /// the observations of other collections: a changeset that lists its keys goes to the
    /// observers of the collections it touched and to the unindexed ones; any other (another
    /// process's commit, everything removed, extensions changed) goes to every observer.
    func publish(_ changeset: Changeset) {
        let touched = changeset.touchedCollections
        let toEveryObserver =
            changeset.reloadReason != nil || changeset.removedAllCollections || !changeset.changedExtensions.isEmpty
        let (subscriptions, observers, commitObservers) = state.withLock {
            state -> ([ChangesSubscription<Changeset>], [ObservationState], [(id: UInt64, entry: CommitObserver.Entry)]) in
            let subscriptions = state.subscriptions.isEmpty ? [] : Array(state.subscriptions.values)
            let commitObservers = state.commitObservers
            if state.observers.isEmpty { return (subscriptions, [], commitObservers) }
            if toEveryObserver { return (subscriptions, state.observerList, commitObservers) }
            var observers: [ObservationState] = []
            if !state.unindexed.isEmpty {
                observers.append(contentsOf: state.unindexed.values)
            }
            if touched.count == 1 {
                if let indexed = state.byCollection[touched[0]] {
                    observers.append(contentsOf: indexed.values)
                }
            } else if touched.count > 1 {
                var seen = Set<UInt64>()
                for collection in touched {
                    for (id, observer) in state.byCollection[collection] ?? [:] where seen.insert(id).inserted {
                        observers.append(observer)
                    }
                }
            }
            return (subscriptions, observers, commitObservers)
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
        // Outside the hub's lock: an observer may add or cancel observers.
        for observer in commitObservers {
            observer.entry.receive(changeset)
        }
    }

    /// Adds `entry` to the commit observers.
    ///
    /// - Parameters:
    ///   - entry: The observer, called with every later changeset.
    ///   - database: The database, whose poller starts if this is its first observer.
    /// - Returns: The identifier that ``removeCommitObserver(_:)`` takes.
    func addCommitObserver(_ entry: CommitObserver.Entry, database: Database) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.commitObservers.append((id, entry))
            startPollerIfNeeded(&state, database: database)
            return id
        }
    }

    /// Removes the commit observer that ``addCommitObserver(_:database:)`` returned `id` for.
    func removeCommitObserver(_ id: UInt64) {
        let poller = state.withLock { state in
            state.commitObservers.removeAll { $0.id == id }
            return stopPollerIfUnobserved(&state)
        }
        poller?.stop()
    }

    /// The number of commit observers (for tests).
    var commitObserverCount: Int {
        state.withLock { $0.commitObservers.count }
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
            // Its closure is about to run: it sees every commit until its region is known.
            state.unindexed[id] = observer
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
            state.removeFromIndex(id)
            return stopPollerIfUnobserved(&state)
        }
        poller?.stop()
    }

    /// Makes the observer `id` receive every commit: its closure is about to run (see
    /// ``publish(_:)``). Called before ``ObservationState/beginComputing()``.
    func unindexObserver(_ id: UInt64) {
        state.withLock { state in
            guard let observer = state.observers[id] else { return }
            state.removeFromIndex(id)
            state.unindexed[id] = observer
        }
    }

    /// Makes the observer `id` receive only the commits that touch the collections of `region`,
    /// which its closure just recorded. Called after ``ObservationState/computed(region:snapshot:)``
    /// has installed the region.
    func indexObserver(_ id: UInt64, region: ReadRegion) {
        state.withLock { state in
            guard let observer = state.observers[id] else { return }
            state.removeFromIndex(id)
            if region.everything {
                state.unindexed[id] = observer
                return
            }
            // An index query's collection is in `collections`; a change of the index itself
            // reaches every observer (see ``publish(_:)``).
            var collections = Array(region.collections)
            collections.append(contentsOf: region.keys.keys.filter { !region.collections.contains($0) })
            for collection in collections {
                state.byCollection[collection, default: [:]][id] = observer
            }
            state.indexedCollections[id] = collections
        }
    }

    /// The number of observers told of every commit, and of collections indexed (for tests).
    var indexCounts: (unindexed: Int, collections: Int) {
        state.withLock { ($0.unindexed.count, $0.byCollection.count) }
    }

    /// The number of running observations whose consumer waits for a relevant commit (for
    /// tests; see ``ObservationState/isWaitingForACommit``).
    var waitingObserverCount: Int {
        state.withLock { $0.observerList }.count { $0.isWaitingForACommit }
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

    /// Whether the running poller's connection is open and read-only; `nil` when no poller runs
    /// or its connection is not open (for tests).
    var isPollerConnectionReadOnly: Bool? {
        state.withLock { $0.poller }?.isConnectionReadOnly
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

/// The changes waiting for one loop over ``Database/changes`` (or over a PostgreSQL store's
/// `changes`): at most `limit` of them.
///
/// When a change arrives and `limit` are waiting, they are all dropped with it, and one change
/// that stands for them waits instead (`missed` makes it from the arriving change: for a
/// changeset, one marked ``Changeset/ReloadReason/missedChanges``): the buffer never holds more
/// than `limit` changes, however slow the loop. It is generic and `package` so that every engine
/// bounds its loops by this one rule.
package final class ChangesSubscription<Change: Sendable>: Sendable {
    private struct State {
        /// The waiting changesets are `buffer[head...]`.
        var buffer: [Change] = []
        var head = 0
        var waiter: CheckedContinuation<Change?, Never>?
        var finished = false

        var count: Int { buffer.count - head }

        mutating func removeFirst() -> Change? {
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

    package let limit: Int
    /// The change that stands for the dropped ones, made from the change that found the buffer
    /// full.
    private let missed: @Sendable (Change) -> Change
    private let state = Mutex(State())

    /// A subscription that buffers at most `limit` changes (at least one).
    ///
    /// - Parameters:
    ///   - limit: The most changes waiting.
    ///   - missed: The change that stands for the dropped ones, made from the arriving change.
    package init(limit: Int, missed: @escaping @Sendable (Change) -> Change) {
        self.limit = max(1, limit)
        self.missed = missed
    }

    /// The number of changesets waiting (for tests).
    package var bufferedCount: Int {
        state.withLock { $0.count }
    }

    /// Hands `changeset` to the waiting loop, or buffers it.
    package func deliver(_ changeset: Change) {
        let waiter: CheckedContinuation<Change?, Never>? = state.withLock { state in
            if state.finished { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.count >= limit {
                state.buffer.removeAll()
                state.head = 0
                state.buffer.append(missed(changeset))
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
    package func next() async -> Change? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Change?, Never>) in
                let now: Change?? = state.withLock { state in
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
    package func finish() {
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
