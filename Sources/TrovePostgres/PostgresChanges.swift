import Trove

/// The changes committed to a ``PostgresStore`` by any instance on its schema, as an asynchronous
/// sequence: ``PostgresStore/changes``.
///
/// ```swift
/// for await change in store.changes {
///     guard change.isComplete else { reloadEverything(); continue }
///     if change.containsChange(forKey: id.itemKey, in: User.collection) { reloadUser() }
/// }
/// ```
///
/// The sequence is subscribed when ``PostgresStore/changes`` returns it, so that a change
/// committed between that call and the loop's first `next()` is not missed; iterate it once.
/// It ends when the store closes or the iterating task is cancelled.
///
/// ## A slow loop
///
/// The rule of a Trove file's `Database.changes`, written once (Trove's `ChangesSubscription`):
/// the loop has a buffer of at most ``PostgresStore/Configuration-swift.struct/changesBufferLimit``
/// changes. When a change finds it full, the buffered changes are dropped, and the loop's next
/// change is one marked ``PostgresChange/missedChanges``; the changes after it follow normally.
/// Memory therefore stays bounded however slow the loop. The one difference is where the changes
/// come from: a Trove file hands a loop its commits as they commit, and tells it only that
/// *another process* committed; a PostgreSQL store hands it every instance's commits with their
/// items, as `NOTIFY` brings them, so a loop also gets a flush (``PostgresChange/isFlush``) when
/// notifications may have been lost.
public struct PostgresChanges: AsyncSequence, Sendable {
    /// The element: one commit's changes, a flush, or missed changes.
    public typealias Element = PostgresChange
    /// A loop over the changes never throws.
    public typealias Failure = Never

    let registration: ChangesRegistration<PostgresChange>

    init(hub: PostgresChangeHub, limit: Int) {
        let (subscription, id) = hub.subscribe(limit: limit)
        registration = ChangesRegistration(subscription: subscription) { [weak hub] in hub?.unsubscribe(id) }
    }

    /// The iterator, of the type every engine's changes share.
    public typealias Iterator = ChangesIterator<PostgresChange>

    /// Returns the iterator of the subscription.
    ///
    /// - Returns: An iterator of every change after the subscription.
    public func makeAsyncIterator() -> Iterator {
        Iterator(registration: registration)
    }
}
