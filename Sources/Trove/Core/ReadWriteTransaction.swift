import Foundation

/// A read-write transaction, valid only inside the closure of the `write` of a
/// ``DatabaseWriter`` that received it.
///
/// Everything a ``ReadTransaction`` reads, it reads too, including its own uncommitted writes.
/// Its writes are committed together when the closure returns, or rolled back together when it
/// throws.
///
/// - Important: A transaction must not escape its closure.
public final class ReadWriteTransaction: ReadTransaction {
    // MARK: Untyped writes

    /// Stores `data` and `metadata` at `key` in `collection`, replacing any item there.
    ///
    /// - Parameters:
    ///   - data: The bytes of the item.
    ///   - metadata: The bytes of its metadata, or `nil` for none.
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func setData(_ data: Data, metadata: Data? = nil, forKey key: String, in collection: String) throws {
        let core = checkedCore
        try data.withUnsafeBytes { dataBytes in
            if let metadata {
                try metadata.withUnsafeBytes { metadataBytes in
                    try upsert(core, key: key, collection: collection, data: dataBytes, metadata: metadataBytes)
                }
            } else {
                try upsert(core, key: key, collection: collection, data: dataBytes, metadata: nil)
            }
        }
        core.evict(key: key, collection: collection)
    }

    /// Replaces the data of the item at `key` in `collection`, keeping its metadata. Does
    /// nothing when there is no such item.
    ///
    /// - Parameters:
    ///   - data: The new bytes of the item.
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: `true` when an item was replaced.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func replaceData(_ data: Data, forKey key: String, in collection: String) throws -> Bool {
        let core = checkedCore
        let replaced = try data.withUnsafeBytes { bytes in
            try core.replaceData(key: key, collection: collection, data: bytes)
        }
        if replaced { core.evict(key: key, collection: collection) }
        return replaced
    }

    /// Replaces the metadata of the item at `key` in `collection`, keeping its data. Does
    /// nothing when there is no such item.
    ///
    /// - Parameters:
    ///   - metadata: The new metadata bytes, or `nil` to remove the metadata.
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: `true` when an item was changed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func replaceMetadata(_ metadata: Data?, forKey key: String, in collection: String) throws -> Bool {
        let core = checkedCore
        let changed: Bool
        if let metadata {
            changed = try metadata.withUnsafeBytes {
                try updateMetadata(core, key: key, collection: collection, metadata: $0)
            }
        } else {
            changed = try updateMetadata(core, key: key, collection: collection, metadata: nil)
        }
        if changed { core.evict(key: key, collection: collection) }
        return changed
    }

    /// Marks the item at `key` in `collection` as changed without changing it, so that other
    /// connections reload it and observers of ``Database/changes`` see it. Does nothing when
    /// there is no such item.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func touch(key: String, in collection: String) throws {
        _ = try checkedCore.touchRow(key: key, collection: collection)
    }

    /// Removes the item at `key` in `collection`, if any.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func removeItem(forKey key: String, in collection: String) throws -> Bool {
        let core = checkedCore
        let removed = try core.removeRow(key: key, collection: collection)
        core.evict(key: key, collection: collection)
        return removed
    }

    /// Removes the items at `keys` in `collection`, as one batch: the extensions hear of every
    /// removal at once, and the delete rules of relationships that they fire run together. A key
    /// named twice, or with no item, is skipped.
    ///
    /// - Parameters:
    ///   - keys: The keys of the items.
    ///   - collection: The collection of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func removeItems(forKeys keys: some Sequence<String>, in collection: String) throws -> Int {
        try removeItems(forKeyArray: Array(keys), in: collection)
    }

    /// ``removeItems(forKeys:in:)`` for an array, not generic: the typed layer's removals come
    /// here with their keys made in the caller's specialized code.
    @usableFromInline
    func removeItems(forKeyArray keys: [String], in collection: String) throws -> Int {
        let core = checkedCore
        return try core.removeRows(keys.map { RowRemoval(key: $0, rowID: nil) }, in: collection) { key in
            core.evict(key: key, collection: collection)
        }
    }

    /// Removes every item of `collection`.
    ///
    /// - Parameter collection: The collection to empty.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func removeAllItems(in collection: String) throws -> Int {
        let core = checkedCore
        let removed = try core.removeRows(in: collection)
        core.items.removeAll(in: collection)
        core.metadata.removeAll(in: collection)
        return removed
    }

    /// Removes every item of every collection.
    ///
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func removeAllItems() throws -> Int {
        let core = checkedCore
        let removed = try core.removeAllRows()
        core.items.removeAll()
        core.metadata.removeAll()
        return removed
    }

    // MARK: Shared by the typed layer

    /// Inserts or replaces a row and records the change (see ``ConnectionCore/storeRow(key:collection:data:metadata:item:)``).
    /// Does not touch the caches.
    ///
    /// SQLite reads `data` and `metadata` in place (see ``Statement/bind(_:at:)-(UnsafeRawBufferPointer,_)``):
    /// they need to be valid only during this call, which resets the statement before it returns.
    func upsert(
        _ core: ConnectionCore, key: String, collection: String, data: UnsafeRawBufferPointer,
        metadata: UnsafeRawBufferPointer?, item: () -> Any? = { nil }
    ) throws {
        try core.storeRow(key: key, collection: collection, data: data, metadata: metadata, item: item)
    }

    /// Updates the metadata column and records the change. Does not touch the caches.
    ///
    /// SQLite reads `metadata` in place: it needs to be valid only during this call, which resets
    /// the statement before it returns.
    func updateMetadata(
        _ core: ConnectionCore, key: String, collection: String, metadata: UnsafeRawBufferPointer?
    ) throws -> Bool {
        try core.replaceMetadata(key: key, collection: collection, metadata: metadata)
    }
}

// Not Sendable: the unavailable conformance of ReadTransaction is inherited.
