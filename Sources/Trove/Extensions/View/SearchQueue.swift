import Synchronization

/// The queries of a search-as-you-type box, for a ``SearchResultsView``: the UI enqueues each
/// query as the user types, from any thread, without waiting; a searcher runs the newest one into
/// the view. A query enqueued while a search runs supersedes it: the search under way is
/// abandoned (it stops at its next batch of rows, and its transaction rolls back), and the view
/// then shows the newest query's results. The queries in between are never run.
///
/// ```swift
/// let queue = SearchQueue()
/// let searcher = Task { try await database.runSearches(results, from: queue) }
///
/// // On each keystroke:
/// queue.enqueue(.prefixes(of: searchField.text))
///
/// // When the search screen closes:
/// queue.finish()
/// ```
///
/// Run it with ``Database/runSearches(_:from:)`` (a task that searches until the queue is
/// finished or the task cancelled), ``Database/search(_:from:)`` (one query, in one write
/// transaction), or ``SearchResultsView/search(from:in:)`` inside a write transaction of yours.
public final class SearchQueue: Sendable {
    private struct State {
        /// The newest query enqueued.
        var latest: SearchQuery?
        /// Whether ``latest`` waits to be run.
        var isPending = false
        /// One more at each ``enqueue(_:)``: a search runs the query of one number, and is
        /// superseded as soon as the number moves on.
        var generation: UInt64 = 0
        var isFinished = false
        /// The tasks waiting for a query, by a number of their own.
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// An empty queue.
    public init() {}

    /// Enqueues `query`, superseding the query that waits, and abandoning the search under way:
    /// returns at once.
    ///
    /// - Parameter query: The query; one without words (``SearchQuery/prefixes(of:)`` of empty
    ///   input) empties the view.
    public func enqueue(_ query: SearchQuery) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.latest = query
            state.isPending = true
            state.generation &+= 1
            let waiters = Array(state.waiters.values)
            state.waiters.removeAll()
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Ends the queue: ``Database/runSearches(_:from:)`` returns once the query that waits, if
    /// any, has run. Queries enqueued afterwards are still taken by ``Database/search(_:from:)``.
    public func finish() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isFinished = true
            let waiters = Array(state.waiters.values)
            state.waiters.removeAll()
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether ``finish()`` was called.
    public var isFinished: Bool {
        state.withLock { $0.isFinished }
    }

    /// Whether a query waits to be run.
    public var hasPendingQuery: Bool {
        state.withLock { $0.isPending }
    }

    /// The query that waits, with its number, which it no longer does; `nil` when none waits.
    func take() -> (SearchQuery, UInt64)? {
        state.withLock { state in
            guard state.isPending, let latest = state.latest else { return nil }
            state.isPending = false
            return (latest, state.generation)
        }
    }

    /// Whether a query was enqueued after the one numbered `ticket`.
    func isSuperseded(_ ticket: UInt64) -> Bool {
        state.withLock { $0.generation != ticket }
    }

    /// Waits until a query waits, or the queue is finished, or the task is cancelled; returns
    /// whether a query waits.
    func waitForQuery() async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.isPending || state.isFinished || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
        return state.withLock { $0.isPending }
    }
}

/// What running a query of a ``SearchQueue`` did (``Database/search(_:from:)``).
public enum SearchOutcome: Sendable, Hashable {
    /// The query ran to its end: the view holds its results, committed.
    case completed(SearchQuery)
    /// A newer query was enqueued while it ran: it stopped early and its transaction rolled
    /// back; the view keeps the results of the last query completed, and the newer query waits.
    case abandoned
    /// No query waited.
    case idle
}

extension Database {
    /// Runs the newest query of `queue` into `view`, in one write transaction: commits it when it
    /// completes, rolls it back when a newer query supersedes it meanwhile (see
    /// ``SearchResultsView/search(from:in:)``).
    ///
    /// ```swift
    /// queue.enqueue(.prefixes(of: "swi"))
    /// if case .completed = try database.search(results, from: queue) { reloadList() }
    /// ```
    ///
    /// - Parameters:
    ///   - view: A search results view registered on this database.
    ///   - queue: The queue.
    /// - Returns: Whether the query completed, was abandoned, or there was none.
    /// - Throws: What ``SearchResultsView/search(for:in:)`` throws, except that an abandoned
    ///   search returns ``SearchOutcome/abandoned``.
    @discardableResult
    public func search<Item: Persistable>(_ view: SearchResultsView<Item>, from queue: SearchQueue) throws
        -> SearchOutcome
    {
        do {
            let query = try write { tx in try view.search(from: queue, in: tx) }
            return query.map(SearchOutcome.completed) ?? .idle
        } catch let error as TroveError where error.code == .cancelled {
            return .abandoned
        }
    }

    /// Runs the queries of `queue` into `view` as they come, each newest query in a write
    /// transaction of its own, a superseded search abandoned (see ``search(_:from:)``), until
    /// the queue is finished (it returns then, once the query that waits has run) or the task
    /// is cancelled (it throws `CancellationError` then). A query that fails (an invalid raw
    /// query) ends it with its error.
    ///
    /// ```swift
    /// let searcher = Task { try await database.runSearches(results, from: queue) }
    /// queue.enqueue(.prefixes(of: text))   // on each keystroke
    /// ```
    ///
    /// - Parameters:
    ///   - view: A search results view registered on this database.
    ///   - queue: The queue.
    /// - Throws: `CancellationError` when the task is cancelled; what
    ///   ``SearchResultsView/search(for:in:)`` throws.
    public func runSearches<Item: Persistable>(_ view: SearchResultsView<Item>, from queue: SearchQueue)
        async throws
    {
        while true {
            let hasQuery = await queue.waitForQuery()
            try Task.checkCancellation()
            guard hasQuery else { return }
            do {
                _ = try await write { tx in try view.search(from: queue, in: tx) }
            } catch let error as TroveError where error.code == .cancelled {
                // Abandoned: the newer query waits in the queue.
                continue
            }
        }
    }
}
