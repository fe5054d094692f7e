import NIOCore
import PostgresNIO
import Trove

extension PostgresReadTransaction {
    /// The item of type `Item` at `key`, from the store's cache or decoded from the server, with
    /// its metadata.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The item, or `nil` when there is none at `key`.
    /// - Throws: ``Trove/TroveError`` with code `corruptData` naming the collection and key when
    ///   the stored bytes cannot be decoded; `server` when the server fails.
    public func read<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Item? {
        let address = PostgresItemAddress(collection: Item.collection, key: key.itemKey)
        let row: (data: ByteBuffer, metadata: ByteBuffer?)?
        if snapshotTaken {
            if usesCache, let cached = store.cache.value(at: address, number: snapshotNumber) as? Item {
                return cached
            }
            row = try await self.row(collection: address.collection, key: address.key)
        } else {
            row = try await snapshotAndRow(collection: address.collection, key: address.key)
        }
        guard let row else { return nil }
        let item = try decodeItem(Item.self, data: row.data, metadata: row.metadata, key: address.key)
        if usesCache {
            store.cache.insert(item, at: address, number: snapshotNumber)
        }
        return item
    }

    /// The items of type `Item` at `keys`, in the order of `keys`; keys with no item are skipped.
    ///
    /// The items not in the cache are read in one statement.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The items found.
    /// - Throws: ``Trove/TroveError`` when stored bytes cannot be decoded or the server fails.
    public func read<Item: Persistable>(_ type: Item.Type, keys: some Sequence<Item.ID>) async throws -> [Item] {
        let keys = Array(keys)
        try await takeSnapshot()
        var found: [String: Item] = [:]
        var missing: [String] = []
        for key in keys {
            let address = PostgresItemAddress(collection: Item.collection, key: key.itemKey)
            if usesCache, let cached = store.cache.value(at: address, number: snapshotNumber) as? Item {
                found[address.key] = cached
            } else {
                missing.append(address.key)
            }
        }
        if !missing.isEmpty {
            let sql = "SELECT key, data, metadata FROM \(names.items) WHERE collection = $1 AND key = ANY($2)"
            for try await (key, data, metadata) in try await query(
                sql, Item.collection, missing, collection: Item.collection
            ).decode((String, ByteBuffer, ByteBuffer?).self) {
                let item = try decodeItem(Item.self, data: data, metadata: metadata, key: key)
                found[key] = item
                if usesCache {
                    store.cache.insert(
                        item, at: PostgresItemAddress(collection: Item.collection, key: key), number: snapshotNumber)
                }
            }
        }
        return keys.compactMap { found[$0.itemKey] }
    }

    /// Every item of type `Item`, in the order of their keys, decoded without going through the
    /// cache.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The items.
    /// - Throws: ``Trove/TroveError`` when stored bytes cannot be decoded or the server fails.
    public func readAll<Item: Persistable>(_ type: Item.Type) async throws -> [Item] {
        let sql = "SELECT key, data, metadata FROM \(names.items) WHERE collection = $1 ORDER BY key"
        var items: [Item] = []
        for try await (key, data, metadata) in try await query(sql, Item.collection, collection: Item.collection)
            .decode((String, ByteBuffer, ByteBuffer?).self)
        {
            items.append(try decodeItem(Item.self, data: data, metadata: metadata, key: key))
        }
        return items
    }

    /// The metadata of the item of type `Item` at `key`, without decoding the item (a cached
    /// item answers with its metadata).
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no such item or it has no metadata.
    /// - Throws: ``Trove/TroveError`` when the stored metadata cannot be decoded or the server fails.
    public func metadata<Item: Persistable>(for type: Item.Type, key: Item.ID) async throws -> Item.Metadata? {
        guard Item.Metadata.self != NoMetadata.self else { return nil }
        let address = PostgresItemAddress(collection: Item.collection, key: key.itemKey)
        try await takeSnapshot()
        if usesCache, let cached = store.cache.value(at: address, number: snapshotNumber) as? Item {
            return cached.metadata
        }
        let sql = "SELECT metadata FROM \(names.items) WHERE collection = $1 AND key = $2"
        var metadata: Item.Metadata?
        for try await (bytes) in try await query(sql, address.collection, address.key, collection: address.collection, key: address.key)
            .decode(ByteBuffer?.self)
        {
            if let bytes {
                metadata = try decode(Item.MetadataCoder.self, from: bytes, collection: address.collection, key: address.key)
            }
        }
        return metadata
    }

    /// Whether an item of type `Item` is stored at `key`.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when the item exists.
    /// - Throws: ``Trove/TroveError`` when the server fails.
    public func contains<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Bool {
        let address = PostgresItemAddress(collection: Item.collection, key: key.itemKey)
        try await takeSnapshot()
        if usesCache, store.cache.value(at: address, number: snapshotNumber) is Item {
            return true
        }
        return try await hasItem(forKey: address.key, in: address.collection)
    }

    /// The keys of every item of type `Item`, in order.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The keys.
    /// - Throws: ``Trove/TroveError`` with code `invalidKey` when a stored key is not a valid
    ///   `Item.ID`; `server` when the server fails.
    public func keys<Item: Persistable>(of type: Item.Type) async throws -> [Item.ID] {
        try await keys(in: Item.collection).map { key in
            guard let id = Item.ID(itemKey: key) else {
                throw TroveError(
                    code: .invalidKey, message: "The stored key is not a valid \(Item.ID.self).",
                    collection: Item.collection, key: key)
            }
            return id
        }
    }

    /// The number of items of type `Item`.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items.
    /// - Throws: ``Trove/TroveError`` when the server fails.
    public func count<Item: Persistable>(of type: Item.Type) async throws -> Int {
        try await count(in: Item.collection)
    }
}

extension PostgresReadWriteTransaction {
    /// Stores `item` and its metadata under its key in its collection, replacing any item there,
    /// and updates the secondary indexes of its collection.
    ///
    /// When the collection has no secondary index, the row is not sent at once: it travels with
    /// the transaction's next statement, or with its commit, in one round trip with the other
    /// rows written meanwhile (a server error about it is thrown from there).
    ///
    /// - Parameter item: The item to store.
    /// - Throws: ``Trove/TroveError`` when the item cannot be encoded, with code `uniqueViolation`
    ///   when another item has the same value in a unique index column, or `server`.
    public func write<Item: Persistable>(_ item: Item) async throws {
        let key = item.id.itemKey
        var writer = BinaryWriter()
        let (data, metadata) = try Self.encode(item, with: &writer)
        let address = PostgresItemAddress(collection: Item.collection, key: key)
        guard let indexes = store.indexes[Item.collection] else {
            try await buffer(address, data: data, metadata: metadata)
            noteChange(address, item: item)
            return
        }
        let sql = """
            INSERT INTO \(names.items) (collection, key, data, metadata) VALUES ($1, $2, $3, $4)
            ON CONFLICT (collection, key) DO UPDATE SET data = excluded.data, metadata = excluded.metadata
            """
        _ = try await query(sql, Item.collection, key, data, metadata, collection: Item.collection, key: key)
        for index in indexes {
            try await index.store(item, key: key, in: self)
        }
        noteChange(address, item: item)
    }

    /// Stores every item of `items`, in this one transaction.
    ///
    /// When the collection has no secondary index, the items go to the server in statements of
    /// up to 1,000 rows (one round trip per batch, not per item), the last batch with the
    /// transaction's next statement or its commit.
    ///
    /// - Parameter items: The items to store.
    /// - Throws: As ``write(_:)``.
    public func write<Items: Sequence>(_ items: Items) async throws where Items.Element: Persistable {
        for item in items {
            try await write(item)
        }
    }

    /// The bytes of `item` and of its metadata, encoded with `writer`.
    static func encode<Item: Persistable>(_ item: Item, with writer: inout BinaryWriter) throws
        -> (data: ByteBuffer, metadata: ByteBuffer?)
    {
        writer.removeAll()
        try Item.Coder.encode(item, to: &writer)
        let data = writer.withUnsafeBytes { ByteBuffer(bytes: $0) }
        guard let value = item.metadata else { return (data, nil) }
        writer.removeAll()
        try Item.MetadataCoder.encode(value, to: &writer)
        return (data, writer.withUnsafeBytes { ByteBuffer(bytes: $0) })
    }

    /// Replaces the metadata of the item of type `Item` at `key`, without rewriting the item.
    /// Does nothing when there is no such item.
    ///
    /// - Parameters:
    ///   - metadata: The new metadata, or `nil` to remove it.
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was changed.
    /// - Throws: ``Trove/TroveError`` when the metadata cannot be encoded or the server fails.
    @discardableResult
    public func setMetadata<Item: Persistable>(_ metadata: Item.Metadata?, for type: Item.Type, key: Item.ID)
        async throws -> Bool
    {
        if store.indexes[Item.collection] != nil {
            // An index may hold metadata fields: rewrite the item, which updates them.
            guard var item = try await read(Item.self, key: key) else { return false }
            item.metadata = metadata
            try await write(item)
            return true
        }
        var bytes: ByteBuffer?
        if let metadata {
            var writer = BinaryWriter()
            try Item.MetadataCoder.encode(metadata, to: &writer)
            bytes = writer.withUnsafeBytes { ByteBuffer(bytes: $0) }
        }
        let sql = "UPDATE \(names.items) SET metadata = $3 WHERE collection = $1 AND key = $2 RETURNING 1"
        var bindings = PostgresBindings()
        bindings.append(Item.collection)
        bindings.append(key.itemKey)
        bindings.append(bytes)
        let changed = try await count(
            PostgresQuery(unsafeSQL: sql, binds: bindings), collection: Item.collection, key: key.itemKey)
        if changed > 0 {
            // The cached item has the old metadata: evict it when this commits.
            noteChange(PostgresItemAddress(collection: Item.collection, key: key.itemKey), item: nil)
        }
        return changed > 0
    }

    /// Removes the item at `key` of `collection` and its index rows.
    func removeItem(forKey key: String, in collection: String) async throws -> Bool {
        let sql = "DELETE FROM \(names.items) WHERE collection = $1 AND key = $2 RETURNING 1"
        let removed = try await count(
            PostgresQuery(unsafeSQL: sql, binds: try Self.bind(collection, key)), collection: collection, key: key)
        guard removed > 0 else { return false }
        for index in store.indexes[collection] ?? [] {
            try await index.remove(key: key, in: self)
        }
        noteChange(PostgresItemAddress(collection: collection, key: key), item: nil)
        return true
    }

    /// Removes `item` (by its key) from its collection.
    ///
    /// - Parameter item: The item to remove.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``Trove/TroveError`` when the server fails.
    @discardableResult
    public func remove<Item: Persistable>(_ item: Item) async throws -> Bool {
        try await removeItem(forKey: item.id.itemKey, in: Item.collection)
    }

    /// Removes every item of `items` (by key).
    ///
    /// - Parameter items: The items to remove.
    /// - Returns: The number of items removed.
    /// - Throws: ``Trove/TroveError`` when the server fails.
    @discardableResult
    public func remove<Items: Sequence>(_ items: Items) async throws -> Int where Items.Element: Persistable {
        try await removeItems(forKeys: items.map { $0.id.itemKey }, in: Items.Element.collection)
    }

    /// Removes the items at `keys` of `collection`: in one statement per batch when the collection
    /// has no index, item by item (with their index rows) otherwise.
    func removeItems(forKeys keys: [String], in collection: String) async throws -> Int {
        guard store.indexes[collection] == nil else {
            var removed = 0
            for key in keys where try await removeItem(forKey: key, in: collection) {
                removed += 1
            }
            return removed
        }
        let sql = "DELETE FROM \(names.items) WHERE collection = $1 AND key = ANY($2) RETURNING key"
        var removed = 0
        var start = 0
        while start < keys.count {
            let batch = Array(keys[start..<min(keys.count, start + PendingRows.batchSize)])
            start += batch.count
            for try await (key) in try await query(sql, collection, batch, collection: collection).decode(String.self) {
                noteChange(PostgresItemAddress(collection: collection, key: key), item: nil)
                removed += 1
            }
        }
        return removed
    }

    /// Removes the item of type `Item` at `key`.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``Trove/TroveError`` when the server fails.
    @discardableResult
    public func remove<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Bool {
        try await removeItem(forKey: key.itemKey, in: Item.collection)
    }

    /// Removes the items of type `Item` at `keys`.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``Trove/TroveError`` when the server fails.
    @discardableResult
    public func remove<Item: Persistable>(_ type: Item.Type, keys: some Sequence<Item.ID>) async throws -> Int {
        try await removeItems(forKeys: keys.map(\.itemKey), in: Item.collection)
    }

    /// Removes every item of type `Item`: the whole collection, and its index rows.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``Trove/TroveError`` when the server fails.
    @discardableResult
    public func removeAll<Item: Persistable>(_ type: Item.Type) async throws -> Int {
        let sql = "DELETE FROM \(names.items) WHERE collection = $1 RETURNING 1"
        let removed = try await count(
            PostgresQuery(unsafeSQL: sql, binds: try Self.bind(Item.collection)), collection: Item.collection)
        for index in store.indexes[Item.collection] ?? [] {
            try await index.removeAll(in: self)
        }
        if removed > 0 { noteCleared(Item.collection) }
        return removed
    }

    /// Stores raw bytes at `key` of `collection` (for copying a Trove file), without touching
    /// indexes; the caller rebuilds them.
    func setRawData(_ data: ByteBuffer, metadata: ByteBuffer?, forKey key: String, in collection: String) async throws {
        let sql = """
            INSERT INTO \(names.items) (collection, key, data, metadata) VALUES ($1, $2, $3, $4)
            ON CONFLICT (collection, key) DO UPDATE SET data = excluded.data, metadata = excluded.metadata
            """
        _ = try await query(sql, collection, key, data, metadata, collection: collection, key: key)
        noteChange(PostgresItemAddress(collection: collection, key: key), item: nil)
    }
}

/// Reads items of one ``Trove/Persistable`` type in a ``PostgresReadTransaction``: the
/// PostgreSQL form of `TransactionReader`, with the same calls, made `async`.
///
/// ```swift
/// try await store.read { tx in
///     let user = try await tx.read(User.self, key: id)
///     let (found, missing) = try await tx.filterExisting(User.self, keys: ids)
/// }
/// ```
public struct PostgresTransactionReader<Item: Persistable> {
    let transaction: PostgresReadTransaction

    /// The item at `key`, or `nil` when there is none.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The item with its metadata.
    /// - Throws: ``Trove/TroveError`` when the stored bytes cannot be decoded or the server fails.
    public func byKey(_ key: Item.ID) async throws -> Item? {
        try await transaction.read(Item.self, key: key)
    }

    /// The items at `keys`, in the order of `keys`; keys with no item are skipped.
    ///
    /// - Parameter keys: The keys of the items.
    /// - Returns: The items found.
    /// - Throws: ``Trove/TroveError`` when stored bytes cannot be decoded or the server fails.
    public func byKeys(_ keys: some Sequence<Item.ID>) async throws -> [Item] {
        try await transaction.read(Item.self, keys: keys)
    }

    /// Every item of the type, in the order of their keys.
    ///
    /// - Returns: The items.
    /// - Throws: ``Trove/TroveError`` when stored bytes cannot be decoded or the server fails.
    public func all() async throws -> [Item] {
        try await transaction.readAll(Item.self)
    }

    /// The items that exist at `keys`, in the order of `keys`, and the keys that have no item.
    ///
    /// - Parameter keys: The keys to look up.
    /// - Returns: The items found and the keys missing.
    /// - Throws: ``Trove/TroveError`` when stored bytes cannot be decoded or the server fails.
    public func filterExisting(_ keys: some Sequence<Item.ID>) async throws -> (items: [Item], missing: [Item.ID]) {
        let keys = Array(keys)
        let found = try await transaction.read(Item.self, keys: keys)
        let present = Set(found.map { $0.id })
        return (found, keys.filter { !present.contains($0) })
    }

    /// The metadata of the item at `key`, without decoding the item.
    ///
    /// - Parameter key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no item or no metadata.
    /// - Throws: ``Trove/TroveError`` when the stored metadata cannot be decoded or the server fails.
    public func metadata(forKey key: Item.ID) async throws -> Item.Metadata? {
        try await transaction.metadata(for: Item.self, key: key)
    }

    /// A query of `index` in this reader's transaction.
    ///
    /// - Parameter index: A secondary index of `Item` that the store keeps.
    /// - Returns: A query that returns every item until it is filtered.
    public func query(_ index: SecondaryIndex<Item>) -> PostgresIndexQuery<Item> {
        PostgresIndexQuery(index: index, transaction: transaction)
    }
}

// Explicit non-conformance to Sendable: it holds a transaction, valid only inside its body.
@available(*, unavailable)
extension PostgresTransactionReader: Sendable {}

extension Persistable {
    /// A reader of items of this type in a ``PostgresReadTransaction``.
    ///
    /// - Parameter transaction: The transaction to read in.
    /// - Returns: A reader valid as long as the transaction.
    public static func read(_ transaction: PostgresReadTransaction) -> PostgresTransactionReader<Self> {
        PostgresTransactionReader(transaction: transaction)
    }
}

extension SecondaryIndex {
    /// A query of this index in a ``PostgresReadTransaction``.
    ///
    /// - Parameter transaction: The transaction to read in.
    /// - Returns: A query that returns every item until it is filtered.
    public func query(_ transaction: PostgresReadTransaction) -> PostgresIndexQuery<Item> {
        PostgresIndexQuery(index: self, transaction: transaction)
    }
}
