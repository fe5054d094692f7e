// The one-call conveniences of every place, for any engine: each runs one method of the
// transaction in a transaction of its own. Written once, here; `DatabaseReader+Items.swift` has
// their synchronous twins for SQLite's places.

extension AsyncDatabaseReader {
    /// The item of type `Item` at `key`, with its metadata, or `nil` when there is none.
    ///
    /// ```swift
    /// let user = try await db.read(User.self, key: id)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The item, or `nil`.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` naming the collection, key and
    ///   field when the stored bytes do not decode, or when the engine fails.
    @inlinable
    public func read<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Item? {
        try await read { tx in try await tx.read(type, key: key) }
    }

    /// The items of type `Item` at `keys`, in the order of `keys`; keys with no item are skipped.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The items found.
    /// - Throws: ``TroveError`` when stored bytes do not decode or the engine fails.
    @inlinable
    public func read<Item: Persistable, Keys: Sequence<Item.ID> & Sendable>(_ type: Item.Type, keys: Keys) async throws -> [Item] {
        try await read { tx in try await tx.read(type, keys: keys) }
    }

    /// Every item of type `Item`, in the order of their stored keys (as text).
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The items.
    /// - Throws: ``TroveError`` when stored bytes do not decode or the engine fails.
    @inlinable
    public func readAll<Item: Persistable>(_ type: Item.Type) async throws -> [Item] {
        try await read { tx in try await tx.readAll(type) }
    }

    /// The metadata of the item of type `Item` at `key`, without decoding the item.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no item or it has no metadata.
    /// - Throws: ``TroveError`` when the stored metadata does not decode or the engine fails.
    @inlinable
    public func metadata<Item: Persistable>(for type: Item.Type, key: Item.ID) async throws -> Item.Metadata? {
        try await read { tx in try await tx.metadata(for: type, key: key) }
    }

    /// Whether an item of type `Item` is stored at `key`, without decoding it.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when there is an item.
    /// - Throws: ``TroveError`` when the engine fails.
    @inlinable
    public func contains<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Bool {
        try await read { tx in try await tx.contains(type, key: key) }
    }

    /// The keys of every item of type `Item`, in the order of their stored text.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The keys.
    /// - Throws: ``TroveError`` when a stored key is not a valid `Item.ID` or the engine fails.
    @inlinable
    public func keys<Item: Persistable>(of type: Item.Type) async throws -> [Item.ID] {
        try await read { tx in try await tx.keys(of: type) }
    }

    /// The number of items of type `Item`.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items.
    /// - Throws: ``TroveError`` when the engine fails.
    @inlinable
    public func count<Item: Persistable>(of type: Item.Type) async throws -> Int {
        try await read { tx in try await tx.count(of: type) }
    }
}

extension AsyncDatabaseWriter {
    /// Stores `item` with its metadata, in its own read-write transaction.
    ///
    /// ```swift
    /// try await db.write(user)
    /// ```
    ///
    /// - Parameter item: The item to store.
    /// - Throws: ``TroveError`` when the item cannot be encoded, an extension refuses it, or the
    ///   engine fails.
    @inlinable
    public func write<Item: Persistable>(_ item: Item) async throws {
        try await write { tx in try await tx.write(item) }
    }

    /// Stores every item of `items` in one read-write transaction: all or none.
    ///
    /// - Parameter items: The items to store.
    /// - Throws: What ``AsyncDatabaseWriter/write(_:)-(Item)`` throws; nothing is then stored.
    @inlinable
    public func write<Items: Sequence & Sendable>(_ items: Items) async throws where Items.Element: Persistable {
        try await write { tx in try await tx.write(items) }
    }

    /// Replaces the metadata of the item of type `Item` at `key`, keeping the item, in its own
    /// read-write transaction.
    ///
    /// - Parameters:
    ///   - metadata: The new metadata; `nil` removes it.
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when there was such an item.
    /// - Throws: ``TroveError`` when the metadata cannot be encoded or the engine fails.
    @inlinable
    @discardableResult
    public func setMetadata<Item: Persistable>(_ metadata: Item.Metadata?, for type: Item.Type, key: Item.ID) async throws -> Bool {
        try await write { tx in try await tx.setMetadata(metadata, for: type, key: key) }
    }

    /// Removes `item` (the item at its key) in its own read-write transaction.
    ///
    /// - Parameter item: The item to remove.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when the engine fails.
    @inlinable
    @discardableResult
    public func remove<Item: Persistable>(_ item: Item) async throws -> Bool {
        try await write { tx in try await tx.remove(item) }
    }

    /// Removes the item of type `Item` at `key` in its own read-write transaction.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when the engine fails.
    @inlinable
    @discardableResult
    public func remove<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Bool {
        try await write { tx in try await tx.remove(type, key: key) }
    }

    /// Removes the items of type `Item` at `keys` in one read-write transaction.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when the engine fails.
    @inlinable
    @discardableResult
    public func remove<Item: Persistable, Keys: Sequence<Item.ID> & Sendable>(_ type: Item.Type, keys: Keys) async throws -> Int {
        try await write { tx in try await tx.remove(type, keys: keys) }
    }

    /// Removes every item of type `Item` in one read-write transaction.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when the engine fails.
    @inlinable
    @discardableResult
    public func removeAll<Item: Persistable>(_ type: Item.Type) async throws -> Int {
        try await write { tx in try await tx.removeAll(type) }
    }
}
