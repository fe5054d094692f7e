import Synchronization

extension Database {
    /// Observes the value that `body` reads: an asynchronous sequence that yields it now, then
    /// again after each commit that changed something `body` read, and never after a commit that
    /// did not.
    ///
    /// ```swift
    /// for try await user in database.observe({ tx in try tx.read(User.self, key: id) }) {
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
    /// Each iteration of the sequence is an observation of its own, registered on its first
    /// call to `next()`. It holds no connection: each run of `body` is a read transaction of the
    /// database's reader pool, as `database.read` is, on a reader's queue, never on the
    /// committing thread; it waits for a free reader in the same queue, without holding a
    /// thread. While the consumer is busy, commits only mark the observation as stale: they
    /// coalesce, and the consumer's next call to `next()` gets the latest value. Ending the
    /// loop, or cancelling the task that iterates, ends the observation and unregisters it. An
    /// error thrown by `body` ends the sequence with that error.
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
    package var runningObservationCount: Int {
        changeHub.observerCount
    }
}

/// The values of a read, following the database: see ``Database/observe(_:)``.
///
/// The sequence is `Sendable`: it holds only the database and the closure. Each call to
/// ``makeAsyncIterator()`` starts an observation of its own; an iterator belongs to the loop
/// that made it. An observation holds no connection between its runs: each run is a read
/// transaction of the database's reader pool, so that idle observations cost no SQLite handle
/// and no snapshot that commits must keep history for.
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
    /// The error: the closure's, or a ``TroveError`` when reading fails.
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

    /// The iterator: one running observation, of the type every engine's observation shares.
    public typealias Iterator = ObservationIterator<Value>

    /// Starts an observation.
    ///
    /// - Returns: An iterator that yields the value now, then after each relevant commit.
    public func makeAsyncIterator() -> Iterator {
        let database = database
        let body = body
        return ObservationIterator(
            run: ObservationRun(
                engine: database.observationEngine { try await database.observedRead(body) }, isDuplicate: isDuplicate))
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

/// One running observation, driven by its iterator, on any engine: owns the registration of its
/// ``ObservationState`` with the engine (``ObservationEngine``) and releases it when it ends or is
/// dropped.
///
/// It is the one run loop of both ``DatabaseObservation`` (a Trove file, synchronous closure) and
/// ``AsyncDatabaseObservation`` (any engine that can observe): the engine only registers the state
/// with what tells it of commits, and runs the closure recording its region.
final class ObservationRun<Value: Sendable> {
    private let engine: ObservationEngine<Value>
    private let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    private var state: ObservationState?
    private var observerID: UInt64?
    private var lastValue: Value?
    private var started = false
    private var finished = false

    init(engine: ObservationEngine<Value>, isDuplicate: (@Sendable (Value, Value) -> Bool)?) {
        self.engine = engine
        self.isDuplicate = isDuplicate
    }

    deinit {
        if let observerID {
            engine.removeObserver(observerID)
        }
    }

    /// Whether a commit touched the region since the latest run began (for tests).
    var isStale: Bool {
        state?.isStale ?? false
    }

    /// See ``ObservationIterator/next(isolation:)``.
    func next(isolation actor: isolated (any Actor)?) async throws -> Value? {
        if finished { return nil }
        do {
            if !started {
                started = true
                if Task.isCancelled {
                    finish()
                    return nil
                }
                let state = ObservationState()
                self.state = state
                // Registered before the first read: a commit made while it runs is matched
                // against the region it records (see ``ObservationState/computed(region:snapshot:)``).
                observerID = engine.addObserver(state)
                let value = try await compute(state: state, isolation: actor)
                if isDuplicate != nil { lastValue = value }
                return value
            }
            guard let state else { return nil }
            while true {
                guard await state.waitUntilStale() else {
                    finish()
                    return nil
                }
                let value = try await compute(state: state, isolation: actor)
                if let isDuplicate {
                    if let lastValue, isDuplicate(lastValue, value) { continue }
                    lastValue = value
                }
                return value
            }
        } catch {
            finish()
            if Task.isCancelled && error is CancellationError {
                return nil
            }
            throw error
        }
    }

    /// Runs the closure in a read transaction of the engine (on a Trove file, of the reader
    /// pool), and installs the region it read.
    ///
    /// The order is what makes it lose no commit: the observer is unindexed (it receives every
    /// commit) and marked computing before the transaction's snapshot is taken, whichever
    /// reader takes it and however long it waits for one; the commits received meanwhile are
    /// matched against the recorded region unless the snapshot is known to include them.
    private func compute(state: ObservationState, isolation actor: isolated (any Actor)?) async throws -> Value {
        // Unindexed first, so that the commits made from now on all reach the observation; then
        // indexed by the collections of the region, once the region is installed (see
        // ``ChangeHub/publish(_:)``).
        if let observerID { engine.unindexObserver(observerID) }
        state.beginComputing()
        let (value, region, snapshot) = try await engine.read()
        state.computed(region: region, snapshot: snapshot)
        if let observerID { engine.indexObserver(observerID, region) }
        return value
    }

    /// Ends the observation: unregisters it.
    private func finish() {
        finished = true
        if let observerID {
            engine.removeObserver(observerID)
        }
        observerID = nil
        state = nil
        lastValue = nil
    }
}

extension Database {
    /// Runs `body` in a read transaction of the reader pool, recording what it reads: one run of
    /// an observation's closure. Waits for a reader in the pool's queue without holding a thread.
    ///
    /// - Returns: The value, the region `body` read, and the number of the latest commit of
    ///   this process that the transaction's snapshot is known to include (every commit up to
    ///   it is in the snapshot; a later one may or may not be).
    /// - Throws: The error of `body`, ``TroveError`` when SQLite fails, or `CancellationError`
    ///   when the task was cancelled while it waited for a reader.
    func observedRead<T: Sendable>(
        _ body: @escaping @Sendable (ReadTransaction) throws -> T
    ) async throws -> (T, ReadRegion, UInt64) {
        pool.startMonitoringIfNeeded()
        return try await pool.readers.run(label: "observation", fileID: #fileID, line: #line) { connection in
            try connection.core(self).runRead { transaction in
                let recorder = ReadRecorder()
                transaction.recorder = recorder
                let value = try body(transaction)
                return (value, recorder.region, transaction.core.snapshot ?? 0)
            }
        }
    }
}

/// What a running observation shares with the committing threads: its read region and whether
/// a commit touched it since its value was last computed.
///
/// ``receive(_:)`` runs on the committing thread, under the writer lock: it only matches the
/// changeset against the region and sets a flag, and wakes the consumer if it waits.
///
/// It is `package`, so that every engine matches its commits the same way: a PostgreSQL store
/// hands it each change of its change log as a ``Changeset``, in commit order.
package final class ObservationState: Sendable {
    private struct State {
        /// What the latest run of the closure read.
        var region = ReadRegion()
        /// The number of the latest commit that the latest run's snapshot is known to include: a
        /// changeset numbered at most this, arriving late (an engine whose notifications lag
        /// behind its commits), changed nothing the run did not see.
        var snapshot: UInt64 = 0
        /// Whether the closure is running: the changesets received meanwhile wait in `pending`
        /// for the region it records.
        var computing = true
        var pending: [Changeset] = []
        /// The newest commit dropped from `pending` when it was full, 0 when none: the run is
        /// stale unless its snapshot includes it (and with it every older dropped commit).
        var droppedThrough: UInt64 = 0
        /// Whether a commit touched the region since the latest run began.
        var isStale = false
        var cancelled = false
        var waiter: CheckedContinuation<Bool, Never>?
    }

    /// The changesets kept while the closure runs (or waits for a reader); past it, they are
    /// dropped and only the newest number is kept, so that memory stays bounded: the run is then
    /// stale unless its snapshot includes them all.
    static var pendingLimit: Int { 16 }

    private let state = Mutex(State())

    /// A state whose closure is about to run for the first time.
    package init() {}

    /// Matches a commit's changeset, which touched the collections `touched` (see
    /// ``Changeset/touchedCollections``), against the region; called on the committing thread.
    package func receive(_ changeset: Changeset, touched: [String]) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            if state.isStale || state.cancelled { return nil }
            if state.computing {
                if changeset.reloadReason != nil {
                    // Another process's commit: the running read may or may not include it.
                    state.pending.removeAll()
                    state.isStale = true
                } else {
                    if state.pending.count >= Self.pendingLimit {
                        // Published in commit order: the last is the newest.
                        state.droppedThrough = max(state.droppedThrough, state.pending.last?.snapshot ?? 0)
                        state.pending.removeAll(keepingCapacity: true)
                    }
                    state.pending.append(changeset)
                }
                return nil
            }
            if changeset.reloadReason == nil && changeset.snapshot <= state.snapshot { return nil }
            guard state.region.intersects(changeset, touched: touched) else { return nil }
            state.isStale = true
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Marks the start of a run of the closure.
    package func beginComputing() {
        state.withLock { state in
            state.isStale = false
            state.computing = true
            state.pending.removeAll()
            state.droppedThrough = 0
        }
    }

    /// Installs the region that a run of the closure recorded in the snapshot that includes
    /// every commit up to `snapshot`, and matches against it the changesets received meanwhile
    /// that the snapshot may not include.
    package func computed(region: ReadRegion, snapshot: UInt64) {
        state.withLock { state in
            state.region = region
            state.snapshot = snapshot
            state.computing = false
            if state.droppedThrough > snapshot && !region.isEmpty {
                state.isStale = true
            }
            for changeset in state.pending where changeset.snapshot > snapshot && region.intersects(changeset) {
                state.isStale = true
                break
            }
            state.pending.removeAll()
            state.droppedThrough = 0
        }
    }

    /// Whether the consumer waits for a commit that touches the region and none has yet: it
    /// gets no value until the next such commit (for tests).
    var isWaitingForACommit: Bool {
        state.withLock { $0.waiter != nil && !$0.isStale && !$0.computing }
    }

    /// Whether a commit touched the region since the latest run began (for tests).
    package var isStale: Bool {
        state.withLock { $0.isStale }
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

extension Database {
    /// The engine of one running observation of this database: its ``ChangeHub`` tells the
    /// observation of every commit, and `read` runs the closure recording its region.
    ///
    /// - Parameter read: One run of the observation's closure (see ``observedRead(_:)``).
    /// - Returns: The engine, for one ``ObservationRun``.
    func observationEngine<Value: Sendable>(
        read: @escaping @Sendable () async throws -> (Value, ReadRegion, UInt64)
    ) -> ObservationEngine<Value> {
        let hub = changeHub
        return ObservationEngine(
            addObserver: { [self] state in hub.addObserver(state, database: self) },
            removeObserver: { id in hub.removeObserver(id) },
            unindexObserver: { id in hub.unindexObserver(id) },
            indexObserver: { id, region in hub.indexObserver(id, region: region) },
            read: read)
    }

    /// Runs `body` in a read transaction of the reader pool (the `async` `read(from:_:)`),
    /// recording what it reads: one run of an observation written for any
    /// engine (``AsyncDatabaseObserving/observe(_:)``).
    ///
    /// - Returns: The value, the region `body` read, and the number of the latest commit of
    ///   this process that the transaction's snapshot is known to include.
    /// - Throws: The error of `body`, ``TroveError`` when SQLite fails, or `CancellationError`
    ///   when the task was cancelled while it waited for a reader.
    func observedRead<T: Sendable>(
        _ body: @escaping @Sendable (ReadTransaction) async throws -> T
    ) async throws -> (T, ReadRegion, UInt64) {
        try await read(from: TransactionOrigin(label: "observation")) { transaction in
            let recorder = ReadRecorder()
            transaction.recorder = recorder
            let value = try await body(transaction)
            return (value, recorder.region, transaction.core.snapshot ?? 0)
        }
    }
}

/// A Trove file observes with its ``ChangeHub``, told of every commit under the writer lock, and
/// of other processes' commits by its ``ExternalChangePoller``.
extension Database: AsyncDatabaseObserving {
    /// The engine of an observation whose closure is written for any engine.
    ///
    /// - Parameter body: The closure of the observation.
    /// - Returns: The engine of one running observation.
    @_spi(TroveEngine)
    public func makeObservationEngine<Value: Sendable>(
        _ body: @escaping @Sendable (ReadTransaction) async throws -> Value
    ) -> ObservationEngine<Value> {
        observationEngine { [self] in try await observedRead(body) }
    }
}
