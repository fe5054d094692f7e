/// The iterator of a loop over an engine's changes (``DatabaseChanges`` on a Trove file, and
/// PostgreSQL's `PostgresChanges`): the next change of its subscription, which has a bounded
/// buffer (see each sequence's "A slow loop").
public struct ChangesIterator<Change: Sendable>: AsyncIteratorProtocol {
    var registration: ChangesRegistration<Change>?

    /// An iterator of the subscription `registration` holds; none yields nothing.
    package init(registration: ChangesRegistration<Change>?) {
        self.registration = registration
    }

    /// The next change, or `nil` when the iterating task is cancelled or the database or store
    /// closed.
    ///
    /// - Returns: The next commit's change, or one that stands for changes that cannot be listed.
    public mutating func next() async -> Change? {
        guard let registration else { return nil }
        if let change = await registration.subscription.next() {
            return change
        }
        // Cancelled or closed: the subscription ends now, not when the iterator goes away.
        self.registration = nil
        return nil
    }

    /// The number of changes waiting in this loop's buffer (for tests).
    package var bufferedCount: Int {
        registration?.subscription.bufferedCount ?? 0
    }
}

// Explicit non-conformance to Sendable: an iterator belongs to the loop that made it.
@available(*, unavailable)
extension ChangesIterator: Sendable {}

/// A loop's hold on its subscription to an engine's changes: ends it when the loop (and whatever
/// else holds it) goes away.
package final class ChangesRegistration<Change: Sendable>: Sendable {
    package let subscription: ChangesSubscription<Change>
    private let unsubscribe: @Sendable () -> Void

    /// Holds `subscription`; `unsubscribe` ends it.
    package init(subscription: ChangesSubscription<Change>, unsubscribe: @escaping @Sendable () -> Void) {
        self.subscription = subscription
        self.unsubscribe = unsubscribe
    }

    deinit {
        unsubscribe()
    }
}
