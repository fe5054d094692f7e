extension ReadWriteTransaction {
    /// Stores `item` and its metadata under its key in its collection, replacing any item there,
    /// in one statement.
    ///
    /// The item is also put in the connection's cache.
    ///
    /// Fields that this version of the model does not know are kept: when this database has
    /// read, in `Item`'s collection, an item or metadata with fields its coder skipped (written
    /// by a newer version of the model), a write to that collection keeps the stored item's
    /// unknown fields, at the cost of one extra point read. A stored field that the coder knows
    /// but that holds unknown nested fields cannot be kept, and the write is refused (see
    /// <doc:SchemaEvolution>).
    ///
    /// - Parameter item: The item to store.
    /// - Throws: ``TroveError`` when the item cannot be encoded or SQLite fails; with code
    ///   ``TroveError/Code/nestedUnknownFields`` when the write would lose unknown fields nested
    ///   in a known field.
    @inlinable
    public func write<Item: Persistable>(_ item: Item) throws {
        try write(item, caching: true)
    }

    /// Stores `item`, and caches it (with its metadata) or evicts its stale entry; a metadata
    /// entry of its key is evicted either way.
    @inlinable
    func write<Item: Persistable>(_ item: Item, caching: Bool) throws {
        let cacheKey = CacheKey(collection: Item.collection, key: item.id.itemKey)
        let metadata = item.metadata
        try storeItemRow(
            of: Item.self, at: cacheKey, withMetadata: metadata != nil, item: { item },
            encodeData: { try Item.Coder.encode(item, to: &$0) },
            encodeMetadata: { if let metadata { try Item.MetadataCoder.encode(metadata, to: &$0) } },
            probeData: { _ = try Item.Coder.decode(from: &$0) },
            probeMetadata: { _ = try Item.MetadataCoder.decode(from: &$0) })
        if caching {
            cacheWrittenItem(item, at: cacheKey, evictingMetadata: Item.Metadata.self != NoMetadata.self)
        } else {
            evictCachedEntries(at: cacheKey)
        }
    }

    /// Stores every item of `items`, in this one transaction.
    ///
    /// The last items are also put in the connection's cache, as many as it holds.
    ///
    /// Unknown fields are kept as ``write(_:)`` keeps them.
    ///
    /// - Parameter items: The items to store.
    /// - Throws: ``TroveError`` when an item cannot be encoded or SQLite fails.
    /// - Complexity: One statement per item (two where unknown fields are kept).
    @inlinable
    public func write<Items: Sequence>(_ items: Items) throws where Items.Element: Persistable {
        // Caching an item costs a cache entry (a box, an insertion, an eviction once full). Of a
        // batch larger than the cache, only the last items would still be cached at the end, the
        // earlier ones being evicted by the later ones: those are not cached at all (their stale
        // entries, if any, are evicted). The cache ends as it would have.
        let limit = itemCacheLimit
        let count = items.underestimatedCount
        var index = 0
        for item in items {
            try write(item, caching: count - index <= limit)
            index += 1
        }
    }

    /// Replaces the metadata of the item of type `Item` at `key`, without reading or rewriting
    /// the item. Does nothing when there is no such item.
    ///
    /// Unknown fields of the stored metadata are kept as ``write(_:)-(Item)`` keeps those of items.
    ///
    /// - Parameters:
    ///   - metadata: The new metadata, or `nil` to remove it.
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was changed.
    /// - Throws: ``TroveError`` when the metadata cannot be encoded or SQLite fails; with code
    ///   ``TroveError/Code/nestedUnknownFields`` when the write would lose unknown fields nested
    ///   in a known field.
    @inlinable
    @discardableResult
    public func setMetadata<Item: Persistable>(_ metadata: Item.Metadata?, for type: Item.Type, key: Item.ID) throws -> Bool {
        let cacheKey = CacheKey(collection: Item.collection, key: key.itemKey)
        let changed = try storeMetadataColumn(
            of: Item.self, at: cacheKey, isNull: metadata == nil,
            encode: { if let metadata { try Item.MetadataCoder.encode(metadata, to: &$0) } },
            probe: { _ = try Item.MetadataCoder.decode(from: &$0) })
        if changed {
            cacheMetadata(CachedMetadata(value: metadata), at: cacheKey)
        }
        return changed
    }

    /// Removes `item` (by its key) from its collection.
    ///
    /// - Parameter item: The item to remove.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @inlinable
    @discardableResult
    public func remove<Item: Persistable>(_ item: Item) throws -> Bool {
        try removeItem(forKey: item.id.itemKey, in: Item.collection)
    }

    /// Removes every item of `items` (by key), as one batch (see
    /// ``ReadWriteTransaction/removeItems(forKeys:in:)``).
    ///
    /// - Parameter items: The items to remove.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @inlinable
    @discardableResult
    public func remove<Items: Sequence>(_ items: Items) throws -> Int where Items.Element: Persistable {
        try removeItems(forKeyArray: items.map { $0.id.itemKey }, in: Items.Element.collection)
    }

    /// Removes the item of type `Item` at `key`.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @inlinable
    @discardableResult
    public func remove<Item: Persistable>(_ type: Item.Type, key: Item.ID) throws -> Bool {
        try removeItem(forKey: key.itemKey, in: Item.collection)
    }

    /// Removes the items of type `Item` at `keys`, as one batch (see
    /// ``ReadWriteTransaction/removeItems(forKeys:in:)``).
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @inlinable
    @discardableResult
    public func remove<Item: Persistable>(_ type: Item.Type, keys: some Sequence<Item.ID>) throws -> Int {
        try removeItems(forKeyArray: keys.map { $0.itemKey }, in: Item.collection)
    }

    /// Removes every item of type `Item`: the whole collection.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @inlinable
    @discardableResult
    public func removeAll<Item: Persistable>(_ type: Item.Type) throws -> Int {
        try removeAllItems(in: Item.collection)
    }
}
