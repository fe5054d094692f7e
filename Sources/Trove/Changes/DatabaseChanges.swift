/// The changesets of a database's commits, as an asynchronous sequence.
///
/// Each iteration subscribes when its iterator is made and receives every later commit that
/// changed something, in commit order, until the loop ends. The sequence never finishes on its
/// own while the database is open.
///
/// ```swift
/// for await changeset in database.changes {
///     guard changeset.isComplete else { reloadEverything(); continue }
///     print("snapshot \(changeset.snapshot) changed \(changeset.changedKeys)")
/// }
/// ```
///
/// ## Changes of other processes
///
/// While a loop runs, the database checks every
/// ``Configuration/externalChangePollingInterval`` whether something else committed to the
/// file (another process, another `Database` on the same file). When so, the loop receives a
/// changeset whose ``Changeset/reloadReason`` is ``Changeset/ReloadReason/externalChange``: it
/// does not say what changed.
///
/// ## A slow loop
///
/// Each loop has a buffer of at most ``Configuration/changesBufferLimit`` changesets. When a
/// commit finds it full, the buffered changesets are dropped, and the loop's next changeset is
/// one whose ``Changeset/reloadReason`` is ``Changeset/ReloadReason/missedChanges``; the
/// changesets of the commits after it follow normally. Memory therefore stays bounded however
/// slow the loop, and a loop that gets that marker knows to reload what it derived from the
/// database.
public struct DatabaseChanges: AsyncSequence, Sendable {
    /// The element: one commit's changes.
    public typealias Element = Changeset

    let hub: ChangeHub
    /// The database, held weakly: a loop does not keep it open, and ends when it closes.
    weak let database: Database?

    init(database: Database) {
        self.hub = database.changeHub
        self.database = database
    }

    /// The iterator, of the type every engine's changes share.
    public typealias Iterator = ChangesIterator<Changeset>

    /// Subscribes to the database's commits.
    ///
    /// - Returns: An iterator of every later commit's changeset.
    public func makeAsyncIterator() -> Iterator {
        guard let database else { return Iterator(registration: nil) }
        let (subscription, id) = hub.subscribe(limit: database.configuration.changesBufferLimit, database: database)
        return Iterator(
            registration: ChangesRegistration(subscription: subscription) { [weak hub] in hub?.unsubscribe(id) })
    }
}
