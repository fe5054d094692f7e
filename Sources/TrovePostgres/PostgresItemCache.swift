import Synchronization
import Trove

/// The decoded items of one store, valid at one number of the change log.
///
/// The cache holds, for each cached item, its value as of change number ``State/number``. A
/// transaction whose snapshot has that same number may read and fill the cache; one whose
/// snapshot is newer first brings the cache up to its number by evicting what the log says
/// changed in between (``catchUp(from:to:evicting:clearing:)``); one whose snapshot is older
/// bypasses the cache. Notifications advance the cache the same way, one number at a time. An
/// empty cache has no number and takes the number of the next transaction that uses it.
///
/// Items are keyed as a Trove file's caches key them (`CacheKey`: by the bytes of the collection
/// and key, hashed once). The cache is shared by every transaction of the store, as a file's
/// `SharedItemCache` is by its connections, and evicts as it does: an arbitrary entry when full
/// (the first of the dictionary), cheap under the lock every transaction takes, and never wrong.
final class PostgresItemCache: Sendable {
    struct State {
        var number: Int64?
        var entries: [CacheKey: any Sendable] = [:]
    }

    /// What a transaction with a snapshot at some number may do with the cache.
    enum Access: Equatable {
        /// Read and fill it.
        case ready
        /// Bring it up from `from` first.
        case behind(from: Int64)
        /// Leave it alone: it is newer than the snapshot.
        case ahead
    }

    let limit: Int
    // A Mutex, not an actor: every use is a few dictionary operations, called from async
    // transaction code that must not suspend for them.
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// What a transaction whose snapshot is at `number` may do; an empty cache takes `number`.
    func access(at number: Int64) -> Access {
        guard limit > 0 else { return .ahead }
        return state.withLock { state in
            guard let current = state.number else {
                state.number = number
                return .ready
            }
            if current == number { return .ready }
            return current < number ? .behind(from: current) : .ahead
        }
    }

    /// Moves the cache from `from` to `to`, evicting what changed in between; does nothing when
    /// the cache is no longer at `from` (the caller asks ``access(at:)`` again).
    func catchUp(from: Int64, to: Int64, evicting keys: [CacheKey], clearing collections: Set<String>) {
        state.withLock { state in
            guard state.number == from else { return }
            Self.evict(keys, clearing: collections, in: &state)
            state.number = to
        }
    }

    /// Applies one commit of the log: the next number advances the cache; a later one (a gap)
    /// evicts its keys and leaves the number for a transaction to catch up from the log.
    func apply(_ change: CommittedChange) {
        state.withLock { state in
            guard let current = state.number else { return }
            if change.number == current + 1 {
                Self.evict(change.keys, clearing: change.clearedCollections, in: &state)
                state.number = change.number
            } else if change.number > current + 1 {
                Self.evict(change.keys, clearing: change.clearedCollections, in: &state)
            }
        }
    }

    /// Whether the change numbered `number` would change the cache (``apply(_:)``): the cache
    /// has a number, older than `number`. An empty cache, or one that a commit of this instance
    /// already brought to `number`, has nothing to evict for it.
    func isBehind(_ number: Int64) -> Bool {
        state.withLock { state in
            guard let current = state.number else { return false }
            return current < number
        }
    }

    /// Empties the cache.
    func flush() {
        state.withLock { state in
            state.entries.removeAll()
            state.number = nil
        }
    }

    /// The item at `address`, when the cache is at `number`.
    func value(at address: CacheKey, number: Int64) -> (any Sendable)? {
        state.withLock { state in
            state.number == number ? state.entries[address] : nil
        }
    }

    /// Caches `value` at `address` when the cache is at `number`.
    func insert(_ value: any Sendable, at address: CacheKey, number: Int64) {
        guard limit > 0 else { return }
        state.withLock { state in
            guard state.number == number else { return }
            if state.entries.count >= limit, state.entries[address] == nil, let first = state.entries.keys.first {
                state.entries.removeValue(forKey: first)
            }
            state.entries[address] = value
        }
    }

    private static func evict(_ keys: [CacheKey], clearing collections: Set<String>, in state: inout State) {
        for key in keys { state.entries.removeValue(forKey: key) }
        if !collections.isEmpty {
            state.entries = state.entries.filter { !collections.contains($0.key.collection) }
        }
    }
}

/// Hands every change, in commit order, to every loop over ``PostgresStore/changes`` (each with a
/// bounded buffer, Trove's `ChangesSubscription`) and to every running observation
/// (``PostgresStore/observe(_:)``, Trove's `ObservationState`, which matches it against what the
/// observation read).
final class PostgresChangeHub: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var subscriptions: [UInt64: ChangesSubscription<PostgresChange>] = [:]
        var observers: [UInt64: ObservationState] = [:]
        var finished = false
    }

    // A Mutex: subscribing, publishing and unsubscribing are a few dictionary operations.
    private let state = Mutex(State())

    /// Subscribes to every later change, buffering at most `limit` of them (when a change finds
    /// the buffer full, the buffered changes are dropped and one marked
    /// ``PostgresChange/missedChanges`` stands for them, as on a Trove file).
    ///
    /// - Returns: The subscription, finished already when the store is closed, and the
    ///   identifier that ``unsubscribe(_:)`` takes.
    func subscribe(limit: Int) -> (ChangesSubscription<PostgresChange>, UInt64) {
        let subscription = ChangesSubscription<PostgresChange>(limit: limit) { change in
            PostgresChange(number: change.number, items: [], clearedCollections: [], isFlush: false, missedChanges: true)
        }
        let id: UInt64? = state.withLock { state in
            if state.finished { return nil }
            defer { state.nextID += 1 }
            state.subscriptions[state.nextID] = subscription
            return state.nextID
        }
        guard let id else {
            subscription.finish()
            return (subscription, .max)
        }
        return (subscription, id)
    }

    /// Ends the subscription that ``subscribe(limit:)`` returned `id` for.
    func unsubscribe(_ id: UInt64) {
        let subscription = state.withLock { $0.subscriptions.removeValue(forKey: id) }
        subscription?.finish()
    }

    /// Adds a running observation, told of every later change.
    ///
    /// - Returns: The identifier that ``removeObserver(_:)`` takes.
    func addObserver(_ observer: ObservationState) -> UInt64 {
        let (id, finished) = state.withLock { state in
            defer { state.nextID += 1 }
            state.observers[state.nextID] = observer
            return (state.nextID, state.finished)
        }
        // A closed store: the observation runs again, and its read says that the store is closed.
        if finished { observer.receive(Self.closed, touched: []) }
        return id
    }

    /// Removes the observation that ``addObserver(_:)`` returned `id` for.
    func removeObserver(_ id: UInt64) {
        state.withLock { _ = $0.observers.removeValue(forKey: id) }
    }

    /// Hands `change` to every subscriber and every observation. Called by the listener alone,
    /// one change at a time, in the order of the change log.
    func publish(_ change: CommittedChange) {
        let (subscriptions, observers) = state.withLock { state in
            (
                state.subscriptions.isEmpty ? [] : Array(state.subscriptions.values),
                state.observers.isEmpty ? [] : Array(state.observers.values)
            )
        }
        // Observations first: once a loop over `changes` has a change, every observation has
        // matched it (tests rely on it to know that a commit has reached the observations).
        if !observers.isEmpty {
            let changeset = change.changeset
            let touched = changeset.touchedCollections
            for observer in observers { observer.receive(changeset, touched: touched) }
        }
        if !subscriptions.isEmpty {
            let change = change.publicChange
            for subscription in subscriptions { subscription.deliver(change) }
        }
    }

    /// Ends every loop over ``PostgresStore/changes``, and runs every observation again, so that
    /// its read throws the error of a closed store instead of waiting for ever.
    func finish() {
        let (subscriptions, observers) = state.withLock { state in
            state.finished = true
            defer { state.subscriptions.removeAll() }
            return (Array(state.subscriptions.values), Array(state.observers.values))
        }
        for subscription in subscriptions { subscription.finish() }
        for observer in observers { observer.receive(Self.closed, touched: []) }
    }

    /// What a closed store tells its observations: anything may have changed.
    private static let closed = Changeset(snapshot: 0, reloadReason: .missedChanges)

    /// Whether a loop over ``PostgresStore/changes`` or an observation would receive a change.
    var hasReceivers: Bool {
        state.withLock { !$0.subscriptions.isEmpty || !$0.observers.isEmpty }
    }

    /// The number of running observations (for tests).
    var observerCount: Int {
        state.withLock { $0.observers.count }
    }
}
