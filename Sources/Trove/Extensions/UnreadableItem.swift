/// A stored item whose bytes do not decode, which extensions of the database left out.
///
/// An item written by another tool, by a bug, or damaged on disk must not stop an app from
/// opening its database: an extension that needs the item's value (a secondary index, a
/// full-text search, a view, relationships) leaves such an item out, records it, and goes on
/// with the others. Reading the item itself still throws ``TroveError`` with code
/// ``TroveError/Code/corruptData``, naming its collection, key and field.
///
/// Ask for the list to show it, to fetch the items again from elsewhere, or to remove them
/// (removing an item, or writing it again with bytes that decode, takes it off the list):
///
/// ```swift
/// let unreadable = try connection.read { tx in try tx.unreadableItems() }
/// for item in unreadable {
///     print(item.collection, item.key, item.reason)
/// }
/// ```
///
/// The `trove` command lists them too (`trove check`), and removes items (`trove remove`).
public struct UnreadableItem: Sendable, Hashable, CustomStringConvertible {
    /// The collection of the item.
    public var collection: String
    /// The key of the item.
    public var key: String
    /// Why its bytes do not decode: the decoding error's message.
    public var reason: String
    /// The field that failed to decode, when the decoder knew it (`address.city`, `metadata`).
    public var field: String?
    /// The extensions that left the item out, sorted by name.
    public var extensionNames: [String]

    /// Creates a description of an unreadable item.
    ///
    /// - Parameters:
    ///   - collection: The collection of the item.
    ///   - key: The key of the item.
    ///   - reason: Why its bytes do not decode.
    ///   - field: The field that failed to decode, if known.
    ///   - extensionNames: The extensions that left the item out.
    public init(collection: String, key: String, reason: String, field: String?, extensionNames: [String]) {
        self.collection = collection
        self.key = key
        self.reason = reason
        self.field = field
        self.extensionNames = extensionNames
    }

    /// `collection/key: reason (field …; left out of …)`.
    public var description: String {
        var parts: [String] = []
        if let field { parts.append("field \(field)") }
        parts.append("left out of " + extensionNames.joined(separator: ", "))
        return "\(collection)/\(key): \(reason) (\(parts.joined(separator: "; ")))"
    }
}
