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

    /// The cached item at `cacheKey` as an `Item`, marked as most recently used. A miss costs no
    /// dynamic cast: `as?` on an empty `Any?` still calls the runtime's cast, some 300
    /// instructions on every miss of a read.
    @inlinable
    func cachedItem<Item>(at cacheKey: CacheKey, as type: Item.Type) -> Item? {
        guard let cached = cachedItem(at: cacheKey) else { return nil }
        return cached as? Item
    }

    /// The cached metadata entry at `cacheKey` as an `Entry`, without a cast on a miss (see
    /// ``cachedItem(at:as:)``).
    @inlinable
    func cachedMetadata<Entry>(at cacheKey: CacheKey, as type: Entry.Type) -> Entry? {
        guard let cached = cachedMetadata(at: cacheKey) else { return nil }
        return cached as? Entry
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
    /// metadata, so it stays. `item` is evaluated only when admitted.
    @usableFromInline
    func cacheItem(_ item: @autoclosure () -> Any, at cacheKey: CacheKey) {
        checkedCore.items.admit(item(), for: cacheKey)
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
    /// One statement per chunk of up to ``rowIDChunk`` row ids
    /// (``FileLayout/selectRowsByIDs``): the row ids go in as a JSON array, and SQLite's
    /// `json_each` walks it as the outer loop of a join, looking up each row by its id in that
    /// order. Measured against one statement per row, it saves what SQLite pays per execution
    /// (opening and closing a cursor, halting and resetting the program, and allocating and freeing
    /// a buffer for each text or blob column it returns). An `IN` list was measured and rejected:
    /// SQLite builds a temporary b-tree of its values. Each row comes with its offset in the
    /// array, so that a row id with no row is told apart and thrown as `missing`.
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
        guard !rowIDs.isEmpty else { return }
        let statement = try checkedCore.sqlite.cachedStatement(FileLayout.selectRowsByIDs)
        let keys = CollectionKeys(collection)
        var chunkStart = 0
        while chunkStart < rowIDs.count {
            let chunk = rowIDs[chunkStart..<Swift.min(chunkStart + Self.rowIDChunk, rowIDs.count)]
            try JSONIntegerArray.withText(of: chunk) { bytes in
                defer { statement.reset() }
                try statement.bind(utf8Text: bytes, at: 1)
                var expected = chunkStart
                while try statement.step(collection: collection, key: nil) {
                    let offset = chunkStart + Int(statement.int64(at: 0))
                    // The rows come in the array's order (`json_each` is the outer loop); a gap
                    // is a row id with no row.
                    guard offset == expected else { throw missing(expected) }
                    expected += 1
                    try handOverItemRow(
                        of: statement, columns: 1, keys: keys, withMetadata: withMetadata, cached: cached,
                        decodeData: decodeData, decodeMetadata: decodeMetadata, decoded: decoded)
                }
                guard expected == chunkStart + chunk.count else { throw missing(expected) }
            }
            chunkStart += chunk.count
        }
    }

    /// The most row ids that ``readItemRows(rowIDs:collection:withMetadata:missing:cached:decodeData:decodeMetadata:decoded:)``
    /// binds to one statement: the JSON text of a chunk stays under about 20 KB.
    static var rowIDChunk: Int { 1_000 }

    /// Hands over the item of the current row of `statement`, whose columns from `first` on are
    /// its key, data and metadata, as index queries and view reads read their rows: `cached` is
    /// asked first with the row's key, and when it answers `false` the data (and metadata when
    /// `withMetadata` and the column is not `NULL`) go to the decoding closures, then `decoded`
    /// is called. `keys` makes the cache keys of the rows' collection.
    ///
    /// - Throws: ``TroveError`` naming the item and the field when a closure throws.
    func handOverItemRow(
        of statement: Statement, columns first: Int32 = 0, keys: CollectionKeys, withMetadata: Bool,
        cached: (CacheKey) -> Bool, decodeData: (UnsafeRawBufferPointer) throws -> Void,
        decodeMetadata: (UnsafeRawBufferPointer) throws -> Void, decoded: (CacheKey) -> Void
    ) throws {
        let key = statement.string(at: first)
        let collection = keys.collection
        let cacheKey = keys(key)
        if cached(cacheKey) { return }
        try decodeRow(
            of: statement, dataColumn: first + 1, metadataColumn: withMetadata ? first + 2 : nil,
            collection: collection, key: { key }, decodeData: decodeData, decodeMetadata: decodeMetadata)
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
                guard let cached = transaction.cachedItem(at: cacheKey, as: Item.self) else { return false }
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
