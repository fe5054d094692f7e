extension ReadWriteTransaction {
    /// Stores `item` and its metadata under its key in its collection, replacing any item there,
    /// in one statement.
    ///
    /// The item is also put in the connection's cache.
    ///
    /// - Parameter item: The item to store.
    /// - Throws: ``TroveError`` when the item cannot be encoded or SQLite fails.
    public func write<Item: Persistable>(_ item: Item) throws {
        try write(item, cachingItem: true, cachingMetadata: true)
    }

    /// Stores `item`, and caches it and its metadata or evicts their stale entries.
    func write<Item: Persistable>(_ item: Item, cachingItem: Bool, cachingMetadata: Bool) throws {
        let core = checkedCore
        let key = item.id.itemKey
        try encode(item, with: Item.Coder.self, into: &core.writer, collection: Item.collection, key: key, field: nil)
        if let metadata = item.metadata {
            try encode(
                metadata, with: Item.MetadataCoder.self, into: &core.metadataWriter, collection: Item.collection,
                key: key, field: "metadata")
            try core.writer.withUnsafeBytes { data in
                try core.metadataWriter.withUnsafeBytes { metadataBytes in
                    try upsert(core, key: key, collection: Item.collection, data: data, metadata: metadataBytes)
                }
            }
        } else {
            try core.writer.withUnsafeBytes { data in
                try upsert(core, key: key, collection: Item.collection, data: data, metadata: nil)
            }
        }
        let cacheKey = CacheKey(collection: Item.collection, key: key)
        if cachingItem {
            core.items.set(item, for: cacheKey)
        } else {
            core.items.removeValue(for: cacheKey)
        }
        if Item.Metadata.self != NoMetadata.self {
            if cachingMetadata {
                core.metadata.set(CachedMetadata(value: item.metadata), for: cacheKey)
            } else {
                core.metadata.removeValue(for: cacheKey)
            }
        }
    }

    /// Stores every item of `items`, in this one transaction.
    ///
    /// The last items are also put in the connection's cache, as many as it holds.
    ///
    /// - Parameter items: The items to store.
    /// - Throws: ``TroveError`` when an item cannot be encoded or SQLite fails.
    /// - Complexity: One statement per item.
    public func write<Items: Sequence>(_ items: Items) throws where Items.Element: Persistable {
        // Caching an item costs an entry in each cache (a box, an insertion, an eviction once
        // full). Of a batch larger than a cache, only the last items would still be cached at the
        // end, the earlier ones being evicted by the later ones: those are not cached at all (their
        // stale entries, if any, are evicted). The cache ends as it would have.
        let core = checkedCore
        let count = items.underestimatedCount
        var index = 0
        for item in items {
            let remaining = count - index
            try write(item, cachingItem: remaining <= core.items.limit, cachingMetadata: remaining <= core.metadata.limit)
            index += 1
        }
    }

    /// Replaces the metadata of the item of type `Item` at `key`, without reading or rewriting
    /// the item. Does nothing when there is no such item.
    ///
    /// - Parameters:
    ///   - metadata: The new metadata, or `nil` to remove it.
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was changed.
    /// - Throws: ``TroveError`` when the metadata cannot be encoded or SQLite fails.
    @discardableResult
    public func setMetadata<Item: Persistable>(_ metadata: Item.Metadata?, for type: Item.Type, key: Item.ID) throws -> Bool {
        let core = checkedCore
        let keyString = key.itemKey
        let changed: Bool
        if let metadata {
            try encode(
                metadata, with: Item.MetadataCoder.self, into: &core.writer, collection: Item.collection,
                key: keyString, field: "metadata")
            changed = try core.writer.withUnsafeBytes {
                try updateMetadata(core, key: keyString, collection: Item.collection, metadata: $0)
            }
        } else {
            changed = try updateMetadata(core, key: keyString, collection: Item.collection, metadata: nil)
        }
        let cacheKey = CacheKey(collection: Item.collection, key: keyString)
        core.items.removeValue(for: cacheKey)
        if changed {
            core.metadata.set(CachedMetadata(value: metadata), for: cacheKey)
        } else {
            core.metadata.removeValue(for: cacheKey)
        }
        return changed
    }

    /// Removes `item` (by its key) from its collection.
    ///
    /// - Parameter item: The item to remove.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func remove<Item: Persistable>(_ item: Item) throws -> Bool {
        try removeItem(forKey: item.id.itemKey, in: Item.collection)
    }

    /// Removes every item of `items` (by key).
    ///
    /// - Parameter items: The items to remove.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func remove<Items: Sequence>(_ items: Items) throws -> Int where Items.Element: Persistable {
        try removeItems(forKeys: items.lazy.map { $0.id.itemKey }, in: Items.Element.collection)
    }

    /// Removes the item of type `Item` at `key`.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func remove<Item: Persistable>(_ type: Item.Type, key: Item.ID) throws -> Bool {
        try removeItem(forKey: key.itemKey, in: Item.collection)
    }

    /// Removes the items of type `Item` at `keys`.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func remove<Item: Persistable>(_ type: Item.Type, keys: some Sequence<Item.ID>) throws -> Int {
        try removeItems(forKeys: keys.lazy.map(\.itemKey), in: Item.collection)
    }

    /// Removes every item of type `Item`: the whole collection.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func removeAll<Item: Persistable>(_ type: Item.Type) throws -> Int {
        try removeAllItems(in: Item.collection)
    }

    /// Encodes `value` into `writer`, emptied first; a failure names the item and the field.
    private func encode<Coder: ValueCoder>(
        _ value: Coder.Value, with coder: Coder.Type, into writer: inout BinaryWriter, collection: String,
        key: String, field: String?
    ) throws {
        do {
            writer.removeAll(keepingCapacity: true)
            try Coder.encode(value, to: &writer)
        } catch {
            throw TroveError.coderFailure(error, decoding: false, collection: collection, key: key, field: field)
        }
    }
}
