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

    let registration: Registration

    init(hub: PostgresChangeHub, limit: Int) {
        let (subscription, id) = hub.subscribe(limit: limit)
        registration = Registration(hub: hub, id: id, subscription: subscription)
    }

    /// Returns the iterator of the subscription.
    ///
    /// - Returns: An iterator of every change after the subscription.
    public func makeAsyncIterator() -> Iterator {
        Iterator(registration: registration)
    }

    /// Ends a subscription when the sequence and its iterator go away.
    final class Registration: Sendable {
        weak let hub: PostgresChangeHub?
        let id: UInt64
        let subscription: ChangesSubscription<PostgresChange>

        init(hub: PostgresChangeHub, id: UInt64, subscription: ChangesSubscription<PostgresChange>) {
            self.hub = hub
            self.id = id
            self.subscription = subscription
        }

        deinit {
            hub?.unsubscribe(id)
        }
    }

    /// The iterator of ``PostgresChanges``.
    public struct Iterator: AsyncIteratorProtocol {
        var registration: Registration?

        /// The next change, or `nil` when the iterating task is cancelled or the store closed.
        ///
        /// - Returns: The next commit's change, a flush, or a change that stands for missed
        ///   changes (see ``PostgresChange/missedChanges``).
        public mutating func next() async -> PostgresChange? {
            guard let registration else { return nil }
            if let change = await registration.subscription.next() {
                return change
            }
            self.registration = nil
            return nil
        }

        /// The number of changes waiting in this loop's buffer (for tests).
        @_spi(Testing) public var bufferedCount: Int {
            registration?.subscription.bufferedCount ?? 0
        }
    }
}

// Explicit non-conformance to Sendable: an iterator belongs to the loop that made it.
@available(*, unavailable)
extension PostgresChanges.Iterator: Sendable {}
