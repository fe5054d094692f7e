// Typed questions about a changeset, for a UI or a cache layer that follows the commits.

extension Changeset {
    /// Whether this commit wrote or removed any item of `type` (items of its
    /// ``Persistable/collection``).
    ///
    /// ```swift
    /// for await changeset in database.changes where changeset.contains(User.self) {
    ///     reloadUsers()
    /// }
    /// ```
    ///
    /// - Parameter type: The item type.
    /// - Returns: `true` when some item of the type may differ after this commit.
    public func contains<Item: Persistable>(_ type: Item.Type) -> Bool {
        containsChange(in: Item.collection)
    }

    /// Whether this commit wrote or removed the item of `type` at `key`.
    ///
    /// - Parameters:
    ///   - type: The item type.
    ///   - key: The key of the item.
    /// - Returns: `true` when the item may differ after this commit.
    public func contains<Item: Persistable>(_ type: Item.Type, key: Item.ID) -> Bool {
        containsChange(forKey: key.itemKey, in: Item.collection)
    }

    /// The keys of the items of `type` that this commit wrote (inserted, replaced, or whose
    /// metadata it replaced), skipping stored keys that `Item.ID` cannot read.
    ///
    /// Items removed with their whole collection are not listed: see ``removedCollections`` and
    /// ``removedAllCollections``.
    ///
    /// - Parameter type: The item type.
    /// - Returns: The keys, in no particular order.
    public func changedKeys<Item: Persistable>(of type: Item.Type) -> [Item.ID] {
        (changedKeys[Item.collection] ?? []).compactMap { Item.ID(itemKey: $0) }
    }

    /// The keys of the items of `type` that this commit removed one by one, skipping stored keys
    /// that `Item.ID` cannot read.
    ///
    /// - Parameter type: The item type.
    /// - Returns: The keys, in no particular order.
    public func removedKeys<Item: Persistable>(of type: Item.Type) -> [Item.ID] {
        (removedKeys[Item.collection] ?? []).compactMap { Item.ID(itemKey: $0) }
    }
}
