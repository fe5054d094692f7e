// The non-generic half of the typed reads. The typed API (`ReadTransaction+Persistable.swift`)
// is `@inlinable`, so that it is specialized for each item type in the caller's module; the SQL,
// the cache bookkeeping and the building of errors stay here, compiled once.

/// Boxes a cached metadata value, so that a cached `nil` is told apart from a missing entry.
///
/// The metadata cache holds only what was read or written alone (``ReadTransaction/metadata(for:key:)``,
/// ``ReadWriteTransaction/setMetadata(_:for:key:)``): a cached item carries its own metadata, and
/// answers metadata reads from the item cache.
@usableFromInline
struct CachedMetadata<Metadata> {
    @usableFromInline var value: Metadata?

    @inlinable
    init(value: Metadata?) {
        self.value = value
    }
}

extension ReadTransaction {
    /// Decodes a value of `collection` with `coder` from all of `bytes`. When the decoder skipped
    /// fields it does not know, notes the collection in the database, so that later typed writes
    /// to it keep such fields (see ``UnknownFields``): the only cost on the common path is a test
    /// of the reader's flags.
    @inlinable
    func decodeStored<Coder: ValueCoder>(
        _ coder: Coder.Type, from bytes: UnsafeRawBufferPointer, collection: @autoclosure () -> String
    ) throws -> Coder.Value {
        var reader = BinaryReader(bytes)
        let value = try Coder.decode(from: &reader)
        if !reader.flags.isEmpty {
            noteUnknownFields(in: collection())
        }
        return value
    }

    /// Records that a value of `collection` held fields its coder does not know.
    @usableFromInline
    func noteUnknownFields(in collection: String) {
        checkedCore.database.unknownFields.note(collection)
    }

    /// The cached item at `cacheKey`, marked as most recently used.
    @usableFromInline
    func cachedItem(at cacheKey: CacheKey) -> Any? {
        recorder?.recordKey(cacheKey.key, in: cacheKey.collection)
        return checkedCore.items.value(for: cacheKey)
    }

    /// The cached metadata entry (a ``CachedMetadata``) at `cacheKey`, marked as most recently
    /// used.
    @usableFromInline
    func cachedMetadata(at cacheKey: CacheKey) -> Any? {
        recorder?.recordKey(cacheKey.key, in: cacheKey.collection)
        return checkedCore.metadata.value(for: cacheKey)
    }

    /// Caches `item`, read from the database after a miss, if the cache admits it (see
    /// ``LRUCache/admit(_:for:)``). A metadata entry of its key, if any, holds the same stored
    /// metadata, so it stays.
    @usableFromInline
    func cacheItem(_ item: Any, at cacheKey: CacheKey) {
        checkedCore.items.admit(item, for: cacheKey)
    }

    /// Caches `metadata` (a ``CachedMetadata``), written without its item.
    @usableFromInline
    func cacheMetadata(_ metadata: Any, at cacheKey: CacheKey) {
        checkedCore.metadata.set(metadata, for: cacheKey)
    }

    /// Caches `metadata` (a ``CachedMetadata``), read without its item after a miss, if the
    /// cache admits it (see ``LRUCache/admit(_:for:)``).
    @usableFromInline
    func admitMetadata(_ metadata: Any, at cacheKey: CacheKey) {
        checkedCore.metadata.admit(metadata, for: cacheKey)
    }

    /// Reads the row at `cacheKey`: calls `decodeData` with its data, then `decodeMetadata` with
    /// its metadata when `withMetadata` and the column is not `NULL`. Does nothing when there is
    /// no row.
    ///
    /// - Throws: ``TroveError`` naming the item and the field when a closure throws, or when
    ///   SQLite fails.
    @usableFromInline
    func readItemRow(
        at cacheKey: CacheKey, withMetadata: Bool, decodeData: (UnsafeRawBufferPointer) throws -> Void,
        decodeMetadata: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        recorder?.recordKey(cacheKey.key, in: cacheKey.collection)
        let statement = try checkedCore.sqlite.cachedStatement(withMetadata ? FileLayout.selectItem : FileLayout.selectData)
        defer { statement.reset() }
        try statement.bind(cacheKey.collection, at: 1)
        try statement.bind(cacheKey.key, at: 2)
        guard try statement.step(collection: cacheKey.collection, key: cacheKey.key) else { return }
        try decodeRow(
            of: statement, dataColumn: 0, metadataColumn: withMetadata ? 1 : nil, collection: cacheKey.collection,
            key: { cacheKey.key }, decodeData: decodeData, decodeMetadata: decodeMetadata)
    }

    /// Reads the rows at `rowIDs`, of `collection`, in that order: for each, `cached` is asked
    /// first with the row's key, and when it answers `false` the row's data (and metadata when
    /// `withMetadata`) are handed to the decoding closures, then `decoded` is called. A view's
    /// rows are read this way: one lookup by row id each, with no second lookup by key.
    ///
    /// One statement per row: measured against one statement per chunk of row ids (an `IN` list,
    /// or a `UNION ALL` of lookups), it costs the same or less, since SQLite builds a temporary
    /// table for the list and opens a cursor per lookup of the union.
    ///
    /// - Parameter missing: The error to throw when there is no row at the row id at that offset
    ///   of `rowIDs`.
    /// - Throws: `missing`'s error; ``TroveError`` naming the item and the field when a closure
    ///   throws, or when SQLite fails.
    @usableFromInline
    func readItemRows(
        rowIDs: [Int64], collection: String, withMetadata: Bool, missing: (Int) -> TroveError,
        cached: (CacheKey) -> Bool, decodeData: (UnsafeRawBufferPointer) throws -> Void,
        decodeMetadata: (UnsafeRawBufferPointer) throws -> Void, decoded: (CacheKey) -> Void
    ) throws {
        let statement = try checkedCore.sqlite.cachedStatement(FileLayout.selectRowByID)
        var offset = 0
        while offset < rowIDs.count {
            defer {
                statement.reset()
                offset += 1
            }
            try statement.bind(rowIDs[offset], at: 1)
            guard try statement.step(collection: collection, key: nil) else { throw missing(offset) }
            try handOverItemRow(
                of: statement, collection: collection, withMetadata: withMetadata, cached: cached,
                decodeData: decodeData, decodeMetadata: decodeMetadata, decoded: decoded)
        }
    }

    /// Hands over the item of the current row of `statement`, whose columns are its key, data and
    /// metadata, as index queries and view reads read their rows: `cached` is asked first with
    /// the row's key, and when it answers `false` the data (and metadata when `withMetadata` and
    /// the column is not `NULL`) go to the decoding closures, then `decoded` is called.
    ///
    /// - Throws: ``TroveError`` naming the item and the field when a closure throws.
    func handOverItemRow(
        of statement: Statement, collection: String, withMetadata: Bool, cached: (CacheKey) -> Bool,
        decodeData: (UnsafeRawBufferPointer) throws -> Void, decodeMetadata: (UnsafeRawBufferPointer) throws -> Void,
        decoded: (CacheKey) -> Void
    ) throws {
        let key = statement.string(at: 0)
        let cacheKey = CacheKey(collection: collection, key: key)
        if cached(cacheKey) { return }
        try decodeRow(
            of: statement, dataColumn: 1, metadataColumn: withMetadata ? 2 : nil, collection: collection,
            key: { key }, decodeData: decodeData, decodeMetadata: decodeMetadata)
        decoded(cacheKey)
    }

    /// The items that `read` hands over row by row, in order: each from the cache when `read`'s
    /// `cached` closure finds it there, else decoded from the row's bytes and cached. Index
    /// queries and view reads collect their items with it, specialized for `Item` where they are
    /// called, while `read` (their non-generic part) runs the SQL.
    @inlinable
    func decodedItems<Item: Persistable>(
        _ type: Item.Type,
        reading read: (
            _ cached: (CacheKey) -> Bool, _ decodeData: (UnsafeRawBufferPointer) throws -> Void,
            _ decodeMetadata: (UnsafeRawBufferPointer) throws -> Void, _ decoded: (CacheKey) -> Void
        ) throws -> Void
    ) throws -> [Item] {
        let transaction = self
        var items: [Item] = []
        try read(
            { cacheKey in
                guard let cached = transaction.cachedItem(at: cacheKey) as? Item else { return false }
                items.append(cached)
                return true
            },
            { items.append(try transaction.decodeStored(Item.Coder.self, from: $0, collection: Item.collection)) },
            {
                items[items.count - 1].metadata = try transaction.decodeStored(
                    Item.MetadataCoder.self, from: $0, collection: Item.collection)
            },
            { cacheKey in transaction.cacheItem(items[items.count - 1], at: cacheKey) })
        return items
    }

    /// Reads every row of `collection` in key order, each as
    /// ``readItemRow(at:withMetadata:decodeData:decodeMetadata:)`` does.
    @usableFromInline
    func readAllItemRows(
        in collection: String, withMetadata: Bool, decodeData: (UnsafeRawBufferPointer) throws -> Void,
        decodeMetadata: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        recorder?.recordCollection(collection)
        let statement = try checkedCore.sqlite.cachedStatement(FileLayout.selectAllInCollection)
        defer { statement.reset() }
        try statement.bind(collection, at: 1)
        while try statement.step(collection: collection, key: nil) {
            try decodeRow(
                of: statement, dataColumn: 1, metadataColumn: withMetadata ? 2 : nil, collection: collection,
                key: { statement.string(at: 0) }, decodeData: decodeData, decodeMetadata: decodeMetadata)
        }
    }

    /// Reads the metadata column of the row at `cacheKey`, and calls `decode` with it unless it
    /// is `NULL`.
    ///
    /// - Returns: `false` when there is no row.
    /// - Throws: ``TroveError`` naming the item when `decode` throws, or when SQLite fails.
    @usableFromInline
    func readMetadataRow(at cacheKey: CacheKey, decode: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        recorder?.recordKey(cacheKey.key, in: cacheKey.collection)
        let statement = try checkedCore.sqlite.cachedStatement(FileLayout.selectMetadata)
        defer { statement.reset() }
        try statement.bind(cacheKey.collection, at: 1)
        try statement.bind(cacheKey.key, at: 2)
        guard try statement.step(collection: cacheKey.collection, key: cacheKey.key) else { return false }
        if !statement.isNull(at: 0) {
            do {
                try decode(statement.bytes(at: 0))
            } catch {
                throw TroveError.coderFailure(
                    error, decoding: true, collection: cacheKey.collection, key: cacheKey.key, field: "metadata")
            }
        }
        return true
    }

    /// Hands the data and metadata of the current row to the decoding closures; a failure names
    /// the item and the field. Index queries use it too (`IndexQueryPlanner`).
    func decodeRow(
        of statement: Statement, dataColumn: Int32, metadataColumn: Int32?, collection: String, key: () -> String,
        decodeData: (UnsafeRawBufferPointer) throws -> Void, decodeMetadata: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        do {
            try decodeData(statement.bytes(at: dataColumn))
        } catch {
            throw TroveError.coderFailure(error, decoding: true, collection: collection, key: key(), field: nil)
        }
        guard let metadataColumn, !statement.isNull(at: metadataColumn) else { return }
        do {
            try decodeMetadata(statement.bytes(at: metadataColumn))
        } catch {
            throw TroveError.coderFailure(error, decoding: true, collection: collection, key: key(), field: "metadata")
        }
    }
}
