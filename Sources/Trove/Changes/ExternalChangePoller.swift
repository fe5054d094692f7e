import Foundation
import Synchronization

/// Notices the commits that something other than its ``Database`` made to the file (another
/// process, another `Database` instance), while something observes the database.
///
/// Every ``Configuration/externalChangePollingInterval`` it reads `PRAGMA data_version` on a
/// SQLite connection of its own, on a dispatch queue of its own (never a thread of Swift's
/// cooperative pool, which a busy program may hold for long). The value changes with every
/// commit of another connection, this database's connections included; to tell its own commits
/// from others' it uses what ``ConnectionCore`` maintains:
///
/// - ``Database/commitState`` says whether this instance committed since the previous check
///   (or was committing then).
/// - The writer token in the file is this instance's ``Database/writerToken`` only if this
///   instance made the latest commit; and a commit of another writer in between would show, in
///   the token the file holds now, or in ``Database/replacedWriterToken``, the token that this
///   instance's new token replaced.
///
/// When the file changed and this instance's commits do not explain it, the poller empties
/// every connection's caches (``Database/invalidateCaches()``) and publishes, under the writer
/// lock, a changeset marked ``Changeset/ReloadReason/externalChange``: loops over
/// ``Database/changes`` receive it, and every observation runs again.
///
/// A commit of this instance under way (an odd commit state) postpones the decision to the next
/// check, a few times at most. A write that is not Trove's (the `sqlite3` shell) followed by a
/// commit of this instance before the next check goes unnoticed, as for the caches (see
/// ``Database/invalidateCaches()``). A decision in doubt is "external": a changeset that makes
/// observers reload costs work, never correctness.
final class ExternalChangePoller: Sendable {
    private struct State {
        /// The connection that reads the data version; opened by the first check, closed by the
        /// check after ``stop()``.
        var sqlite: SQLiteConnection?
        /// What the previous check saw.
        var dataVersion: Int64 = 0
        var fileToken: UInt64 = 0
        var commitState: UInt64 = 0
        /// The checks postponed in a row because a commit was under way.
        var postponed = 0
    }

    /// Held weakly: the poller neither keeps the database open nor its hub alive.
    weak let database: Database?
    private let interval: Duration
    private let queue = DispatchQueue(label: "Trove.ExternalChangePoller")
    private let running = Atomic<Bool>(false)
    /// Used only by the checks, which run one at a time on ``queue``: the lock is never
    /// contended, and makes the state `Sendable`.
    private let state = Mutex(State())

    /// The checks postponed in a row, at most, before the poller decides anyway.
    private static var postponedLimit: Int { 5 }

    init(database: Database, interval: Duration) {
        self.database = database
        self.interval = interval
    }

    /// Starts checking: the first check opens the connection and reads the file's state now.
    func start() {
        running.store(true, ordering: .sequentiallyConsistent)
        // The first reading of the file is the baseline, taken now rather than on the queue
        // later: a commit of another process that lands after observation began is then reported,
        // never folded into the baseline. The first reading never publishes, so this is safe
        // under the change hub's lock, where the poller is started.
        queue.sync { [self] in
            guard let database else { return }
            state.withLock { state in _ = try? Self.checkFile(database, &state) }
        }
        queue.async { [self] in check() }
    }

    /// Stops checking; the check that follows, on the queue, closes the connection.
    func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        queue.async { [self] in check() }
    }

    private var intervalNanoseconds: Int {
        let (seconds, attoseconds) = interval.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return Int.max / 2 }
        return max(1_000_000, Int(clamping: nanoseconds.partialValue + attoseconds / 1_000_000_000))
    }

    /// Runs one check now, on the queue, without scheduling another (for tests, which set a
    /// long interval to decide when checks happen).
    func checkNow() {
        queue.sync { check(reschedule: false) }
    }

    /// Whether the poller's connection is open and read-only; `nil` while it is not open (for
    /// tests).
    var isConnectionReadOnly: Bool? {
        queue.sync {
            state.withLock { state in state.sqlite.map(\.isReadOnly) }
        }
    }

    /// One check, on ``queue``; schedules the next while running.
    private func check(reschedule: Bool = true) {
        guard let database, running.load(ordering: .sequentiallyConsistent) else {
            // Stopped, or the database is gone: close the connection here, on the queue that
            // used it. Further checks of this poller find it closed and do nothing.
            state.withLock { $0.sqlite = nil }
            return
        }
        database.changeHub.pollCount.add(1, ordering: .relaxed)
        let external = state.withLock { state in
            // A failing SQLite call counts as "no change": the next check tries again, and opens
            // the connection again if opening it failed.
            (try? Self.checkFile(database, &state)) ?? false
        }
        if external {
            database.invalidateCaches()
            database.writerLock.withLock(misuse: "The external change poller holds the writer lock.") {
                let snapshot = database.commitState.load(ordering: .sequentiallyConsistent) >> 1
                database.changeHub.publish(.reload(.externalChange, snapshot: snapshot))
            }
        }
        if reschedule {
            queue.asyncAfter(deadline: .now() + .nanoseconds(intervalNanoseconds)) { [self] in check() }
        }
    }

    /// Reads the file's data version and writer token, and tells whether something other than
    /// `database` committed since the previous check.
    ///
    /// - Returns: `true` when an external commit happened.
    private static func checkFile(_ database: Database, _ state: inout State) throws -> Bool {
        guard let sqlite = state.sqlite else {
            // Read-only when the database is: a read-write connection could be the last of the
            // file to close, and SQLite then checkpoints the log into the file and removes it.
            let sqlite = try SQLiteConnection(
                path: database.path, access: database.configuration.isReadOnly ? .readOnly : .readWrite,
                key: database.connectionKey, busyTimeoutMilliseconds: database.configuration.busyTimeoutMilliseconds)
            let commitState = database.commitState.load(ordering: .sequentiallyConsistent)
            state.dataVersion = try dataVersion(sqlite)
            state.fileToken = try fileToken(sqlite)
            state.commitState = commitState
            state.postponed = 0
            state.sqlite = sqlite
            return false
        }
        let before = database.commitState.load(ordering: .sequentiallyConsistent)
        let version = try dataVersion(sqlite)
        if version == state.dataVersion {
            state.commitState = before
            state.postponed = 0
            return false
        }
        let token = try fileToken(sqlite)
        let after = database.commitState.load(ordering: .sequentiallyConsistent)
        if after & 1 == 1 && state.postponed < postponedLimit {
            // A commit of this instance is under way: its token may not be published yet.
            state.postponed += 1
            return false
        }
        let ownToken = database.writerToken.load(ordering: .sequentiallyConsistent)
        let replaced = database.replacedWriterToken.load(ordering: .sequentiallyConsistent)
        // Whether a commit of this instance landed between the previous check's read of the data
        // version and this one's: the commit state moved since the previous check loaded it, or
        // a commit was under way then.
        let committed = after != state.commitState || state.commitState & 1 == 1
        let onlyThisInstance =
            committed && token != 0 && token == ownToken
            && (token == state.fileToken || replaced == state.fileToken)
        state.dataVersion = version
        state.fileToken = token
        state.commitState = before
        state.postponed = 0
        return !onlyThisInstance
    }

    private static func dataVersion(_ sqlite: SQLiteConnection) throws -> Int64 {
        let statement = try sqlite.cachedStatement("PRAGMA data_version")
        defer { statement.reset() }
        guard try statement.step() else {
            throw TroveError(
                code: .sqlite, message: "SQLite could not tell whether another process changed the database file '\(sqlite.path)'.", sql: "PRAGMA data_version",
                path: sqlite.path)
        }
        return statement.int64(at: 0)
    }

    private static func fileToken(_ sqlite: SQLiteConnection) throws -> UInt64 {
        let statement = try sqlite.cachedStatement(FileLayout.readWriterToken)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return UInt64(bitPattern: statement.int64(at: 0))
    }
}
