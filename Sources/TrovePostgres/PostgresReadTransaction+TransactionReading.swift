import NIOCore
import PostgresNIO
import Trove

// The typed reads of a PostgreSQL transaction: the requirements of Trove's `TransactionReading`,
// so that every convenience and query terminal of Trove runs on PostgreSQL. The queries' plans
// run in `PostgresReadTransaction+Queries.swift`.

extension PostgresReadTransaction: TransactionReading {
    /// The item of type `Item` at `key`, from the store's cache or decoded from the server, with
    /// its metadata.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The item, or `nil` when there is none at `key`.
    /// - Throws: ``/Trove/TroveError`` with code `corruptData` naming the collection and key when
    ///   the stored bytes cannot be decoded; `server` when the server fails.
    public func read<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Item? {
        let address = CacheKey(collection: Item.collection, key: key.itemKey)
        recorder?.recordKey(address.key, in: address.collection)
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
    /// - Throws: ``/Trove/TroveError`` when stored bytes cannot be decoded or the server fails.
    public func read<Item: Persistable, Keys: Sequence<Item.ID>>(_ type: Item.Type, keys: Keys) async throws -> [Item] {
        let keys = Array(keys)
        if let recorder {
            for key in keys { recorder.recordKey(key.itemKey, in: Item.collection) }
        }
        try await takeSnapshot()
        // By `CacheKey`, which compares keys by their bytes: two keys that Swift's `==` finds
        // equal ("caf\u{E9}" and "cafe\u{301}") are two items.
        var found: [CacheKey: Item] = [:]
        var missing: [String] = []
        for key in keys {
            let address = CacheKey(collection: Item.collection, key: key.itemKey)
            if usesCache, let cached = store.cache.value(at: address, number: snapshotNumber) as? Item {
                found[address] = cached
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
                let address = CacheKey(collection: Item.collection, key: key)
                found[address] = item
                if usesCache {
                    store.cache.insert(item, at: address, number: snapshotNumber)
                }
            }
        }
        return keys.compactMap { found[CacheKey(collection: Item.collection, key: $0.itemKey)] }
    }

    /// Every item of type `Item`, in the order of their keys, decoded without going through the
    /// cache.
    ///
    /// Inlinable, so that it is specialized for `Item` where it is called: the statement runs in
    /// `readAllRows`, which is not generic, and only the decoding of each row into `Item` is
    /// written here.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The items.
    /// - Throws: ``/Trove/TroveError`` when stored bytes cannot be decoded or the server fails.
    @inlinable
    public func readAll<Item: Persistable>(_ type: Item.Type) async throws -> [Item] {
        var items: [Item] = []
        try await readAllRows(
            in: Item.collection, withMetadata: Item.Metadata.self != NoMetadata.self,
            decodeData: { items.append(try Item.Coder.decode(from: &$0)) },
            decodeMetadata: { items[items.count - 1].metadata = try Item.MetadataCoder.decode(from: &$0) })
        return items
    }

    /// The metadata of the item of type `Item` at `key`, without decoding the item (a cached
    /// item answers with its metadata).
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no such item or it has no metadata.
    /// - Throws: ``/Trove/TroveError`` when the stored metadata cannot be decoded or the server fails.
    public func metadata<Item: Persistable>(for type: Item.Type, key: Item.ID) async throws -> Item.Metadata? {
        let address = CacheKey(collection: Item.collection, key: key.itemKey)
        recorder?.recordKey(address.key, in: address.collection)
        guard Item.Metadata.self != NoMetadata.self else { return nil }
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
                metadata = try decodeMetadata(Item.self, from: bytes, key: address.key)
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
    /// - Throws: ``/Trove/TroveError`` when the server fails.
    public func contains<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Bool {
        let address = CacheKey(collection: Item.collection, key: key.itemKey)
        recorder?.recordKey(address.key, in: address.collection)
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
    /// - Throws: ``/Trove/TroveError`` with code `invalidKey` when a stored key is not a valid
    ///   `Item.ID`; `server` when the server fails.
    public func keys<Item: Persistable>(of type: Item.Type) async throws -> [Item.ID] {
        try await keys(in: Item.collection).map { key in
            try Self.id(Item.self, key: key)
        }
    }

    /// The number of items of type `Item`.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items.
    /// - Throws: ``/Trove/TroveError`` when the server fails.
    public func count<Item: Persistable>(of type: Item.Type) async throws -> Int {
        try await count(in: Item.collection)
    }

    /// The `Item.ID` of a stored key, or Trove's error for a key that is not one.
    static func id<Item: Persistable>(_ type: Item.Type, key: String) throws -> Item.ID {
        guard let id = Item.ID(itemKey: key) else {
            throw TroveError(
                code: .invalidKey, message: "The stored key '\(key)' is not a valid \(Item.ID.self).",
                collection: Item.collection, key: key)
        }
        return id
    }
}
