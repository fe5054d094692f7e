extension ReadTransaction {
    /// The item of type `Item` at `key`, from the connection's cache or decoded from the
    /// database, with its metadata.
    ///
    /// ```swift
    /// let user = try tx.read(User.self, key: id)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The item, or `nil` when there is none at `key`.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` naming the collection,
    ///   key and field when the stored bytes cannot be decoded, or when SQLite fails.
    @inlinable
    public func read<Item: Persistable>(_ type: Item.Type, key: Item.ID) throws -> Item? {
        let cacheKey = CacheKey(collection: Item.collection, key: key.itemKey)
        if let cached = cachedItem(at: cacheKey, as: Item.self) {
            return cached
        }
        if sharesDecodedItems, Item.self is any ShareableItem.Type {
            let shared = try readSharedItem(at: cacheKey, withMetadata: Item.Metadata.self != NoMetadata.self) {
                data, metadata in
                try ItemReader<Item>(transaction: self).decodeItem(key: key.itemKey, data: data, metadata: metadata, useCache: false)
            }
            guard let item = shared as? Item else { return nil }
            cacheItem(item, at: cacheKey)
            return item
        }
        var item: Item?
        try readItemRow(
            at: cacheKey, withMetadata: Item.Metadata.self != NoMetadata.self,
            decodeData: { item = try decodeStored(Item.Coder.self, from: $0, collection: Item.collection) },
            decodeMetadata: {
                item?.metadata = try decodeStored(Item.MetadataCoder.self, from: $0, collection: Item.collection)
            })
        if let item {
            cacheItem(item, at: cacheKey)
        }
        return item
    }

    /// The items of type `Item` at `keys`, in the order of `keys`; keys with no item are skipped.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The items found.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    /// - Complexity: One indexed lookup per key not in the cache.
    @inlinable
    public func read<Item: Persistable>(_ type: Item.Type, keys: some Sequence<Item.ID>) throws -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(keys.underestimatedCount)
        for key in keys {
            if let item = try read(Item.self, key: key) {
                items.append(item)
            }
        }
        return items
    }

    /// Every item of type `Item`, in the order of their stored keys.
    ///
    /// Items are decoded from the database without going through the cache, so that reading a
    /// large collection does not evict the working set.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The items.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    /// - Complexity: O(n) in the number of items of the collection.
    @inlinable
    public func readAll<Item: Persistable>(_ type: Item.Type) throws -> [Item] {
        var items: [Item] = []
        try readAllItemRows(
            in: Item.collection, withMetadata: Item.Metadata.self != NoMetadata.self,
            decodeData: { items.append(try decodeStored(Item.Coder.self, from: $0, collection: Item.collection)) },
            decodeMetadata: {
                items[items.count - 1].metadata = try decodeStored(
                    Item.MetadataCoder.self, from: $0, collection: Item.collection)
            })
        return items
    }

    /// The metadata of the item of type `Item` at `key`, without decoding the item.
    ///
    /// Only the metadata column is read, or the connection's cache: a cached item answers with
    /// its metadata.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no such item or it has no metadata.
    /// - Throws: ``TroveError`` when the stored metadata cannot be decoded or SQLite fails.
    @inlinable
    public func metadata<Item: Persistable>(for type: Item.Type, key: Item.ID) throws -> Item.Metadata? {
        guard Item.Metadata.self != NoMetadata.self else { return nil }
        let cacheKey = CacheKey(collection: Item.collection, key: key.itemKey)
        if let cached = cachedItem(at: cacheKey, as: Item.self) {
            return cached.metadata
        }
        if let cached = cachedMetadata(at: cacheKey, as: CachedMetadata<Item.Metadata>.self) {
            return cached.value
        }
        var metadata: Item.Metadata?
        let found = try readMetadataRow(at: cacheKey) {
            metadata = try decodeStored(Item.MetadataCoder.self, from: $0, collection: Item.collection)
        }
        guard found else { return nil }
        admitMetadata(CachedMetadata(value: metadata), at: cacheKey)
        return metadata
    }

    /// Whether an item of type `Item` is stored at `key`.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when the item exists.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func contains<Item: Persistable>(_ type: Item.Type, key: Item.ID) throws -> Bool {
        if cachedItem(at: CacheKey(collection: Item.collection, key: key.itemKey), as: Item.self) != nil {
            return true
        }
        return try hasItem(forKey: key.itemKey, in: Item.collection)
    }

    /// The keys of every item of type `Item`, in stored order.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The keys.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/invalidKey`` when a stored key is not
    ///   a valid `Item.ID`, or when SQLite fails.
    public func keys<Item: Persistable>(of type: Item.Type) throws -> [Item.ID] {
        try keys(in: Item.collection).map { key in
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
    /// - Throws: ``TroveError`` when SQLite fails.
    public func count<Item: Persistable>(of type: Item.Type) throws -> Int {
        try count(in: Item.collection)
    }
}
