/// The changesets of a database's commits, as an asynchronous sequence.
///
/// Each iteration subscribes when its iterator is made and receives every later commit that
/// changed something, in commit order, until the loop ends. The sequence never finishes on its
/// own while the database is open.
///
/// ```swift
/// for await changeset in database.changes {
///     print("snapshot \(changeset.snapshot) changed \(changeset.changedKeys)")
/// }
/// ```
public struct DatabaseChanges: AsyncSequence, Sendable {
    /// The element: one commit's changes.
    public typealias Element = Changeset

    let hub: ChangeHub

    /// Subscribes to the database's commits.
    ///
    /// - Returns: An iterator of every later commit's changeset.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: hub.subscribe().makeAsyncIterator())
    }

    /// The iterator of ``DatabaseChanges``.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Changeset>.Iterator

        /// The next changeset, or `nil` when the iterating task is cancelled.
        ///
        /// - Returns: The changeset of the next commit.
        public mutating func next() async -> Changeset? {
            await base.next()
        }
    }
}

// Explicit non-conformance to Sendable: an iterator belongs to the loop that made it.
@available(*, unavailable)
extension DatabaseChanges.Iterator: Sendable {}
