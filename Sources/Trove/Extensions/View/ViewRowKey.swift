import Foundation

/// The collection and key of a row of a ``MultiCollectionView``.
public struct ViewRowKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The collection of the row.
    public var collection: String
    /// The key of the row.
    public var key: String

    /// Creates the name of a row.
    ///
    /// - Parameters:
    ///   - collection: The collection of the row.
    ///   - key: The key of the row.
    public init(collection: String, key: String) {
        self.collection = collection
        self.key = key
    }

    /// Orders rows by collection, then key.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.collection, lhs.key) < (rhs.collection, rhs.key)
    }

    /// `collection/key`.
    public var description: String {
        "\(collection)/\(key)"
    }
}
