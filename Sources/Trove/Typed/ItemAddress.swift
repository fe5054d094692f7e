/// The address of an item: its collection and its key together, as YapDatabase's `YapDB.Index`.
///
/// Use it to keep references to items of several collections in one list, and to read many of
/// them at once:
///
/// ```swift
/// let addresses = [ItemAddress(User.self, key: id), ItemAddress(collection: "archived-users", key: "42")]
/// let users = try tx.read(User.self, at: addresses)  // [ItemAddress: User]
/// ```
public struct ItemAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The collection of the item.
    public var collection: String
    /// The key of the item in its collection.
    public var key: String

    /// The address of the item at `key` in `collection`.
    ///
    /// - Parameters:
    ///   - collection: The collection of the item.
    ///   - key: The key of the item.
    public init(collection: String, key: String) {
        self.collection = collection
        self.key = key
    }

    /// The address of the item of type `Item` at `key`, in the type's collection.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    public init<Item: Persistable>(_ type: Item.Type, key: Item.ID) {
        self.init(collection: Item.collection, key: key.itemKey)
    }

    /// The address of `item`, in its type's collection.
    ///
    /// - Parameter item: The item.
    public init<Item: Persistable>(of item: Item) {
        self.init(collection: Item.collection, key: item.id.itemKey)
    }

    /// Orders by collection, then key: the order of the file.
    ///
    /// - Parameters:
    ///   - lhs: An address.
    ///   - rhs: Another address.
    /// - Returns: Whether `lhs` comes first.
    public static func < (lhs: ItemAddress, rhs: ItemAddress) -> Bool {
        (lhs.collection, lhs.key) < (rhs.collection, rhs.key)
    }

    /// `collection/key`.
    public var description: String { "\(collection)/\(key)" }
}

extension ReadTransaction {
    /// The item of type `Item` stored at `address`, which may be in any collection: from the
    /// connection's cache, or decoded with `Item`'s coder.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - address: The collection and key of the item.
    /// - Returns: The item with its metadata, or `nil` when there is none at `address`.
    /// - Throws: ``TroveError`` naming the collection and key when the stored bytes cannot be
    ///   decoded as an `Item`, or when SQLite fails.
    @inlinable
    public func read<Item: Persistable>(_ type: Item.Type, at address: ItemAddress) throws -> Item? {
        let cacheKey = CacheKey(collection: address.collection, key: address.key)
        if let cached = cachedItem(at: cacheKey, as: Item.self) {
            return cached
        }
        var item: Item?
        try readItemRow(
            at: cacheKey, withMetadata: Item.Metadata.self != NoMetadata.self,
            decodeData: { item = try decodeStored(Item.Coder.self, from: $0, collection: address.collection) },
            decodeMetadata: {
                item?.metadata = try decodeStored(Item.MetadataCoder.self, from: $0, collection: address.collection)
            })
        if let item {
            cacheItem(item, at: cacheKey)
        }
        return item
    }

    /// The items of type `Item` stored at `addresses`, in any collections, by address; addresses
    /// with no item are left out.
    ///
    /// Items in the connection's cache are taken from it; the others are read in the order of
    /// the file (collection, then key).
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - addresses: The collections and keys of the items.
    /// - Returns: The items found, by address.
    /// - Throws: ``TroveError`` naming the collection and key when stored bytes cannot be
    ///   decoded as an `Item`, or when SQLite fails.
    @inlinable
    public func read<Item: Persistable>(
        _ type: Item.Type, at addresses: some Sequence<ItemAddress>
    ) throws -> [ItemAddress: Item] {
        var result: [ItemAddress: Item] = [:]
        var misses: [ItemAddress] = []
        for address in addresses where result[address] == nil {
            if let cached = cachedItem(at: CacheKey(collection: address.collection, key: address.key), as: Item.self) {
                result[address] = cached
            } else {
                misses.append(address)
            }
        }
        misses.sort()
        for address in misses where result[address] == nil {
            if let item = try read(Item.self, at: address) {
                result[address] = item
            }
        }
        return result
    }
}
