/// A type that can be the key of a ``Persistable`` item: it converts to and from the stored
/// key, which is a string.
///
/// `String`, `UUID`, every integer type conform. Any `LosslessStringConvertible` type conforms
/// by declaring it: `extension OrderNumber: ItemKey {}`.
public protocol ItemKey: Hashable, Sendable {
    /// The key as stored in the database.
    var itemKey: String { get }

    /// Creates a key from its stored form, or returns `nil` if `itemKey` is not one.
    ///
    /// - Parameter itemKey: A key as stored in the database.
    init?(itemKey: String)
}

extension ItemKey where Self: LosslessStringConvertible {
    /// The key as stored: its `description`.
    public var itemKey: String { description }

    /// Creates a key from its stored form with `init?(_ description:)`.
    ///
    /// - Parameter itemKey: A key as stored in the database.
    public init?(itemKey: String) {
        self.init(itemKey)
    }
}

extension String: ItemKey {}
extension Int: ItemKey {}
extension Int8: ItemKey {}
extension Int16: ItemKey {}
extension Int32: ItemKey {}
extension Int64: ItemKey {}
extension UInt: ItemKey {}
extension UInt8: ItemKey {}
extension UInt16: ItemKey {}
extension UInt32: ItemKey {}
extension UInt64: ItemKey {}
