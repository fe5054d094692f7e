/// How many items a collection holds and how many bytes they take (see
/// ``Database/collectionStatistics()``).
public struct CollectionStatistics: Sendable, Hashable {
    /// The collection.
    public var collection: String
    /// Its items.
    public var count: Int
    /// The bytes of its items' encoded data.
    public var dataBytes: Int64
    /// The bytes of its items' encoded metadata.
    public var metadataBytes: Int64
    /// The bytes of data and metadata together (keys and SQLite's own overhead not counted).
    public var bytes: Int64 { dataBytes + metadataBytes }

    /// Creates statistics.
    ///
    /// - Parameters:
    ///   - collection: The collection.
    ///   - count: Its items.
    ///   - dataBytes: The bytes of their data.
    ///   - metadataBytes: The bytes of their metadata.
    public init(collection: String, count: Int, dataBytes: Int64, metadataBytes: Int64) {
        self.collection = collection
        self.count = count
        self.dataBytes = dataBytes
        self.metadataBytes = metadataBytes
    }
}
