import Synchronization

extension Database {
    /// Observes the value that `body` reads: an asynchronous sequence that yields it now, then
    /// again after each commit that changed something `body` read, and never after a commit that
    /// did not.
    ///
    /// ```swift
    /// for try await user in database.observe({ tx in try User.read(tx).byKey(id) }) {
    ///     show(user)
    /// }
    /// ```
    ///
    /// What `body` reads is recorded while it runs, at the level of Trove's own reads: a key of
    /// a collection (typed and untyped point reads, metadata reads, `contains`), a whole
    /// collection (`all`, `keys`, `count(in:)`, index queries), or everything (`collections()`,
    /// `count()`). The region is recorded again each time `body` runs, so a value that reads
    /// different keys after a change follows the keys it reads now.
    ///
    /// Each iteration of the sequence is an observation of its own: it opens a ``Connection``
    /// on its first call to `next()` and runs `body` in read transactions of that connection, on
    /// the connection's queue, never on the committing thread. While the consumer is busy,
    /// commits only mark the observation as stale: they coalesce, and the consumer's next call
    /// to `next()` gets the latest value. Ending the loop, or cancelling the task that iterates,
    /// ends the observation and releases its connection. An error thrown by `body` ends the
    /// sequence with that error.
    ///
    /// Commits of other processes (or of another `Database` on the same file) are noticed by
    /// checking the file every ``Configuration/externalChangePollingInterval`` while
    /// observations run: Trove cannot tell what they changed, so every observation runs `body`
    /// again.
    ///
    /// - Parameter body: Reads the value, in a read transaction. It must read through the
    ///   transaction only, and have no side effects: it runs once per relevant commit, or less.
    /// - Returns: The observation, to iterate.
    public func observe<Value: Sendable>(
        _ body: @escaping @Sendable (ReadTransaction) throws -> Value
    ) -> DatabaseObservation<Value> {
        DatabaseObservation(database: self, body: body, isDuplicate: nil)
    }

    /// The number of observations running now (for tests).
    var runningObservationCount: Int {
        changeHub.observerCount
    }
}

/// The values of a read, following the database: see ``Database/observe(_:)``.
///
/// The sequence is `Sendable`: it holds only the database and the closure. Each call to
/// ``makeAsyncIterator()`` starts an observation of its own, with a connection of its own; an
/// iterator belongs to the loop that made it.
///
/// ## Coalescing
///
/// The values are computed when the consumer asks for the next one, not when commits happen:
/// a commit that touched the observed region only marks the observation as stale, on the
/// committing thread, and wakes a consumer that is waiting. A consumer that is still busy with
/// the previous value gets one value for all the commits made meanwhile, read from the latest
/// snapshot. Memory therefore never grows with the number of commits, however slow the
/// consumer.
public struct DatabaseObservation<Value: Sendable>: AsyncSequence, Sendable {
    /// The element: the value that the closure returned.
    public typealias Element = Value
    /// The error: the closure's, or a ``TroveError`` when opening the connection or reading
    /// fails.
    public typealias Failure = any Error

    let database: Database
    let body: @Sendable (ReadTransaction) throws -> Value
    let isDuplicate: (@Sendable (Value, Value) -> Bool)?

    /// The same observation, skipping a value that `areDuplicates` says is equivalent to the
    /// value yielded before it.
    ///
    /// - Parameter areDuplicates: Whether two consecutive values are equivalent.
    /// - Returns: The observation without consecutive duplicates.
    public func removingDuplicates(by areDuplicates: @escaping @Sendable (Value, Value) -> Bool) -> Self {
        DatabaseObservation(database: database, body: body, isDuplicate: areDuplicates)
    }

    /// Starts an observation.
    ///
    /// - Returns: An iterator that yields the value now, then after each relevant commit.
    public func makeAsyncIterator() -> Iterator {
        Iterator(run: ObservationRun(observation: self))
    }

    /// The iterator of a ``DatabaseObservation``: one running observation.
    public struct Iterator: AsyncIteratorProtocol {
        let run: ObservationRun<Value>

        /// The current value on the first call; then the value after the next commit that
        /// changed what the closure read (the latest value, when several commits happened since
        /// the previous call).
        ///
        /// - Returns: The value, or `nil` when the iterating task is cancelled.
        /// - Throws: The closure's error, or a ``TroveError`` when reading fails; the
        ///   observation ends then.
        public mutating func next() async throws -> Value? {
            try await run.next(isolation: nil)
        }

        /// The same as ``next()``, resuming on `actor`: a loop in a `@MainActor` context gets
        /// its values on the main actor.
        ///
        /// - Parameter actor: The actor of the iterating context.
        /// - Returns: The value, or `nil` when the iterating task is cancelled.
        /// - Throws: The closure's error, or a ``TroveError`` when reading fails.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Value? {
            try await run.next(isolation: actor)
        }
    }
}

extension DatabaseObservation where Value: Equatable {
    /// The same observation, skipping a value equal to the value yielded before it.
    ///
    /// - Returns: The observation without consecutive equal values.
    public func removingDuplicates() -> Self {
        removingDuplicates(by: ==)
    }
}

// Explicit non-conformance to Sendable: an iterator belongs to the loop that made it.
@available(*, unavailable)
extension DatabaseObservation.Iterator: Sendable {}

/// One running observation, driven by its iterator: owns the connection and the registration in
/// the database's ``ChangeHub``, and releases both when it ends or is dropped.
final class ObservationRun<Value: Sendable> {
    private let database: Database
    private let body: @Sendable (ReadTransaction) throws -> Value
    private let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    private var connection: Connection?
    private var state: ObservationState?
    private var observerID: UInt64?
    private var lastValue: Value?
    private var started = false
    private var finished = false

    init(observation: DatabaseObservation<Value>) {
        self.database = observation.database
        self.body = observation.body
        self.isDuplicate = observation.isDuplicate
    }

    deinit {
        if let observerID {
            database.changeHub.removeObserver(observerID)
        }
    }

    /// The connection, while the observation runs (for tests).
    var currentConnection: Connection? { connection }

    /// See ``DatabaseObservation/Iterator/next(isolation:)``.
    func next(isolation actor: isolated (any Actor)?) async throws -> Value? {
        if finished { return nil }
        do {
            if !started {
                started = true
                if Task.isCancelled {
                    finish()
                    return nil
                }
                let connection = try database.newConnection()
                let state = ObservationState()
                self.connection = connection
                self.state = state
                // Registered before the first read: a commit made while it runs is matched
                // against the region it records (see ``ObservationState/computed(region:snapshot:)``).
                observerID = database.changeHub.addObserver(state, database: database)
                let value = try await compute(on: connection, state: state, isolation: actor)
                if isDuplicate != nil { lastValue = value }
                return value
            }
            guard let connection, let state else { return nil }
            while true {
                guard await state.waitUntilStale() else {
                    finish()
                    return nil
                }
                let value = try await compute(on: connection, state: state, isolation: actor)
                if let isDuplicate {
                    if let lastValue, isDuplicate(lastValue, value) { continue }
                    lastValue = value
                }
                return value
            }
        } catch {
            finish()
            if Task.isCancelled, let error = error as? TroveError, error.code == .cancelled {
                return nil
            }
            throw error
        }
    }

    /// Runs the closure on the connection's queue, and installs the region it read.
    private func compute(
        on connection: Connection, state: ObservationState, isolation actor: isolated (any Actor)?
    ) async throws -> Value {
        // Unindexed first, so that the commits made from now on all reach the observation; then
        // indexed by the collections of the region, once the region is installed (see
        // ``ChangeHub/publish(_:)``).
        if let observerID { database.changeHub.unindexObserver(observerID) }
        state.beginComputing()
        let (value, region, snapshot) = try await connection.observedRead(body)
        state.computed(region: region, snapshot: snapshot)
        if let observerID { database.changeHub.indexObserver(observerID, region: region) }
        return value
    }

    /// Ends the observation: unregisters it and releases its connection.
    private func finish() {
        finished = true
        if let observerID {
            database.changeHub.removeObserver(observerID)
        }
        observerID = nil
        connection = nil
        state = nil
        lastValue = nil
    }
}

/// What a running observation shares with the committing threads: its read region and whether
/// a commit touched it since its value was last computed.
///
/// ``receive(_:)`` runs on the committing thread, under the writer lock: it only matches the
/// changeset against the region and sets a flag, and wakes the consumer if it waits.
final class ObservationState: Sendable {
    private struct State {
        /// What the latest run of the closure read.
        var region = ReadRegion()
        /// Whether the closure is running: the changesets received meanwhile wait in `pending`
        /// for the region it records.
        var computing = true
        var pending: [Changeset] = []
        /// Whether a commit touched the region since the latest run began.
        var isStale = false
        var cancelled = false
        var waiter: CheckedContinuation<Bool, Never>?
    }

    /// The changesets kept while the closure runs; past it, the observation is marked stale
    /// without looking, so that memory stays bounded.
    static var pendingLimit: Int { 16 }

    private let state = Mutex(State())

    /// Matches a commit's changeset, which touched the collections `touched` (see
    /// ``Changeset/touchedCollections``), against the region; called on the committing thread.
    func receive(_ changeset: Changeset, touched: [String]) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            if state.isStale || state.cancelled { return nil }
            if state.computing {
                if changeset.reloadReason != nil {
                    // Another process's commit: the running read may or may not include it.
                    state.pending.removeAll()
                    state.isStale = true
                } else if state.pending.count < Self.pendingLimit {
                    state.pending.append(changeset)
                } else {
                    state.pending.removeAll()
                    state.isStale = true
                }
                return nil
            }
            guard state.region.intersects(changeset, touched: touched) else { return nil }
            state.isStale = true
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Marks the start of a run of the closure.
    func beginComputing() {
        state.withLock { state in
            state.isStale = false
            state.computing = true
        }
    }

    /// Installs the region that a run of the closure recorded in the snapshot that includes
    /// every commit up to `snapshot`, and matches against it the changesets received meanwhile
    /// that the snapshot may not include.
    func computed(region: ReadRegion, snapshot: UInt64) {
        state.withLock { state in
            state.region = region
            state.computing = false
            for changeset in state.pending where changeset.snapshot > snapshot && region.intersects(changeset) {
                state.isStale = true
                break
            }
            state.pending.removeAll()
        }
    }

    /// Waits until a commit touches the region.
    ///
    /// - Returns: `false` when the task is cancelled.
    func waitUntilStale() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = state.withLock { state in
                    if state.cancelled { return false }
                    if state.isStale { return true }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled = true
                let waiter = state.waiter
                state.waiter = nil
                return waiter
            }
            waiter?.resume(returning: false)
        }
    }
}
