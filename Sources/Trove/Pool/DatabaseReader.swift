/// Reads items of one ``Persistable`` type through the database's own readers, each call in its
/// own read transaction: ``ConnectionReader`` for ``Database``.
///
/// ```swift
/// let user = try await User.read(database).byKey(id)
/// let all = try User.read(database).all()
/// ```
///
/// Get one with ``Persistable/read(_:)-(Database)``. To read several things from one snapshot,
/// use `Database.read(label:fileID:line:_:)` and ``TransactionReader`` instead.
public struct DatabaseReader<Item: Persistable>: Sendable {
    @usableFromInline let database: Database

    @usableFromInline
    init(database: Database) {
        self.database = database
    }

    /// The item at `key`, or `nil` when there is none.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The item with its metadata.
    /// - Throws: ``TroveError`` when the stored bytes cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func byKey(_ key: Item.ID) throws -> Item? {
        try database.read { try $0.read(Item.self, key: key) }
    }

    /// The items at `keys`, in the order of `keys`; keys with no item are skipped.
    ///
    /// - Parameter keys: The keys of the items.
    /// - Returns: The items found.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func byKeys(_ keys: some Sequence<Item.ID>) throws -> [Item] {
        try database.read { try $0.read(Item.self, keys: keys) }
    }

    /// Every item of the type, in the order of their stored keys.
    ///
    /// - Returns: The items.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func all() throws -> [Item] {
        try database.read { try $0.readAll(Item.self) }
    }

    /// The items that exist at `keys`, and the keys that have no item.
    ///
    /// - Parameter keys: The keys to look up.
    /// - Returns: The items found and the keys missing.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func filterExisting(_ keys: some Sequence<Item.ID>) throws -> (items: [Item], missing: [Item.ID]) {
        try database.read { try Item.read($0).filterExisting(keys) }
    }

    /// The metadata of the item at `key`, without decoding the item.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no item or no metadata.
    /// - Throws: ``TroveError`` when the stored metadata cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func metadata(forKey key: Item.ID) throws -> Item.Metadata? {
        try database.read { try $0.metadata(for: Item.self, key: key) }
    }

    /// The item at `key`, read without blocking the caller's thread.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The item with its metadata.
    /// - Throws: ``TroveError`` when the stored bytes cannot be decoded or SQLite fails, or
    ///   `CancellationError` when the task was cancelled while it waited for a reader.
    @inlinable
    public func byKey(_ key: Item.ID) async throws -> Item? {
        try await database.read { try $0.read(Item.self, key: key) }
    }

    /// The items at `keys`, read without blocking the caller's thread.
    ///
    /// - Parameter keys: The keys of the items.
    /// - Returns: The items found, in the order of `keys`.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails, or
    ///   `CancellationError` when the task was cancelled while it waited for a reader.
    @inlinable
    public func byKeys(_ keys: [Item.ID]) async throws -> [Item] {
        try await database.read { try $0.read(Item.self, keys: keys) }
    }

    /// Every item of the type, read without blocking the caller's thread.
    ///
    /// - Returns: The items.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails, or
    ///   `CancellationError` when the task was cancelled while it waited for a reader.
    @inlinable
    public func all() async throws -> [Item] {
        try await database.read { try $0.readAll(Item.self) }
    }

    /// The items that exist at `keys`, and the keys that have no item, read without blocking
    /// the caller's thread.
    ///
    /// - Parameter keys: The keys to look up.
    /// - Returns: The items found and the keys missing.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails, or
    ///   `CancellationError` when the task was cancelled while it waited for a reader.
    @inlinable
    public func filterExisting(_ keys: [Item.ID]) async throws -> (items: [Item], missing: [Item.ID]) {
        try await database.read { try Item.read($0).filterExisting(keys) }
    }

    /// The metadata of the item at `key`, read without blocking the caller's thread.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no item or no metadata.
    /// - Throws: ``TroveError`` when the stored metadata cannot be decoded or SQLite fails, or
    ///   `CancellationError` when the task was cancelled while it waited for a reader.
    @inlinable
    public func metadata(forKey key: Item.ID) async throws -> Item.Metadata? {
        try await database.read { try $0.metadata(for: Item.self, key: key) }
    }
}

extension Persistable {
    /// A reader of items of this type through the database's own readers, one read
    /// transaction per call.
    ///
    /// - Parameter database: The database to read.
    /// - Returns: A reader.
    @inlinable
    public static func read(_ database: Database) -> DatabaseReader<Self> {
        DatabaseReader(database: database)
    }
}
