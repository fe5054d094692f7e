// The non-generic half of the typed writes: the SQL, the cache bookkeeping and the building of
// errors, compiled once, under the `@inlinable` typed API of `ReadWriteTransaction+Persistable.swift`.

extension ReadWriteTransaction {
    /// The most items the connection's cache holds.
    @usableFromInline
    var itemCacheLimit: Int {
        checkedCore.items.limit
    }

    /// Stores the row at `cacheKey`: its data as `encodeData` writes it, and its metadata as
    /// `encodeMetadata` writes it when `withMetadata`, `NULL` otherwise. Records the change and
    /// hands it to the extensions that follow the collection, with the value that `item` returns
    /// (called only when there are such extensions); does not touch the caches.
    ///
    /// - Throws: ``TroveError`` naming the item and the field when a closure throws, or when
    ///   SQLite or an extension fails.
    @usableFromInline
    func storeItemRow(
        at cacheKey: CacheKey, withMetadata: Bool, item: () -> Any, encodeData: (inout BinaryWriter) throws -> Void,
        encodeMetadata: (inout BinaryWriter) throws -> Void
    ) throws {
        let core = checkedCore
        try encode(into: &core.writer, cacheKey: cacheKey, field: nil, encodeData)
        if withMetadata {
            try encode(into: &core.metadataWriter, cacheKey: cacheKey, field: "metadata", encodeMetadata)
            // SQLite reads the writers' bytes in place: `upsert` resets its statement before they go.
            try core.writer.withUnsafeBytes { data in
                try core.metadataWriter.withUnsafeBytes { metadata in
                    try upsert(
                        core, key: cacheKey.key, collection: cacheKey.collection, data: data, metadata: metadata,
                        item: item)
                }
            }
        } else {
            try core.writer.withUnsafeBytes { data in
                try upsert(
                    core, key: cacheKey.key, collection: cacheKey.collection, data: data, metadata: nil, item: item)
            }
        }
    }

    /// Caches `item`, just written. With `evictingMetadata`, evicts the metadata entry of its
    /// key: the item entry answers metadata reads, and that entry held the metadata replaced.
    @usableFromInline
    func cacheWrittenItem(_ item: Any, at cacheKey: CacheKey, evictingMetadata: Bool) {
        let core = checkedCore
        core.items.set(item, for: cacheKey)
        if evictingMetadata {
            core.metadata.removeValue(for: cacheKey)
        }
    }

    /// Evicts the item entry and the metadata entry at `cacheKey`.
    @usableFromInline
    func evictCachedEntries(at cacheKey: CacheKey) {
        checkedCore.evict(cacheKey)
    }

    /// Replaces the metadata column of the row at `cacheKey` with what `encode` writes, or with
    /// `NULL` when `isNull`, and records the change. Evicts the item entry, whose metadata is
    /// replaced; evicts the metadata entry when no row changed, and otherwise leaves the caller
    /// to cache the new metadata there.
    ///
    /// - Returns: `true` when a row was changed.
    /// - Throws: ``TroveError`` naming the item when `encode` throws, or when SQLite fails.
    @usableFromInline
    func storeMetadataColumn(
        at cacheKey: CacheKey, isNull: Bool, encode: (inout BinaryWriter) throws -> Void
    ) throws -> Bool {
        let core = checkedCore
        let changed: Bool
        if isNull {
            changed = try updateMetadata(core, key: cacheKey.key, collection: cacheKey.collection, metadata: nil)
        } else {
            try self.encode(into: &core.writer, cacheKey: cacheKey, field: "metadata", encode)
            changed = try core.writer.withUnsafeBytes {
                try updateMetadata(core, key: cacheKey.key, collection: cacheKey.collection, metadata: $0)
            }
        }
        core.items.removeValue(for: cacheKey)
        if !changed {
            core.metadata.removeValue(for: cacheKey)
        }
        return changed
    }

    /// Empties `writer` and calls `body` with it; a failure names the item and the field.
    private func encode(
        into writer: inout BinaryWriter, cacheKey: CacheKey, field: String?, _ body: (inout BinaryWriter) throws -> Void
    ) throws {
        do {
            writer.removeAll(keepingCapacity: true)
            try body(&writer)
        } catch {
            throw TroveError.coderFailure(
                error, decoding: false, collection: cacheKey.collection, key: cacheKey.key, field: field)
        }
    }
}
