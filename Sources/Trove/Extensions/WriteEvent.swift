/// One change of one stored row, as the write funnel (``ConnectionCore``'s writes) hands it to
/// every extension that follows the row's collection, inside the write transaction.
///
/// An event is valid only during the call that receives it: its bytes are the writer's buffers.
struct WriteEvent {
    /// What happened to the row.
    enum Kind: Sendable, Equatable {
        /// A new row was stored.
        case inserted
        /// The data of an existing row was replaced (its metadata too when the write carried it).
        case dataUpdated
        /// Only the metadata of an existing row was replaced.
        case metadataUpdated
        /// The row was marked changed without being changed.
        case touched
        /// The row was removed.
        case removed
    }

    var kind: Kind
    var collection: String
    var key: String
    /// The row id of the row in `trove_items`, which extension tables refer to.
    var rowID: Int64
    /// The item as the caller wrote it, when the write was typed; `nil` otherwise.
    var item: Any?
    /// The stored data, when the write carried it (inserted or data updated).
    var data: UnsafeRawBufferPointer?
    /// The stored metadata, when the write carried it and it is not `NULL`.
    var metadata: UnsafeRawBufferPointer?
    /// Whether ``data`` and ``metadata`` are the whole row: a write of the data alone, or of the
    /// metadata alone, leaves the other part to be read from the row.
    var carriesMetadata: Bool
}

/// A row of `trove_items`, as a bulk removal lists them to the extensions that ask for them.
struct RemovedRow: Sendable, Hashable {
    var rowID: Int64
    var key: String
    /// The collection of the row (a view over several collections tells them apart).
    var collection: String
}
