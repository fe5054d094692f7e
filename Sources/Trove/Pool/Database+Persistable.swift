extension Database {
    // MARK: One-call conveniences on the database's own connections

    /// Stores `item` in its own read-write transaction on the database's writer.
    ///
    /// - Parameter item: The item to store.
    /// - Throws: ``TroveError`` when the item cannot be encoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func write<Item: Persistable>(_ item: Item) throws {
        try readWrite { try $0.write(item) }
    }

    /// Stores every item of `items` in one read-write transaction on the database's writer.
    ///
    /// - Parameter items: The items to store.
    /// - Throws: ``TroveError`` when an item cannot be encoded or SQLite fails; nothing is then
    ///   stored.
    @inlinable
    @_disfavoredOverload
    public func write<Items: Sequence>(_ items: Items) throws where Items.Element: Persistable {
        try readWrite { try $0.write(items) }
    }

    /// Stores `item` in its own read-write transaction, without blocking the caller's thread.
    ///
    /// - Parameter item: The item to store.
    /// - Throws: ``TroveError`` when the item cannot be encoded or SQLite fails, or
    ///   `CancellationError` when the task was cancelled while it waited for the writer.
    @inlinable
    public func write<Item: Persistable>(_ item: Item) async throws {
        try await readWrite { try $0.write(item) }
    }

    /// Stores every item of `items` in one read-write transaction, without blocking the
    /// caller's thread.
    ///
    /// - Parameter items: The items to store.
    /// - Throws: ``TroveError`` when an item cannot be encoded or SQLite fails (nothing is then
    ///   stored), or `CancellationError` when the task was cancelled while it waited.
    @inlinable
    public func write<Item: Persistable>(_ items: [Item]) async throws {
        try await readWrite { try $0.write(items) }
    }

    /// Reads the item of type `Item` at `key` in its own read transaction on a reader.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The item, or `nil` when there is none.
    /// - Throws: ``TroveError`` when the stored bytes cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func read<Item: Persistable>(_ type: Item.Type, key: Item.ID) throws -> Item? {
        try read { try $0.read(Item.self, key: key) }
    }

    /// Reads the item of type `Item` at `key` in its own read transaction on a reader, without
    /// blocking the caller's thread.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The item, or `nil` when there is none.
    /// - Throws: ``TroveError`` when the stored bytes cannot be decoded or SQLite fails, or
    ///   `CancellationError` when the task was cancelled while it waited for a reader.
    @inlinable
    public func read<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Item? {
        try await read { try $0.read(Item.self, key: key) }
    }

    /// Reads the metadata of the item of type `Item` at `key`, without decoding the item.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The metadata, or `nil`.
    /// - Throws: ``TroveError`` when the stored metadata cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func metadata<Item: Persistable>(for type: Item.Type, key: Item.ID) throws -> Item.Metadata? {
        try read { try $0.metadata(for: Item.self, key: key) }
    }

    /// Removes `item` in its own read-write transaction on the database's writer.
    ///
    /// - Parameter item: The item to remove.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @inlinable
    @discardableResult
    @_disfavoredOverload
    public func remove<Item: Persistable>(_ item: Item) throws -> Bool {
        try readWrite { try $0.remove(item) }
    }

    /// Removes `item` in its own read-write transaction, without blocking the caller's thread.
    ///
    /// - Parameter item: The item to remove.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when SQLite fails, or `CancellationError` when the task was
    ///   cancelled while it waited for the writer.
    @inlinable
    @discardableResult
    public func remove<Item: Persistable>(_ item: Item) async throws -> Bool {
        try await readWrite { try $0.remove(item) }
    }

    /// Removes the items of type `Item` at `keys` in one read-write transaction.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @inlinable
    @discardableResult
    @_disfavoredOverload
    public func remove<Item: Persistable>(_ type: Item.Type, keys: some Sequence<Item.ID>) throws -> Int {
        try readWrite { try $0.remove(Item.self, keys: keys) }
    }

    /// Removes the items of type `Item` at `keys` in one read-write transaction, without
    /// blocking the caller's thread.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails, or `CancellationError` when the task was
    ///   cancelled while it waited for the writer.
    @inlinable
    @discardableResult
    public func remove<Item: Persistable>(_ type: Item.Type, keys: [Item.ID]) async throws -> Int {
        try await readWrite { try $0.remove(Item.self, keys: keys) }
    }

    /// Removes every item of type `Item` in its own read-write transaction.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @inlinable
    @discardableResult
    @_disfavoredOverload
    public func removeAll<Item: Persistable>(_ type: Item.Type) throws -> Int {
        try readWrite { try $0.removeAll(Item.self) }
    }

    /// Removes every item of type `Item` in its own read-write transaction, without blocking the
    /// caller's thread.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails, or `CancellationError` when the task was
    ///   cancelled while it waited for the writer.
    @inlinable
    @discardableResult
    public func removeAll<Item: Persistable>(_ type: Item.Type) async throws -> Int {
        try await readWrite { try $0.removeAll(Item.self) }
    }
}
