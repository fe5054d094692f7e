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
    /// metadata it replaced: ``insertedKeys(of:)`` and ``updatedKeys(of:)`` together), skipping
    /// stored keys that `Item.ID` cannot read.
    ///
    /// Items removed with their whole collection are not listed: see ``removedCollections`` and
    /// ``removedAllCollections``.
    ///
    /// - Parameter type: The item type.
    /// - Returns: The keys, in no particular order.
    public func changedKeys<Item: Persistable>(of type: Item.Type) -> [Item.ID] {
        let inserted = insertedKeys[Item.collection] ?? []
        let updated = updatedKeys[Item.collection] ?? []
        return (inserted.isEmpty ? updated : updated.isEmpty ? inserted : inserted.union(updated))
            .compactMap { Item.ID(itemKey: $0) }
    }

    /// The keys of the items of `type` that this commit removed one by one, skipping stored keys
    /// that `Item.ID` cannot read.
    ///
    /// - Parameter type: The item type.
    /// - Returns: The keys, in no particular order.
    public func removedKeys<Item: Persistable>(of type: Item.Type) -> [Item.ID] {
        (removedKeys[Item.collection] ?? []).compactMap { Item.ID(itemKey: $0) }
    }

    /// The keys of the items of `type` that did not exist before this commit and exist after it,
    /// skipping stored keys that `Item.ID` cannot read. See ``Changeset`` for how a key written
    /// several times in one transaction is classified.
    ///
    /// ```swift
    /// for await changeset in database.changes {
    ///     list.insert(changeset.insertedKeys(of: User.self))
    ///     list.reload(changeset.updatedKeys(of: User.self))
    ///     list.remove(changeset.removedKeys(of: User.self))
    /// }
    /// ```
    ///
    /// - Parameter type: The item type.
    /// - Returns: The keys, in no particular order.
    public func insertedKeys<Item: Persistable>(of type: Item.Type) -> [Item.ID] {
        (insertedKeys[Item.collection] ?? []).compactMap { Item.ID(itemKey: $0) }
    }

    /// The keys of the items of `type` that existed before this commit and that it wrote
    /// (replaced, replaced their data or metadata, or touched), skipping stored keys that
    /// `Item.ID` cannot read.
    ///
    /// - Parameter type: The item type.
    /// - Returns: The keys, in no particular order.
    public func updatedKeys<Item: Persistable>(of type: Item.Type) -> [Item.ID] {
        (updatedKeys[Item.collection] ?? []).compactMap { Item.ID(itemKey: $0) }
    }
}
