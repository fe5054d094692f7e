import Foundation

/// One stored row, as the closures of a ``MultiCollectionView`` see it: its collection, its key,
/// and the bytes of its item and metadata, which ``item(as:)`` decodes.
public struct ViewRow: Sendable {
    /// The collection of the row.
    public let collection: String
    /// The key of the row.
    public let key: String
    /// The stored bytes of the item, as its type's coder wrote them.
    public let data: [UInt8]
    /// The stored bytes of the metadata, or `nil` when the item has none.
    public let metadata: [UInt8]?

    /// Creates a row (for tests of a view's closures).
    ///
    /// - Parameters:
    ///   - collection: The collection of the row.
    ///   - key: The key of the row.
    ///   - data: The stored bytes of the item.
    ///   - metadata: The stored bytes of the metadata.
    public init(collection: String, key: String, data: [UInt8], metadata: [UInt8]?) {
        self.collection = collection
        self.key = key
        self.data = data
        self.metadata = metadata
    }

    /// The item of the row, decoded with `type`'s coders (its metadata too), when the row is in
    /// `type`'s collection; `nil` otherwise.
    ///
    /// - Parameter type: The type of the items of one of the view's collections.
    /// - Returns: The item, or `nil` when the row is in another collection.
    /// - Throws: ``TroveError`` when the bytes cannot be decoded.
    public func item<T: Persistable>(as type: T.Type) throws -> T? {
        guard collection == T.collection else { return nil }
        return try data.withUnsafeBytes { data in
            guard let metadata else { return try ExtensionItems<T>.decode(key: key, data: data, metadata: nil) }
            return try metadata.withUnsafeBytes { metadata in
                try ExtensionItems<T>.decode(key: key, data: data, metadata: metadata)
            }
        }
    }
}
