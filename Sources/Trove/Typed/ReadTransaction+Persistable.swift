/// Boxes a cached metadata value, so that a cached `nil` is told apart from a missing entry.
///
/// The metadata cache holds only what was read or written alone (``ReadTransaction/metadata(for:key:)``,
/// ``ReadWriteTransaction/setMetadata(_:for:key:)``): a cached item carries its own metadata, and
/// answers metadata reads from the item cache.
struct CachedMetadata<Metadata> {
    var value: Metadata?
}

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
    public func read<Item: Persistable>(_ type: Item.Type, key: Item.ID) throws -> Item? {
        let core = checkedCore
        let keyString = key.itemKey
        let cacheKey = CacheKey(collection: Item.collection, key: keyString)
        if let cached = core.items.value(for: cacheKey) as? Item {
            return cached
        }
        let hasMetadata = Item.Metadata.self != NoMetadata.self
        let statement = try core.sqlite.cachedStatement(hasMetadata ? Schema.selectItem : Schema.selectData)
        defer { statement.reset() }
        try statement.bind(Item.collection, at: 1)
        try statement.bind(keyString, at: 2)
        guard try statement.step() else { return nil }
        let item = try decode(
            Item.self, from: statement, dataColumn: 0, metadataColumn: hasMetadata ? 1 : nil, key: { keyString })
        // One entry: the item carries its metadata. A metadata entry of this key, if any, holds
        // the same stored metadata, so it can stay.
        core.items.set(item, for: cacheKey)
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
    public func readAll<Item: Persistable>(_ type: Item.Type) throws -> [Item] {
        let core = checkedCore
        let hasMetadata = Item.Metadata.self != NoMetadata.self
        let statement = try core.sqlite.cachedStatement(Schema.selectAllInCollection)
        defer { statement.reset() }
        try statement.bind(Item.collection, at: 1)
        var items: [Item] = []
        while try statement.step() {
            items.append(
                try decode(Item.self, from: statement, dataColumn: 1, metadataColumn: hasMetadata ? 2 : nil, key: {
                    statement.string(at: 0)
                }))
        }
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
    public func metadata<Item: Persistable>(for type: Item.Type, key: Item.ID) throws -> Item.Metadata? {
        guard Item.Metadata.self != NoMetadata.self else { return nil }
        let core = checkedCore
        let keyString = key.itemKey
        let cacheKey = CacheKey(collection: Item.collection, key: keyString)
        if let cached = core.items.value(for: cacheKey) as? Item {
            return cached.metadata
        }
        if let cached = core.metadata.value(for: cacheKey) as? CachedMetadata<Item.Metadata> {
            return cached.value
        }
        let statement = try core.sqlite.cachedStatement(Schema.selectMetadata)
        defer { statement.reset() }
        try statement.bind(Item.collection, at: 1)
        try statement.bind(keyString, at: 2)
        guard try statement.step() else { return nil }
        var metadata: Item.Metadata?
        if !statement.isNull(at: 0) {
            do {
                metadata = try statement.bytes(at: 0).withReader { try Item.MetadataCoder.decode(from: &$0) }
            } catch {
                throw TroveError.coderFailure(error, decoding: true, collection: Item.collection, key: keyString, field: "metadata")
            }
        }
        core.metadata.set(CachedMetadata(value: metadata), for: cacheKey)
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
        if checkedCore.items.value(for: CacheKey(collection: Item.collection, key: key.itemKey)) is Item {
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

    /// Decodes the item (and its metadata) of the current row.
    func decode<Item: Persistable>(
        _ type: Item.Type, from statement: Statement, dataColumn: Int32, metadataColumn: Int32?,
        key: () -> String
    ) throws -> Item {
        var field = "data"
        do {
            var item = try statement.bytes(at: dataColumn).withReader { try Item.Coder.decode(from: &$0) }
            if let metadataColumn, !statement.isNull(at: metadataColumn) {
                field = "metadata"
                item.metadata = try statement.bytes(at: metadataColumn).withReader {
                    try Item.MetadataCoder.decode(from: &$0)
                }
            }
            return item
        } catch {
            throw TroveError.coderFailure(
                error, decoding: true, collection: Item.collection, key: key(), field: field == "data" ? nil : field)
        }
    }
}

extension UnsafeRawBufferPointer {
    /// Runs `body` with a reader over these bytes; the reader must not escape.
    func withReader<T>(_ body: (inout BinaryReader) throws -> T) rethrows -> T {
        var reader = BinaryReader(self)
        return try body(&reader)
    }
}
