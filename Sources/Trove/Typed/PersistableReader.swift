/// Reads items of one ``Persistable`` type in a transaction: the reader form of
/// YapDatabaseExtensions.
///
/// ```swift
/// try connection.read { tx in
///     let user = try User.read(tx).byKey(id)
///     let (found, missing) = try User.read(tx).filterExisting(ids)
/// }
/// ```
///
/// Get one with ``Persistable/read(_:)-(ReadTransaction)``. It is valid as long as its
/// transaction is.
public struct TransactionReader<Item: Persistable> {
    @usableFromInline let transaction: ReadTransaction

    @usableFromInline
    init(transaction: ReadTransaction) {
        self.transaction = transaction
    }

    /// The item at `key`, or `nil` when there is none.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The item with its metadata.
    /// - Throws: ``TroveError`` when the stored bytes cannot be decoded or SQLite fails.
    @inlinable
    public func byKey(_ key: Item.ID) throws -> Item? {
        try transaction.read(Item.self, key: key)
    }

    /// The items at `keys`, in the order of `keys`; keys with no item are skipped.
    ///
    /// - Parameter keys: The keys of the items.
    /// - Returns: The items found.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    public func byKeys(_ keys: some Sequence<Item.ID>) throws -> [Item] {
        try transaction.read(Item.self, keys: keys)
    }

    /// Every item of the type, in the order of their stored keys.
    ///
    /// - Returns: The items.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    public func all() throws -> [Item] {
        try transaction.readAll(Item.self)
    }

    /// The items that exist at `keys`, in the order of `keys`, and the keys that have no item.
    ///
    /// - Parameter keys: The keys to look up.
    /// - Returns: The items found and the keys missing.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    public func filterExisting(_ keys: some Sequence<Item.ID>) throws -> (items: [Item], missing: [Item.ID]) {
        var items: [Item] = []
        var missing: [Item.ID] = []
        for key in keys {
            if let item = try transaction.read(Item.self, key: key) {
                items.append(item)
            } else {
                missing.append(key)
            }
        }
        return (items, missing)
    }

    /// The metadata of the item at `key`, without decoding the item.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no item or no metadata.
    /// - Throws: ``TroveError`` when the stored metadata cannot be decoded or SQLite fails.
    @inlinable
    public func metadata(forKey key: Item.ID) throws -> Item.Metadata? {
        try transaction.metadata(for: Item.self, key: key)
    }
}

// Explicit non-conformance to Sendable: it holds a transaction, valid only inside its closure.
@available(*, unavailable)
extension TransactionReader: Sendable {}

/// Reads items of one ``Persistable`` type through a connection, each call in its own read
/// transaction.
///
/// ```swift
/// let user = try User.read(connection).byKey(id)
/// let all = try await User.read(connection).all()
/// ```
///
/// Get one with ``Persistable/read(_:)-(Connection)``. To read several things from one
/// snapshot, use ``Connection/read(_:)-(_)`` and ``TransactionReader`` instead.
public struct ConnectionReader<Item: Persistable>: Sendable {
    @usableFromInline let connection: Connection

    @usableFromInline
    init(connection: Connection) {
        self.connection = connection
    }

    /// The item at `key`, or `nil` when there is none.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The item with its metadata.
    /// - Throws: ``TroveError`` when the stored bytes cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func byKey(_ key: Item.ID) throws -> Item? {
        try connection.read { try $0.read(Item.self, key: key) }
    }

    /// The items at `keys`, in the order of `keys`; keys with no item are skipped.
    ///
    /// - Parameter keys: The keys of the items.
    /// - Returns: The items found.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func byKeys(_ keys: some Sequence<Item.ID>) throws -> [Item] {
        try connection.read { try $0.read(Item.self, keys: keys) }
    }

    /// Every item of the type, in the order of their stored keys.
    ///
    /// - Returns: The items.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func all() throws -> [Item] {
        try connection.read { try $0.readAll(Item.self) }
    }

    /// The items that exist at `keys`, and the keys that have no item.
    ///
    /// - Parameter keys: The keys to look up.
    /// - Returns: The items found and the keys missing.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func filterExisting(_ keys: some Sequence<Item.ID>) throws -> (items: [Item], missing: [Item.ID]) {
        try connection.read { try Item.read($0).filterExisting(keys) }
    }

    /// The metadata of the item at `key`, without decoding the item.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no item or no metadata.
    /// - Throws: ``TroveError`` when the stored metadata cannot be decoded or SQLite fails.
    @inlinable
    @_disfavoredOverload
    public func metadata(forKey key: Item.ID) throws -> Item.Metadata? {
        try connection.read { try $0.metadata(for: Item.self, key: key) }
    }

    /// The item at `key`, read on the connection's queue.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The item with its metadata.
    /// - Throws: ``TroveError`` when the stored bytes cannot be decoded or SQLite fails.
    @inlinable
    public func byKey(_ key: Item.ID) async throws -> Item? {
        try await connection.read { try $0.read(Item.self, key: key) }
    }

    /// The items at `keys`, read on the connection's queue.
    ///
    /// - Parameter keys: The keys of the items.
    /// - Returns: The items found, in the order of `keys`.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    public func byKeys(_ keys: [Item.ID]) async throws -> [Item] {
        try await connection.read { try $0.read(Item.self, keys: keys) }
    }

    /// Every item of the type, read on the connection's queue.
    ///
    /// - Returns: The items.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    public func all() async throws -> [Item] {
        try await connection.read { try $0.readAll(Item.self) }
    }
}

extension Persistable {
    /// A reader of items of this type in `transaction`.
    ///
    /// - Parameter transaction: The transaction to read in.
    /// - Returns: A reader valid as long as the transaction.
    @inlinable
    public static func read(_ transaction: ReadTransaction) -> TransactionReader<Self> {
        TransactionReader(transaction: transaction)
    }

    /// A reader of items of this type through `connection`, one read transaction per call.
    ///
    /// - Parameter connection: The connection to read with.
    /// - Returns: A reader.
    @inlinable
    public static func read(_ connection: Connection) -> ConnectionReader<Self> {
        ConnectionReader(connection: connection)
    }
}
