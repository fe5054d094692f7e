import Synchronization

/// The collections in which a ``Database`` instance (or a PostgreSQL store) has decoded stored fields that the reading
/// coder did not know: fields written by a newer version of the model, which a typed write must
/// keep (see ``ReadWriteTransaction/write(_:)``).
///
/// A typed write asks ``contains(_:)`` for its collection. Until the first unknown field is ever
/// seen, that is one atomic load; afterwards a lock and a set lookup. Typed reads call
/// ``note(_:)`` only when their reader skipped a field.
///
/// `Sendable` through its `Atomic` and `Mutex`: every connection of the database notes and asks.
package final class UnknownFieldRegistry: Sendable {
    /// Whether ``collections`` holds anything: the fast path of ``contains(_:)``.
    private let hasCollections = Atomic<Bool>(false)
    private let collections = Mutex<Set<String>>([])

    /// An empty registry.
    package init() {}

    /// Records that an item or metadata of `collection` held fields its coder did not know.
    package func note(_ collection: String) {
        let inserted = collections.withLock { $0.insert(collection).inserted }
        if inserted {
            hasCollections.store(true, ordering: .releasing)
        }
    }

    /// Whether ``note(_:)`` was called for `collection`.
    package func contains(_ collection: String) -> Bool {
        guard hasCollections.load(ordering: .acquiring) else { return false }
        return collections.withLock { $0.contains(collection) }
    }
}
