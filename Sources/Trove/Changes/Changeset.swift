/// What one committed read-write transaction changed.
///
/// Every commit that changes something produces a changeset, delivered to every other
/// connection (which invalidates exactly these entries of its caches) and to the observers of
/// ``Database/changes``.
///
/// ```swift
/// for await changeset in database.changes {
///     if changeset.containsChange(in: User.collection) { reloadUsers() }
/// }
/// ```
public struct Changeset: Sendable, Hashable {
    /// The number of this commit among the commits made through the same ``Database``
    /// instance. Numbers increase by one with every commit that changes something; a commit
    /// that fails uses up its number. Commits of other processes are not numbered here.
    public var snapshot: UInt64
    /// Keys written (inserted, replaced, metadata replaced or touched), by collection.
    public var changedKeys: [String: Set<String>]
    /// Keys removed one by one, by collection.
    public var removedKeys: [String: Set<String>]
    /// Collections removed as a whole.
    public var removedCollections: Set<String>
    /// Whether every item of every collection was removed.
    public var removedAllCollections: Bool
    /// The extensions that were registered, rebuilt or removed (see ``DatabaseExtension``). A
    /// commit that changed only extensions has a changeset too.
    public var changedExtensions: Set<String>

    /// Creates a changeset.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot number after the commit.
    ///   - changedKeys: Keys written, by collection.
    ///   - removedKeys: Keys removed, by collection.
    ///   - removedCollections: Collections removed as a whole.
    ///   - removedAllCollections: Whether everything was removed.
    ///   - changedExtensions: The extensions registered, rebuilt or removed.
    public init(
        snapshot: UInt64,
        changedKeys: [String: Set<String>] = [:],
        removedKeys: [String: Set<String>] = [:],
        removedCollections: Set<String> = [],
        removedAllCollections: Bool = false,
        changedExtensions: Set<String> = []
    ) {
        self.snapshot = snapshot
        self.changedKeys = changedKeys
        self.removedKeys = removedKeys
        self.removedCollections = removedCollections
        self.removedAllCollections = removedAllCollections
        self.changedExtensions = changedExtensions
    }

    /// Whether the transaction changed nothing.
    public var isEmpty: Bool {
        changedKeys.isEmpty && removedKeys.isEmpty && removedCollections.isEmpty && !removedAllCollections
            && changedExtensions.isEmpty
    }

    /// Whether the item at `key` in `collection` was written or removed.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: `true` when the item may differ after this commit.
    public func containsChange(forKey key: String, in collection: String) -> Bool {
        removedAllCollections
            || removedCollections.contains(collection)
            || changedKeys[collection]?.contains(key) == true
            || removedKeys[collection]?.contains(key) == true
    }

    /// Whether any item of `collection` was written or removed.
    ///
    /// - Parameter collection: The collection.
    /// - Returns: `true` when some item of the collection may differ after this commit.
    public func containsChange(in collection: String) -> Bool {
        removedAllCollections
            || removedCollections.contains(collection)
            || changedKeys[collection] != nil
            || removedKeys[collection] != nil
    }
}
