import Dispatch
import Synchronization
import Trove

/// Trove: the generated `Document.fullTextSearch` and a `SearchResultsView` of its hits in one
/// group sorted by key, registered at open; the row changes of each commit are counted by a
/// commit observer, on the committing thread.
final class TroveSearchViewStore: SearchViewStore {
    static let viewName = "document_results"

    let database: Trove.Database
    let writer: Trove.Connection
    let reader: Trove.Connection
    let results: SearchResultsView<Document>
    /// What the commit observer counted.
    private let counts = CommitCounts()
    private var observer: CommitObserver?

    /// - Parameter key: The key of the file (`nil`: plain; the encrypted pass, issue 34).
    init(directory: String, key: EncryptionKey? = nil) throws {
        results = SearchResultsView<Document>(
            Self.viewName, search: Document.fullTextSearch, grouping: { _, _ in "hits" }, sortedBy: [.ascending(\.id)])
        database = try Trove.Database(
            path: directory + "/documents.trove", configuration: .benchmark(key: key), models: [Document.self],
            extensions: [results.databaseExtension])
        writer = try database.newConnection()
        reader = try database.newConnection()
        let counts = self.counts
        observer = database.addCommitObserver { changeset in
            let rows = changeset.viewChanges[Self.viewName]?.rowChanges ?? []
            counts.state.withLock {
                $0.commits += 1
                $0.inserted = rows.count { $0.kind == .inserted }
                $0.removed = rows.count { $0.kind == .removed }
            }
        }
    }

    func insert(_ documents: ArraySlice<Document>) throws {
        try writer.write { tx in try tx.write(Array(documents)) }
    }

    func show(_ query: SearchQuery) throws -> Int {
        try writer.write { tx in try results.search(for: query, in: tx) }
        return try reader.read { tx in try results.read(tx).count() }
    }

    func commit(_ document: Document) throws -> (inserted: Int, removed: Int) {
        counts.state.withLock {
            $0.inserted = 0
            $0.removed = 0
        }
        try writer.write { tx in try tx.write(document) }
        return counts.state.withLock { ($0.inserted, $0.removed) }
    }

    /// A searcher task (`runSearches`) waits on a `SearchQueue`; the 20 queries are enqueued at
    /// once, as fast typing does, and the queue finished: the task returns once the view holds
    /// the newest query's results. Returns the commits made meanwhile: the queries run to their end.
    func searchAsYouType(_ queries: [SearchQuery]) throws -> Int {
        let queue = SearchQueue()
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let database = self.database
        let results = self.results
        let commitsBefore = counts.state.withLock { $0.commits }
        Task {
            defer { done.signal() }
            do { try await database.runSearches(results, from: queue) } catch { failure.withLock { $0 = error } }
        }
        for query in queries { queue.enqueue(query) }
        queue.finish()
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return counts.state.withLock { $0.commits } - commitsBefore
    }

    func keys() throws -> [String] {
        try reader.read { tx in try results.rows(in: "hits").keys(tx) }
    }
}

/// The commits the observer saw, and the rows that entered and left the view in the last one.
final class CommitCounts: Sendable {
    let state = Mutex((commits: 0, inserted: 0, removed: 0))
}
