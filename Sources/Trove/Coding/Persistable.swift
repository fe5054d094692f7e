/// A type whose values are items of a Trove collection: stored under a key in ``collection``,
/// encoded by ``Coder``, with optional ``metadata`` stored beside them.
///
/// trove-gen writes this conformance for every type annotated `// @persistable`. It can also be
/// written by hand, for example with ``CodableCoder`` for any `Codable` type:
///
/// ```swift
/// struct Note: Persistable, Codable {
///     typealias Coder = CodableCoder<Note>
///     static let collection = "notes"
///     var id: String
///     var text: String
/// }
/// ```
///
/// Metadata follows YapDatabaseExtensions: an optional property of type ``Metadata``, stored in
/// its own column, written and read with the item in the same statement, and readable or
/// replaceable alone without decoding the item. A type without metadata leaves ``Metadata`` as
/// ``NoMetadata`` and gets the ``metadata`` property for free.
public protocol Persistable: Identifiable, Sendable where ID: ItemKey {
    /// The type of the metadata stored beside each item; ``NoMetadata`` when there is none.
    associatedtype Metadata: Sendable = NoMetadata
    /// The coder of items.
    associatedtype Coder: ValueCoder where Coder.Value == Self
    /// The coder of metadata.
    associatedtype MetadataCoder: ValueCoder = NoMetadataCoder where MetadataCoder.Value == Metadata

    /// The name of the collection that holds every item of this type.
    static var collection: String { get }

    /// The metadata of this item, or `nil` when it has none.
    ///
    /// Reads fill it in from the metadata column; writes store it there.
    var metadata: Metadata? { get set }
}

extension Persistable where Metadata == NoMetadata {
    /// Always `nil`: this type has no metadata. Setting it has no effect.
    public var metadata: NoMetadata? {
        get { nil }
        set {}
    }
}

/// The metadata type of a ``Persistable`` type that has no metadata. It has no values.
public enum NoMetadata: Sendable, Hashable {}

/// The coder of ``NoMetadata``: it writes nothing, and decoding always fails because there is no
/// value to decode.
public enum NoMetadataCoder: ValueCoder {
    /// Never called: ``NoMetadata`` has no values.
    public static func encode(_ value: NoMetadata, to writer: inout BinaryWriter) throws {
        // Unreachable: `NoMetadata` has no values, so this function cannot be called.
    }

    /// Always throws: ``NoMetadata`` has no values.
    ///
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData``.
    public static func decode(from reader: inout BinaryReader) throws -> NoMetadata {
        throw TroveError.corruptData("metadata is stored for a type that declares none")
    }
}

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
