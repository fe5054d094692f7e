// Typed enumeration: items, metadata and keys of one type, with a stop, a filter on the key
// that runs before anything is decoded, and a cursor that decodes one item at a time.
//
// Rows are read a page at a time (see `RowPager`): memory stays bounded by one page whatever the
// number of items, and the closures run with no statement in the middle of a scan, so they may
// read, enumerate again and, in a read-write transaction, write.

extension ItemReader {
    /// Calls `body` with every item of the type, with its metadata, in key order (the order of
    /// the stored keys' text: see <doc:Enumeration>), until it sets `stop`. Items are decoded one
    /// at a time, never all at once.
    ///
    /// ```swift
    /// try tx.enumerate(User.self, where: { $0.hasPrefix("a") }) { user, stop in
    ///     print(user.name)
    ///     if user.isAdmin { stop = true }
    /// }
    /// ```
    ///
    /// An item already in the connection's cache is taken from it; the items decoded are not
    /// cached, so that walking a large collection does not evict the working set.
    ///
    /// - Parameters:
    ///   - keyFilter: Called with each key before its item is decoded; the items it rejects are
    ///     never decoded.
    ///   - body: Called with each item; set its last argument to `true` to stop.
    /// - Throws: The error of `keyFilter` or `body`; ``TroveError`` when stored bytes cannot be
    ///   decoded, a stored key is not a valid `Item.ID`, or SQLite fails.
    @inlinable
    func enumerate(
        where keyFilter: ((Item.ID) throws -> Bool)? = nil, _ body: (Item, inout Bool) throws -> Void
    ) throws {
        let useCache = transaction.hasCachedItems
        try transaction.enumerateStoredRows(
            in: Item.collection, columns: Self.itemColumns, keyFilter: keyFilter.map(idFilter)
        ) { key, data, metadata, stop in
            try body(try decodeItem(key: key, data: data, metadata: metadata, useCache: useCache), &stop)
        }
    }

    /// Calls `body` with every item of the type and its metadata, in key order, until it sets
    /// `stop`: ``enumerate(where:_:)`` with the metadata handed apart.
    ///
    /// - Parameters:
    ///   - keyFilter: Called with each key before its item is decoded; the items it rejects are
    ///     never decoded.
    ///   - body: Called with each item and its metadata (`nil` when it has none); set its last
    ///     argument to `true` to stop.
    /// - Throws: As ``enumerate(where:_:)``.
    @inlinable
    func enumerateWithMetadata(
        where keyFilter: ((Item.ID) throws -> Bool)? = nil, _ body: (Item, Item.Metadata?, inout Bool) throws -> Void
    ) throws {
        try enumerate(where: keyFilter) { item, stop in try body(item, item.metadata, &stop) }
    }

    /// Calls `body` with the key and metadata of every item of the type, in key order (of the
    /// stored text), until it sets `stop`. The items themselves are neither read nor decoded.
    ///
    /// - Parameters:
    ///   - keyFilter: Called with each key before its metadata is decoded; the rows it rejects
    ///     are never decoded.
    ///   - body: Called with each key and metadata (`nil` when the item has none); set its last
    ///     argument to `true` to stop.
    /// - Throws: The error of `keyFilter` or `body`; ``TroveError`` when stored metadata cannot
    ///   be decoded, a stored key is not a valid `Item.ID`, or SQLite fails.
    @inlinable
    func enumerateMetadata(
        where keyFilter: ((Item.ID) throws -> Bool)? = nil, _ body: (Item.ID, Item.Metadata?, inout Bool) throws -> Void
    ) throws {
        let transaction = transaction
        try transaction.enumerateStoredRows(
            in: Item.collection, columns: .metadata, keyFilter: keyFilter.map(idFilter)
        ) { key, _, metadata, stop in
            let id = try itemID(key)
            var value: Item.Metadata?
            if let metadata, Item.Metadata.self != NoMetadata.self {
                do {
                    value = try transaction.decodeStored(Item.MetadataCoder.self, from: metadata, collection: Item.collection)
                } catch {
                    throw transaction.decodingFailure(error, collection: Item.collection, key: key, field: "metadata")
                }
            }
            try body(id, value, &stop)
        }
    }

    /// Calls `body` with the key of every item of the type, in key order (of the stored text),
    /// until it sets `stop`.
    ///
    /// - Parameter body: Called with each key; set its last argument to `true` to stop.
    /// - Throws: The error of `body`; ``TroveError`` when a stored key is not a valid `Item.ID`
    ///   or SQLite fails.
    @inlinable
    func enumerateKeys(_ body: (Item.ID, inout Bool) throws -> Void) throws {
        try transaction.enumerateKeys(in: Item.collection) { key, stop in try body(try itemID(key), &stop) }
    }

    /// Calls `body` once for each of `keys`, with its item or `nil` when there is none, until it
    /// sets `stop`.
    ///
    /// In the order of `keys`, or, when `unordered` is `true`, in the order that is fastest:
    /// first the items in the connection's cache, then the others in the order of the stored
    /// keys' text, which reads the file in order.
    ///
    /// ```swift
    /// try tx.enumerate(User.self, keys: ids, unordered: true) { id, user, stop in
    ///     print(id, user?.name ?? "missing")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keys: The keys to read. A key given twice is visited twice.
    ///   - unordered: Whether the order may differ from the order of `keys`.
    ///   - body: Called with each key and its item; set its last argument to `true` to stop.
    /// - Throws: The error of `body`; ``TroveError`` when stored bytes cannot be decoded or
    ///   SQLite fails.
    @inlinable
    func enumerate(
        keys: some Sequence<Item.ID>, unordered: Bool = false, _ body: (Item.ID, Item?, inout Bool) throws -> Void
    ) throws {
        var stop = false
        guard unordered else {
            for key in keys {
                try body(key, try transaction.read(Item.self, key: key), &stop)
                if stop { return }
            }
            return
        }
        var misses: [(key: Item.ID, itemKey: String)] = []
        for key in keys {
            let itemKey = key.itemKey
            if let cached = transaction.cachedItem(at: CacheKey(collection: Item.collection, key: itemKey), as: Item.self) {
                try body(key, cached, &stop)
                if stop { return }
            } else {
                misses.append((key, itemKey))
            }
        }
        misses.sort { $0.itemKey < $1.itemKey }
        for miss in misses {
            try body(miss.key, try transaction.read(Item.self, key: miss.key), &stop)
            if stop { return }
        }
    }

    /// A cursor over every item of the type, in key order (of the stored text), that decodes one
    /// item per call of
    /// ``ItemCursor/next()``: memory stays bounded by one page of stored rows, whatever the
    /// number of items.
    ///
    /// ```swift
    /// let cursor = tx.cursor(User.self)
    /// while let user = try cursor.next() {
    ///     print(user.name)
    /// }
    /// ```
    ///
    /// - Parameter keyFilter: Called with each key before its item is decoded; the items it
    ///   rejects are skipped and never decoded.
    /// - Returns: A cursor valid as long as the transaction: using it afterwards throws.
    @inlinable
    func cursor(where keyFilter: ((Item.ID) throws -> Bool)? = nil) -> ItemCursor<Item> {
        ItemCursor(
            reader: self,
            pager: transaction.makePager(
                collection: Item.collection, columns: Self.itemColumns, keyFilter: keyFilter.map(idFilter)))
    }

    // MARK: Helpers

    /// The columns of an item: data, and metadata when the type has some.
    @inlinable
    static var itemColumns: PagedColumns {
        Item.Metadata.self != NoMetadata.self ? .dataAndMetadata : .data
    }

    /// A filter on stored keys from a filter on `Item.ID`.
    @inlinable
    func idFilter(_ filter: @escaping (Item.ID) throws -> Bool) -> (String) throws -> Bool {
        let transaction = transaction
        return { key in
            guard let id = Item.ID(itemKey: key) else {
                throw transaction.invalidStoredKey(key, collection: Item.collection, type: "\(Item.ID.self)")
            }
            return try filter(id)
        }
    }

    /// The `Item.ID` of a stored key.
    @inlinable
    func itemID(_ key: String) throws -> Item.ID {
        guard let id = Item.ID(itemKey: key) else {
            throw transaction.invalidStoredKey(key, collection: Item.collection, type: "\(Item.ID.self)")
        }
        return id
    }

    /// The item of a stored row: from the cache when `useCache` and it is there, else decoded
    /// from the row's bytes.
    @inlinable
    func decodeItem(
        key: String, data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer?, useCache: Bool
    ) throws -> Item {
        if useCache, let cached = transaction.cachedItem(at: CacheKey(collection: Item.collection, key: key), as: Item.self) {
            return cached
        }
        var item: Item
        do {
            item = try transaction.decodeStored(Item.Coder.self, from: data, collection: Item.collection)
        } catch {
            throw transaction.decodingFailure(error, collection: Item.collection, key: key, field: nil)
        }
        if let metadata, Item.Metadata.self != NoMetadata.self {
            do {
                item.metadata = try transaction.decodeStored(
                    Item.MetadataCoder.self, from: metadata, collection: Item.collection)
            } catch {
                throw transaction.decodingFailure(error, collection: Item.collection, key: key, field: "metadata")
            }
        }
        return item
    }
}

/// Walks the items of one ``Persistable`` type in key order, decoding one item per call of
/// ``next()``; get one with ``ReadTransaction/cursor(_:where:)``.
///
/// ```swift
/// try connection.read { tx in
///     let cursor = tx.cursor(User.self)
///     while let user = try cursor.next() { print(user.name) }
/// }
/// ```
///
/// Rows are read a page at a time, so memory stays bounded whatever the number of items, and
/// writes between two calls of ``next()`` (in a read-write transaction) are safe: the cursor
/// continues after the last key it returned, and sees what was written (see <doc:Enumeration>).
///
/// A cursor is valid as long as its transaction: ``next()`` throws a ``TroveError`` with code
/// ``TroveError/Code/misuse`` once the transaction's closure has returned.
public final class ItemCursor<Item: Persistable> {
    @usableFromInline let reader: ItemReader<Item>
    @usableFromInline let pager: RowPager
    @usableFromInline let useCache: Bool

    @usableFromInline
    init(reader: ItemReader<Item>, pager: RowPager) {
        self.reader = reader
        self.pager = pager
        self.useCache = reader.transaction.isValid && reader.transaction.hasCachedItems
    }

    /// The next item, or `nil` after the last one.
    ///
    /// - Returns: The next item, with its metadata.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/misuse`` when the cursor's transaction
    ///   has ended; ``TroveError`` when stored bytes cannot be decoded, a stored key is not a
    ///   valid `Item.ID`, or SQLite fails; the error of the key filter.
    @inlinable
    public func next() throws -> Item? {
        guard let row = try pager.nextRow() else { return nil }
        return try pager.withBytes(ofRow: row) { data, metadata in
            try reader.decodeItem(key: pager.key(ofRow: row), data: data, metadata: metadata, useCache: useCache)
        }
    }

    /// Calls `body` with each remaining item.
    ///
    /// - Parameter body: Called with each item.
    /// - Throws: The error of `body`, or of ``next()``.
    @inlinable
    public func forEach(_ body: (Item) throws -> Void) throws {
        while let item = try next() {
            try body(item)
        }
    }
}

// Explicit non-conformance to Sendable: a cursor belongs to its transaction, valid only inside
// its closure, on the thread that runs it.
@available(*, unavailable)
extension ItemCursor: Sendable {}
