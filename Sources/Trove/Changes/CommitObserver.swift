import Synchronization

extension Database {
    /// Calls `observer` with the changeset of each later commit of this database, synchronously,
    /// in commit order: the way for synchronous code to follow commits, view row changes
    /// included, without an `async` loop over ``changes``.
    ///
    /// ```swift
    /// let observer = database.addCommitObserver { changeset in
    ///     if let changes = changeset.viewChanges["inbox"] {
    ///         DispatchQueue.main.async { table.apply(changes.rowChanges) }
    ///     }
    /// }
    /// // Later:
    /// observer.cancel()
    /// ```
    ///
    /// The observer receives every changeset that ``changes`` delivers, and at the same moment:
    /// once per commit that changed something, after the commit (the transaction's changes are in
    /// the file and visible to every transaction that begins), and before the next commit of this
    /// database begins. While at least one observer is registered, commits of other processes are
    /// noticed as ``changes`` notices them (every ``Configuration/externalChangePollingInterval``)
    /// and reach the observer as a changeset marked ``Changeset/ReloadReason/externalChange``.
    /// Unlike a loop over ``changes``, an observer never falls behind: it buffers nothing and
    /// never receives ``Changeset/ReloadReason/missedChanges``.
    ///
    /// ## Threading
    ///
    /// The observer runs on the thread that committed, while it still holds the database's
    /// writer: the caller's thread for a synchronous transaction, the connection's queue for an
    /// `async` one, and the queue of the poller for another process's commit. So:
    ///
    /// - It must not start a read-write transaction of this database, nor any transaction on the
    ///   connection that committed: those would wait for the commit it is part of, and Trove
    ///   throws ``TroveError/Code/misuse`` (the database's own `write`) or stops the
    ///   program (a connection's transactions) instead, as for a nested transaction. A read on
    ///   another connection works and sees the commit. Hand longer work to a task or a queue,
    ///   which then runs after the commit.
    /// - It delays the transaction that committed (which returns once every observer returned)
    ///   and every later commit of the database, but not its readers. Keep it short: record what
    ///   changed, or dispatch the work to the main queue or a task.
    /// - Several observers run one after the other, in the order they were added.
    ///
    /// The database holds the observer until it is cancelled: an observer that captures the
    /// database keeps it open until then.
    ///
    /// - Parameter observer: Called with the changeset of each commit.
    /// - Returns: The registration: the observer is called until ``CommitObserver/cancel()`` or
    ///   until the registration is released, whichever comes first. Keep it.
    public func addCommitObserver(_ observer: @escaping @Sendable (Changeset) -> Void) -> CommitObserver {
        let entry = CommitObserver.Entry(observer)
        let id = changeHub.addCommitObserver(entry, database: self)
        return CommitObserver(hub: changeHub, id: id, entry: entry)
    }
}

/// The registration of a commit observer (see ``Database/addCommitObserver(_:)``): the observer is
/// called until ``cancel()`` is called or the registration is released.
public final class CommitObserver: Sendable {
    /// The observer, as the database's change hub holds it.
    final class Entry: Sendable {
        let body: @Sendable (Changeset) -> Void
        /// Set by ``CommitObserver/cancel()``: a commit that publishes afterwards skips the entry,
        /// even one that took the list of entries before.
        let isCancelled = Atomic<Bool>(false)

        init(_ body: @escaping @Sendable (Changeset) -> Void) {
            self.body = body
        }

        func receive(_ changeset: Changeset) {
            if !isCancelled.load(ordering: .acquiring) {
                body(changeset)
            }
        }
    }

    /// Held weakly: a registration does not keep the database's hub alive.
    private weak let hub: ChangeHub?
    private let id: UInt64
    private let entry: Entry

    init(hub: ChangeHub, id: UInt64, entry: Entry) {
        self.hub = hub
        self.id = id
        self.entry = entry
    }

    /// Stops the observer. After `cancel()` returns, no commit that begins calls it; a call
    /// under way on another thread runs to its end. Calling it again does nothing, and the
    /// observer may call it itself.
    public func cancel() {
        guard !entry.isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        hub?.removeCommitObserver(id)
    }

    deinit {
        cancel()
    }
}
