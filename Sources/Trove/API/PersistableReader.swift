/// The typed reads of items of one type in a transaction, which the public methods of
/// ``ReadTransaction`` (its enumerations and cursors) run: the type is a generic parameter here,
/// so that the loops are specialized for it where they are called.
@usableFromInline
struct ItemReader<Item: Persistable> {
    @usableFromInline let transaction: ReadTransaction

    @inlinable
    init(transaction: ReadTransaction) {
        self.transaction = transaction
    }
}

// Explicit non-conformance to Sendable: it holds a transaction, valid only inside its closure.
@available(*, unavailable)
extension ItemReader: Sendable {}

extension ReadTransaction {
    /// The items of type `Item` that exist at `keys`, in the order of `keys`, and the keys that
    /// have no item.
    ///
    /// ```swift
    /// let (found, missing) = try tx.filterExisting(User.self, keys: ids)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys to look up.
    /// - Returns: The items found and the keys missing.
    /// - Throws: ``TroveError`` when stored bytes cannot be decoded or SQLite fails.
    @inlinable
    public func filterExisting<Item: Persistable>(_ type: Item.Type, keys: some Sequence<Item.ID>) throws
        -> (items: [Item], missing: [Item.ID])
    {
        var items: [Item] = []
        var missing: [Item.ID] = []
        for key in keys {
            if let item = try read(Item.self, key: key) {
                items.append(item)
            } else {
                missing.append(key)
            }
        }
        return (items, missing)
    }

    /// Calls `body` with every item of type `Item`, with its metadata, in key order (the order of
    /// the stored keys' text: see <doc:Enumeration>), until it sets `stop`. Items are decoded one
    /// at a time, never all at once.
    ///
    /// ```swift
    /// try tx.enumerate(User.self, where: { $0.uuidString.hasPrefix("A") }) { user, stop in
    ///     print(user.name)
    ///     if user.isAdmin { stop = true }
    /// }
    /// ```
    ///
    /// An item already in the connection's cache is taken from it; the items decoded are not
    /// cached, so that walking a large collection does not evict the working set. The body may
    /// read, enumerate again and, in a read-write transaction, write (see <doc:Enumeration>).
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keyFilter: Called with each key before its item is decoded; the items it rejects are
    ///     never decoded.
    ///   - body: Called with each item; set its last argument to `true` to stop.
    /// - Throws: The error of `keyFilter` or `body`; ``TroveError`` when stored bytes cannot be
    ///   decoded, a stored key is not a valid `Item.ID`, or SQLite fails.
    @inlinable
    public func enumerate<Item: Persistable>(
        _ type: Item.Type, where keyFilter: ((Item.ID) throws -> Bool)? = nil, _ body: (Item, inout Bool) throws -> Void
    ) throws {
        try ItemReader<Item>(transaction: self).enumerate(where: keyFilter, body)
    }

    /// Calls `body` with the key and metadata of every item of type `Item`, in key order, until it
    /// sets `stop`. The items themselves are neither read nor decoded.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keyFilter: Called with each key before its metadata is decoded.
    ///   - body: Called with each key and its metadata (`nil` when it has none); set its last
    ///     argument to `true` to stop.
    /// - Throws: As ``enumerate(_:where:_:)``.
    @inlinable
    public func enumerateMetadata<Item: Persistable>(
        of type: Item.Type, where keyFilter: ((Item.ID) throws -> Bool)? = nil,
        _ body: (Item.ID, Item.Metadata?, inout Bool) throws -> Void
    ) throws {
        try ItemReader<Item>(transaction: self).enumerateMetadata(where: keyFilter, body)
    }

    /// Calls `body` with the key of every item of type `Item`, in key order, until it sets `stop`,
    /// without reading the items.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - body: Called with each key; set its last argument to `true` to stop.
    /// - Throws: The error of `body`; ``TroveError`` when a stored key is not a valid `Item.ID`
    ///   or SQLite fails.
    @inlinable
    public func enumerateKeys<Item: Persistable>(of type: Item.Type, _ body: (Item.ID, inout Bool) throws -> Void)
        throws
    {
        try ItemReader<Item>(transaction: self).enumerateKeys(body)
    }

    /// Calls `body` with each key of `keys` and its item of type `Item`, or `nil` where there is
    /// none, until it sets `stop`.
    ///
    /// ```swift
    /// try tx.enumerate(User.self, keys: ids, unordered: true) { id, user, stop in … }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys.
    ///   - unordered: `true` to let Trove choose the order: cached items first, then the others in
    ///     the file's order, which reads fewer pages.
    ///   - body: Called with each key and its item; set its last argument to `true` to stop.
    /// - Throws: The error of `body`, or ``TroveError`` when stored bytes cannot be decoded or
    ///   SQLite fails.
    @inlinable
    public func enumerate<Item: Persistable>(
        _ type: Item.Type, keys: some Sequence<Item.ID>, unordered: Bool = false,
        _ body: (Item.ID, Item?, inout Bool) throws -> Void
    ) throws {
        try ItemReader<Item>(transaction: self).enumerate(keys: keys, unordered: unordered, body)
    }

    /// A cursor over the items of type `Item` in key order, decoding one item per call of
    /// ``ItemCursor/next()``.
    ///
    /// ```swift
    /// let cursor = tx.cursor(User.self)
    /// while let user = try cursor.next() { … }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keyFilter: Called with each key before its item is decoded.
    /// - Returns: The cursor, valid as long as the transaction.
    @inlinable
    public func cursor<Item: Persistable>(_ type: Item.Type, where keyFilter: ((Item.ID) throws -> Bool)? = nil)
        -> ItemCursor<Item>
    {
        ItemReader<Item>(transaction: self).cursor(where: keyFilter)
    }
}
