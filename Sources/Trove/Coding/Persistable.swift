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
