// The non-generic half of the typed writes: the SQL, the cache bookkeeping and the building of
// errors, compiled once, under the `@inlinable` typed API of `ReadWriteTransaction+Persistable.swift`.

extension ReadWriteTransaction {
    /// The most items the connection's cache holds.
    @usableFromInline
    var itemCacheLimit: Int {
        checkedCore.items.limit
    }

    /// Stores the row at `cacheKey` of an item of type `model`: its data as `encodeData` writes
    /// it, and its metadata as `encodeMetadata` writes it when `withMetadata`, `NULL` otherwise.
    /// Records the change and hands it to the extensions that follow the collection, with the
    /// value that `item` returns (called only when there are such extensions); does not touch
    /// the caches.
    ///
    /// When the database has seen fields that a coder of this collection did not know (see
    /// ``UnknownFieldRegistry``), the stored row is read first and the fields of its data (and of
    /// its metadata, when `withMetadata`) that `probeData` (`probeMetadata`) skips are kept in
    /// the new row, before the new encoding (see ``UnknownFields``). Other collections pay one
    /// atomic load.
    ///
    /// The first write of `model` on this connection records its schema in the file, unless the
    /// database knows the file holds it (see ``ConnectionCore/recordSchemaOnFirstWrite(of:)``);
    /// later writes pay one set lookup.
    ///
    /// - Throws: ``TroveError`` naming the item and the field when a closure throws, with code
    ///   ``TroveError/Code/nestedUnknownFields`` when a stored field that the coder knows holds
    ///   fields it does not know, or when SQLite or an extension fails.
    @usableFromInline
    func storeItemRow(
        of model: Any.Type, at cacheKey: CacheKey, withMetadata: Bool, item: () -> Any,
        encodeData: (inout BinaryWriter) throws -> Void, encodeMetadata: (inout BinaryWriter) throws -> Void,
        probeData: (inout BinaryReader) throws -> Void, probeMetadata: (inout BinaryReader) throws -> Void
    ) throws {
        let core = checkedCore
        if !core.typesWithRecordedSchema.contains(ObjectIdentifier(model)) {
            try core.recordSchemaOnFirstWrite(of: model)
        }
        // Each access to a writer of the core is checked for exclusivity at run time: the common
        // path empties each writer in the same access that encodes into it.
        let keepsUnknownFields = core.database.unknownFields.contains(cacheKey.collection)
        if keepsUnknownFields {
            core.writer.removeAll(keepingCapacity: true)
            core.metadataWriter.removeAll(keepingCapacity: true)
            try keepUnknownFields(
                core, at: cacheKey, withMetadata: withMetadata, probeData: probeData, probeMetadata: probeMetadata)
        }
        try encode(into: &core.writer, emptying: !keepsUnknownFields, cacheKey: cacheKey, field: nil, encodeData)
        if withMetadata {
            try encode(
                into: &core.metadataWriter, emptying: !keepsUnknownFields, cacheKey: cacheKey, field: "metadata",
                encodeMetadata)
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

    /// Copies into the connection's writers the fields of the stored row at `cacheKey` that the
    /// probes skip: of its data into ``ConnectionCore/writer``, of its metadata (when
    /// `withMetadata` and it is not `NULL`) into ``ConnectionCore/metadataWriter``. Does nothing
    /// when there is no row.
    private func keepUnknownFields(
        _ core: ConnectionCore, at cacheKey: CacheKey, withMetadata: Bool,
        probeData: (inout BinaryReader) throws -> Void, probeMetadata: (inout BinaryReader) throws -> Void
    ) throws {
        let statement = try core.sqlite.cachedStatement(withMetadata ? FileLayout.selectItem : FileLayout.selectData)
        defer { statement.reset() }
        try statement.bind(cacheKey.collection, at: 1)
        try statement.bind(cacheKey.key, at: 2)
        guard try statement.step() else { return }
        do {
            try UnknownFields.append(from: statement.bytes(at: 0), probe: probeData, to: &core.writer)
        } catch {
            throw TroveError.coderFailure(
                error, decoding: false, collection: cacheKey.collection, key: cacheKey.key, field: nil)
        }
        guard withMetadata, !statement.isNull(at: 1) else { return }
        do {
            try UnknownFields.append(from: statement.bytes(at: 1), probe: probeMetadata, to: &core.metadataWriter)
        } catch {
            throw TroveError.coderFailure(
                error, decoding: false, collection: cacheKey.collection, key: cacheKey.key, field: "metadata")
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

    /// Replaces the metadata column of the row at `cacheKey`, of an item of type `model`, with
    /// what `encode` writes, or with `NULL` when `isNull`, and records the change. Evicts the
    /// item entry, whose metadata is replaced; evicts the metadata entry when no row changed,
    /// and otherwise leaves the caller to cache the new metadata there.
    ///
    /// As ``storeItemRow(of:at:withMetadata:item:encodeData:encodeMetadata:probeData:probeMetadata:)``
    /// does, keeps the stored fields that `probe` skips when the collection has held unknown
    /// fields, and records the schema of `model` as a first write does.
    ///
    /// - Returns: `true` when a row was changed.
    /// - Throws: ``TroveError`` naming the item when `encode` throws, with code
    ///   ``TroveError/Code/nestedUnknownFields`` when a stored field that the coder knows holds
    ///   fields it does not know, or when SQLite fails.
    @usableFromInline
    func storeMetadataColumn(
        of model: Any.Type, at cacheKey: CacheKey, isNull: Bool, encode: (inout BinaryWriter) throws -> Void,
        probe: (inout BinaryReader) throws -> Void
    ) throws -> Bool {
        let core = checkedCore
        if !core.typesWithRecordedSchema.contains(ObjectIdentifier(model)) {
            try core.recordSchemaOnFirstWrite(of: model)
        }
        let changed: Bool
        if isNull {
            changed = try updateMetadata(core, key: cacheKey.key, collection: cacheKey.collection, metadata: nil)
        } else {
            let keepsUnknownFields = core.database.unknownFields.contains(cacheKey.collection)
            if keepsUnknownFields {
                core.writer.removeAll(keepingCapacity: true)
                try keepUnknownMetadataFields(core, at: cacheKey, probe: probe)
            }
            try self.encode(
                into: &core.writer, emptying: !keepsUnknownFields, cacheKey: cacheKey, field: "metadata", encode)
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

    /// Copies into ``ConnectionCore/writer`` the fields of the stored metadata at `cacheKey` that
    /// `probe` skips. Does nothing when there is no row or no metadata.
    private func keepUnknownMetadataFields(
        _ core: ConnectionCore, at cacheKey: CacheKey, probe: (inout BinaryReader) throws -> Void
    ) throws {
        let statement = try core.sqlite.cachedStatement(FileLayout.selectMetadata)
        defer { statement.reset() }
        try statement.bind(cacheKey.collection, at: 1)
        try statement.bind(cacheKey.key, at: 2)
        guard try statement.step(), !statement.isNull(at: 0) else { return }
        do {
            try UnknownFields.append(from: statement.bytes(at: 0), probe: probe, to: &core.writer)
        } catch {
            throw TroveError.coderFailure(
                error, decoding: false, collection: cacheKey.collection, key: cacheKey.key, field: "metadata")
        }
    }

    /// Empties `writer` when `emptying` (otherwise it holds the stored fields kept by the write)
    /// and calls `body` with it; a failure names the item and the field.
    private func encode(
        into writer: inout BinaryWriter, emptying: Bool, cacheKey: CacheKey, field: String?,
        _ body: (inout BinaryWriter) throws -> Void
    ) throws {
        do {
            if emptying {
                writer.removeAll(keepingCapacity: true)
            }
            try body(&writer)
        } catch {
            throw TroveError.coderFailure(
                error, decoding: false, collection: cacheKey.collection, key: cacheKey.key, field: field)
        }
    }
}
