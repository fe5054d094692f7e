import Foundation

// Untyped enumeration: keys and stored bytes, in one collection or across all of them.
//
// Every enumeration reads its rows a page at a time and runs its closures with no statement in
// the middle of a scan (see `RowPager`), so that a closure may read anything, run another
// enumeration, and, in a read-write transaction, write. The order is the order of the keys
// (collection, then key, across collections).

extension ReadTransaction {
    /// Calls `body` with the collection and key of every item, in order of collection then key,
    /// until it sets `stop`.
    ///
    /// ```swift
    /// try tx.enumerateKeysInAllCollections { collection, key, stop in
    ///     print(collection, key)
    /// }
    /// ```
    ///
    /// - Parameter body: Called with each collection and key; set its last argument to `true`
    ///   to stop.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails.
    /// - Complexity: O(n) in the number of items; memory stays bounded by one page of keys.
    public func enumerateKeysInAllCollections(_ body: (String, String, inout Bool) throws -> Void) throws {
        let pager = RowPager(transaction: self, collection: nil, columns: .keys, filter: nil)
        var stop = false
        while !stop, let row = try pager.nextRow() {
            try body(pager.collection(ofRow: row), pager.key(ofRow: row), &stop)
        }
    }

    /// Calls `body` with the key and stored data of every item of `collection`, in key order,
    /// until it sets `stop`.
    ///
    /// - Parameters:
    ///   - collection: The collection.
    ///   - keyFilter: Called with each key first; the rows it rejects are skipped.
    ///   - body: Called with each key and data; set its last argument to `true` to stop.
    /// - Throws: The error of `keyFilter` or `body`, or ``TroveError`` when SQLite fails.
    public func enumerateData(
        in collection: String, where keyFilter: ((String) throws -> Bool)? = nil,
        _ body: (String, Data, inout Bool) throws -> Void
    ) throws {
        try enumerateStoredRows(in: collection, columns: .data, keyFilter: keyFilter) { key, data, _, stop in
            try body(key, Data(data), &stop)
        }
    }

    /// Calls `body` with the key and stored metadata of every item of `collection`, in key order,
    /// until it sets `stop`. The data of the items is not read.
    ///
    /// - Parameters:
    ///   - collection: The collection.
    ///   - keyFilter: Called with each key first; the rows it rejects are skipped.
    ///   - body: Called with each key and metadata (`nil` when the item has none); set its last
    ///     argument to `true` to stop.
    /// - Throws: The error of `keyFilter` or `body`, or ``TroveError`` when SQLite fails.
    public func enumerateMetadata(
        in collection: String, where keyFilter: ((String) throws -> Bool)? = nil,
        _ body: (String, Data?, inout Bool) throws -> Void
    ) throws {
        try enumerateStoredRows(in: collection, columns: .metadata, keyFilter: keyFilter) { key, _, metadata, stop in
            try body(key, metadata.map { Data($0) }, &stop)
        }
    }

    /// Calls `body` with the key, data and metadata of every item of `collection`, in key order,
    /// until it sets `stop`.
    ///
    /// ```swift
    /// try tx.enumerateRows(in: "users", where: { $0.hasPrefix("a") }) { key, data, metadata, stop in
    ///     print(key, data.count)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - collection: The collection.
    ///   - keyFilter: Called with each key first; the rows it rejects are skipped.
    ///   - body: Called with each key, data and metadata (`nil` when the item has none); set its
    ///     last argument to `true` to stop.
    /// - Throws: The error of `keyFilter` or `body`, or ``TroveError`` when SQLite fails.
    public func enumerateRows(
        in collection: String, where keyFilter: ((String) throws -> Bool)? = nil,
        _ body: (String, Data, Data?, inout Bool) throws -> Void
    ) throws {
        try enumerateStoredRows(in: collection, columns: .dataAndMetadata, keyFilter: keyFilter) {
            key, data, metadata, stop in
            try body(key, Data(data), metadata.map { Data($0) }, &stop)
        }
    }

    /// Calls `body` with the collection, key, data and metadata of every item, in order of
    /// collection then key, until it sets `stop`.
    ///
    /// - Parameters:
    ///   - filter: Called with each collection and key first; the rows it rejects are skipped.
    ///   - body: Called with each collection, key, data and metadata (`nil` when the item has
    ///     none); set its last argument to `true` to stop.
    /// - Throws: The error of `filter` or `body`, or ``TroveError`` when SQLite fails.
    public func enumerateRowsInAllCollections(
        where filter: ((String, String) throws -> Bool)? = nil,
        _ body: (String, String, Data, Data?, inout Bool) throws -> Void
    ) throws {
        let pager = RowPager(transaction: self, collection: nil, columns: .dataAndMetadata, filter: filter)
        var stop = false
        while !stop, let row = try pager.nextRow() {
            try pager.withBytes(ofRow: row) { data, metadata in
                try body(
                    pager.collection(ofRow: row), pager.key(ofRow: row), Data(data), metadata.map { Data($0) },
                    &stop)
            }
        }
    }

    /// Calls `body` with the data and metadata of the items at `keys` in `collection`, one call
    /// per key, until it sets `stop`.
    ///
    /// - Parameters:
    ///   - keys: The keys to read.
    ///   - collection: The collection.
    ///   - body: Called with the index of the key in `keys`, the key, and the stored data and
    ///     metadata, or `nil` when there is no item at the key; set its last argument to `true`
    ///     to stop.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails.
    public func enumerateRows(
        forKeys keys: [String], in collection: String,
        _ body: (Int, String, (data: Data, metadata: Data?)?, inout Bool) throws -> Void
    ) throws {
        var stop = false
        for (index, key) in keys.enumerated() {
            try body(index, key, try dataAndMetadata(forKey: key, in: collection), &stop)
            if stop { return }
        }
    }

    // MARK: The engine of the typed enumerations

    /// Calls `visit` with the key and the bytes of every row of `collection` that `keyFilter`
    /// accepts, in key order, until it sets `stop`. The bytes are valid only during the call.
    @usableFromInline
    func enumerateStoredRows(
        in collection: String, columns: PagedColumns, keyFilter: ((String) throws -> Bool)?,
        _ visit: (String, UnsafeRawBufferPointer, UnsafeRawBufferPointer?, inout Bool) throws -> Void
    ) throws {
        let pager = RowPager(
            transaction: self, collection: collection, columns: columns,
            filter: keyFilter.map { filter in { _, key in try filter(key) } })
        var stop = false
        while !stop, let row = try pager.nextRow() {
            try pager.withBytes(ofRow: row) { data, metadata in
                try visit(pager.key(ofRow: row), data, metadata, &stop)
            }
        }
    }

    /// Makes a pager over `collection` for a cursor.
    @usableFromInline
    func makePager(
        collection: String, columns: PagedColumns, keyFilter: ((String) throws -> Bool)?
    ) -> RowPager {
        RowPager(
            transaction: self, collection: collection, columns: columns,
            filter: keyFilter.map { filter in { _, key in try filter(key) } })
    }

    /// Whether the connection's item cache holds anything: an enumeration looks each row up in
    /// it only then.
    @usableFromInline
    var hasCachedItems: Bool {
        checkedCore.items.count != 0
    }

    /// The error for a coder that failed on a stored row, naming the item and the field.
    @usableFromInline
    func decodingFailure(_ error: any Error, collection: String, key: String, field: String?) -> TroveError {
        TroveError.coderFailure(error, decoding: true, collection: collection, key: key, field: field)
    }

    /// The error for a stored key that is not a valid key of the type read.
    @usableFromInline
    func invalidStoredKey(_ key: String, collection: String, type: String) -> TroveError {
        TroveError(
            code: .invalidKey, message: "The stored key is not a valid \(type).", collection: collection, key: key)
    }
}
