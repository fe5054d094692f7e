import NIOCore
import PostgresNIO
import Trove

// The typed writes of a PostgreSQL transaction: the requirements of Trove's `TransactionWriting`.

extension PostgresReadWriteTransaction: TransactionWriting {
    /// Stores `item` and its metadata under its key in its collection, replacing any item there,
    /// and updates the secondary indexes of its collection and the edges of the relationships
    /// whose sources it holds.
    ///
    /// When no extension follows the collection, the row is not sent at once: it travels with
    /// the transaction's next statement, or with its commit, in one round trip with the other
    /// rows written meanwhile (a server error about it is thrown from there).
    ///
    /// - Parameter item: The item to store.
    /// - Throws: ``/Trove/TroveError`` when the item cannot be encoded, with code `uniqueViolation`
    ///   when another item has the same value in a unique index column, or `server`.
    public func write<Item: Persistable>(_ item: Item) async throws {
        let key = item.id.itemKey
        var writer = BinaryWriter()
        // Fields of a newer version of the model that this store has seen in the collection: kept.
        let stored =
            store.unknownFields.contains(Item.collection) ? try await row(collection: Item.collection, key: key) : nil
        let (data, metadata) = try Self.encode(item, keeping: stored, with: &writer)
        let address = CacheKey(collection: Item.collection, key: key)
        guard let followers = store.writeFollowers[Item.collection] else {
            try await buffer(address, data: data, metadata: metadata)
            noteChange(address, item: item)
            return
        }
        if followers.allSatisfy(\.holdsWritesBack) {
            try await buffer(address, data: data, metadata: metadata)
            for follower in followers {
                try await follower.written(item, key: key, in: self)
            }
            noteChange(address, item: item)
            return
        }
        let sql = """
            INSERT INTO \(names.items) (collection, key, data, metadata) VALUES ($1, $2, $3, $4)
            ON CONFLICT (collection, key) DO UPDATE SET data = excluded.data, metadata = excluded.metadata
            """
        _ = try await query(sql, Item.collection, key, data, metadata, collection: Item.collection, key: key)
        for follower in followers {
            try await follower.written(item, key: key, in: self)
        }
        noteChange(address, item: item)
    }

    /// Stores every item of `items`, in this one transaction.
    ///
    /// When no extension follows the collection, the items go to the server in statements of
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

    /// The bytes of `item` and of its metadata, encoded with `writer`, after the fields of the
    /// `stored` row that `Item`'s coders do not know (written by a newer version of the model),
    /// when given; a failure is Trove's error for an item that does not encode, naming the
    /// collection, the key and the field.
    static func encode<Item: Persistable>(
        _ item: Item, keeping stored: (data: ByteBuffer, metadata: ByteBuffer?)? = nil, with writer: inout BinaryWriter
    ) throws -> (data: ByteBuffer, metadata: ByteBuffer?) {
        writer.removeAll()
        let key = item.id.itemKey
        do {
            if let stored {
                try stored.data.withUnsafeReadableBytes { bytes in
                    try UnknownFields.append(from: bytes, probe: { _ = try Item.Coder.decode(from: &$0) }, to: &writer)
                }
            }
            try Item.Coder.encode(item, to: &writer)
        } catch {
            throw TroveError.coderFailure(error, decoding: false, collection: Item.collection, key: key, field: nil)
        }
        let data = writer.withUnsafeBytes { ByteBuffer(bytes: $0) }
        guard let value = item.metadata else { return (data, nil) }
        return (data, try encodeMetadata(Item.self, value, key: key, keeping: stored?.metadata, with: &writer))
    }

    /// The bytes of `metadata`, of the item of type `Item` at `key`, encoded with `writer` after
    /// the fields of the `stored` metadata that `Item`'s metadata coder does not know.
    static func encodeMetadata<Item: Persistable>(
        _ type: Item.Type, _ metadata: Item.Metadata, key: String, keeping stored: ByteBuffer? = nil,
        with writer: inout BinaryWriter
    ) throws -> ByteBuffer {
        writer.removeAll()
        do {
            if let stored {
                try stored.withUnsafeReadableBytes { bytes in
                    try UnknownFields.append(
                        from: bytes, probe: { _ = try Item.MetadataCoder.decode(from: &$0) }, to: &writer)
                }
            }
            try Item.MetadataCoder.encode(metadata, to: &writer)
        } catch {
            throw TroveError.coderFailure(
                error, decoding: false, collection: Item.collection, key: key, field: "metadata")
        }
        return writer.withUnsafeBytes { ByteBuffer(bytes: $0) }
    }

    /// Replaces the metadata of the item of type `Item` at `key`, without rewriting the item.
    /// Does nothing when there is no such item.
    ///
    /// - Parameters:
    ///   - metadata: The new metadata, or `nil` to remove it.
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was changed.
    /// - Throws: ``/Trove/TroveError`` when the metadata cannot be encoded or the server fails.
    @discardableResult
    public func setMetadata<Item: Persistable>(_ metadata: Item.Metadata?, for type: Item.Type, key: Item.ID)
        async throws -> Bool
    {
        if store.writeFollowers[Item.collection] != nil {
            // An index or an edge may be read from the metadata: rewrite the item, which updates them.
            guard var item = try await read(Item.self, key: key) else { return false }
            item.metadata = metadata
            try await write(item)
            return true
        }
        var bytes: ByteBuffer?
        if let metadata {
            var writer = BinaryWriter()
            let stored =
                store.unknownFields.contains(Item.collection)
                ? try await row(collection: Item.collection, key: key.itemKey)?.metadata : nil
            bytes = try Self.encodeMetadata(Item.self, metadata, key: key.itemKey, keeping: stored, with: &writer)
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
            noteChange(CacheKey(collection: Item.collection, key: key.itemKey), item: nil)
        }
        return changed > 0
    }

    /// Removes the item at `key` of `collection` (``removeItems(forKeys:in:)``).
    func removeItem(forKey key: String, in collection: String) async throws -> Bool {
        try await removeItems(forKeys: [key], in: collection) > 0
    }

    /// Removes `item` (by its key) from its collection.
    ///
    /// - Parameter item: The item to remove.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``/Trove/TroveError`` when the server fails.
    @discardableResult
    public func remove<Item: Persistable>(_ item: Item) async throws -> Bool {
        try await removeItem(forKey: item.id.itemKey, in: Item.collection)
    }

    /// Removes every item of `items` (by key).
    ///
    /// - Parameter items: The items to remove.
    /// - Returns: The number of items removed.
    /// - Throws: ``/Trove/TroveError`` when the server fails.
    @discardableResult
    public func remove<Items: Sequence>(_ items: Items) async throws -> Int where Items.Element: Persistable {
        try await removeItems(forKeys: items.map { $0.id.itemKey }, in: Items.Element.collection)
    }

    /// Removes the items at `keys` of `collection`, in one statement per 10,000 keys, with what
    /// the extensions that follow the collection keep of them (one statement per batch each), and
    /// what the delete rules of relationships remove with them (``runCascade()``).
    func removeItems(forKeys keys: [String], in collection: String) async throws -> Int {
        let removed = try await deleteRows(forKeys: keys, in: collection)
        try await runCascade()
        return removed
    }

    /// The most keys one statement removes (an array parameter of PostgreSQL).
    static let removalBatchSize = 10_000

    /// Deletes the rows at `keys` of `collection` and tells the extensions that follow the
    /// collection which went; returns how many went (a key where nothing is stored is skipped).
    func deleteRows(forKeys keys: [String], in collection: String) async throws -> Int {
        let followers = store.removalFollowers[collection] ?? []
        let sql = "DELETE FROM \(names.items) WHERE collection = $1 AND key = ANY($2) RETURNING key"
        var count = 0
        var start = 0
        while start < keys.count {
            let batch = Array(keys[start..<min(keys.count, start + Self.removalBatchSize)])
            start += batch.count
            var removed: [String] = []
            for try await (key) in try await query(sql, collection, batch, collection: collection).decode(String.self) {
                noteChange(CacheKey(collection: collection, key: key), item: nil)
                removed.append(key)
            }
            count += removed.count
            guard !removed.isEmpty else { continue }
            for follower in followers {
                try await follower.removed(keys: removed, collection: collection, in: self)
            }
        }
        return count
    }

    /// Removes the item of type `Item` at `key`.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``/Trove/TroveError`` when the server fails.
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
    /// - Throws: ``/Trove/TroveError`` when the server fails.
    @discardableResult
    public func remove<Item: Persistable, Keys: Sequence<Item.ID>>(_ type: Item.Type, keys: Keys) async throws -> Int {
        try await removeItems(forKeys: keys.map(\.itemKey), in: Item.collection)
    }

    /// Removes every item of type `Item`: the whole collection, its index rows and edges, and
    /// what the delete rules of relationships remove with it.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``/Trove/TroveError`` when the server fails.
    @discardableResult
    public func removeAll<Item: Persistable>(_ type: Item.Type) async throws -> Int {
        let followers = store.removalFollowers[Item.collection] ?? []
        let sql = "DELETE FROM \(names.items) WHERE collection = $1 RETURNING key"
        var keys: [String] = []
        for try await key in try await query(sql, Item.collection, collection: Item.collection).decode(String.self) {
            keys.append(key)
        }
        if !keys.isEmpty { noteCleared(Item.collection) }
        for follower in followers {
            let removed = follower.needsRemovedKeys(of: Item.collection) ? keys : []
            try await follower.removedAll(of: Item.collection, keys: removed, in: self)
        }
        try await runCascade()
        return keys.count
    }

    /// Stores raw bytes at `key` of `collection` (for copying a Trove file), without touching
    /// indexes; the caller rebuilds them.
    func setRawData(_ data: ByteBuffer, metadata: ByteBuffer?, forKey key: String, in collection: String) async throws {
        let sql = """
            INSERT INTO \(names.items) (collection, key, data, metadata) VALUES ($1, $2, $3, $4)
            ON CONFLICT (collection, key) DO UPDATE SET data = excluded.data, metadata = excluded.metadata
            """
        _ = try await query(sql, collection, key, data, metadata, collection: collection, key: key)
        noteChange(CacheKey(collection: collection, key: key), item: nil)
    }

    /// Adds or removes a manual edge of relationships the store keeps; a removal that applies the
    /// edge's rules is refused.
    ///
    /// - Returns: Whether an edge was removed (`true` for an addition).
    /// - Throws: ``/Trove/TroveError/Code/extensionFailed`` for relationships the store does not
    ///   keep with this definition, an edge that is not manual, or a source that does not exist;
    ///   `server` when the server fails.
    @_spi(TroveEngine)
    public func changeManualEdge<Source: Persistable>(
        _ relationships: Relationships<Source>, edge: String, from source: Source.ID, to destination: String,
        adding: Bool, applyingRulesAsIfRemoved end: RelationshipNotice.Removed?
    ) async throws -> Bool {
        if end != nil {
            throw TroveError(
                code: .misuse,
                message:
                    "A PostgreSQL store does not apply the rules of the relationships '\(relationships.name)' to the removal of the edge '\(edge)' yet: remove the edge, then the items the rules would remove, in the same transaction.",
                collection: Source.collection, key: source.itemKey, extensionName: relationships.name)
        }
        let kept = try store.keptRelationships(
            relationships.name, fingerprint: relationships.fingerprint, collection: Source.collection)
        return try await kept.changeManualEdge(
            edge, from: source.itemKey, to: destination, adding: adding, in: self)
    }
}
