/// One change of one stored item, as the write funnel hands it to every extension that follows
/// the item's collection, inside the write transaction (see
/// ``ExtensionImplementation/apply(_:name:in:)``).
///
/// Every write reaches the extensions as events, typed or untyped, one item or many, from any
/// place that writes: a removal of many keys as one ``ExtensionImplementation/applyRemovals(_:name:in:)``
/// call, a removal of a whole collection as one ``ExtensionImplementation/removeAll(rows:name:in:)``.
///
/// An event is valid only during the call that receives it: ``data`` and ``metadata`` are the
/// writer's buffers.
public struct WriteEvent {
    /// What happened to an item.
    public enum Kind: Sendable, Equatable {
        /// A new item was stored.
        case inserted
        /// The data of an existing item was replaced (its metadata too when the write carried it).
        case dataUpdated
        /// Only the metadata of an existing item was replaced.
        case metadataUpdated
        /// The item was marked changed without being changed.
        case touched
        /// The item was removed.
        case removed
    }

    /// What happened to the item.
    public internal(set) var kind: Kind
    /// The collection of the item.
    public internal(set) var collection: String
    /// The key of the item.
    public internal(set) var key: String
    /// The row id of the item, unique in the database while the item is stored, which an
    /// extension's tables refer to the item by.
    public internal(set) var rowID: Int64
    /// The item as the caller wrote it, when the write was typed; `nil` otherwise. Read it with
    /// ``ExtensionContext/item(of:as:)``, which decodes it when the write was not typed.
    public internal(set) var item: Any?
    /// The stored bytes of the item, when the write carried them (inserted or data updated).
    public internal(set) var data: UnsafeRawBufferPointer?
    /// The stored bytes of the metadata, when the write carried them and they are not `NULL`.
    public internal(set) var metadata: UnsafeRawBufferPointer?
    /// Whether ``data`` and ``metadata`` are the whole row: a write of the data alone, or of the
    /// metadata alone, leaves the other part to be read from the database.
    public internal(set) var carriesMetadata: Bool

    init(
        kind: Kind, collection: String, key: String, rowID: Int64, item: Any?, data: UnsafeRawBufferPointer?,
        metadata: UnsafeRawBufferPointer?, carriesMetadata: Bool
    ) {
        self.kind = kind
        self.collection = collection
        self.key = key
        self.rowID = rowID
        self.item = item
        self.data = data
        self.metadata = metadata
        self.carriesMetadata = carriesMetadata
    }
}

// Explicit non-conformance to Sendable: an event's bytes are the writer's buffers.
@available(*, unavailable)
extension WriteEvent: Sendable {}

/// An item removed with others (a removal of many keys, or of a whole collection), as the write
/// funnel lists them to extensions.
public struct RemovedRow: Sendable, Hashable {
    /// The row id the item had.
    public var rowID: Int64
    /// The key of the item.
    public var key: String
    /// The collection of the item (an extension that follows several collections tells them
    /// apart).
    public var collection: String

    /// A removed item: its row id, key and collection.
    public init(rowID: Int64, key: String, collection: String) {
        self.rowID = rowID
        self.key = key
        self.collection = collection
    }
}
