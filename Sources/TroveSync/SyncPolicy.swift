import Trove

/// How a synced model settles concurrent changes, in place of the field-by-field rule: for items
/// whose fields belong together (keep both versions), or whose values combine (merge them).
///
/// ```swift
/// let sync = try TroveSync(
///     database: database, server: url, credentials: .bearer(token),
///     collections: [Todo.self, Note.self],
///     policies: [
///         .merge(Todo.self) { local, remote in
///             var merged = remote
///             merged.tags = local.tags.union(remote.tags)
///             return merged
///         },
///         .keepBoth(Note.self) { local in
///             var copy = local
///             copy.id = UUID().uuidString
///             copy.title += " (conflict)"
///             return copy
///         },
///     ])
/// ```
///
/// **When a policy runs.** On the replica that meets the conflict: when it pulls a change from
/// another replica that sets a field (or removes the item) that this replica changed and has not
/// yet had acknowledged. The server makes sure it meets it: it refuses (HTTP 409) a push of a
/// policy's model that sets a field another replica changed since the pushing replica's last
/// pull, and the client pulls, settles, and pushes again. The policy runs in the transaction that
/// merges the pulled changes, and what it decides is written there as a local change: it reaches
/// every replica, which all converge to it. Each conflict is reported in
/// ``SyncState/conflicts``.
///
/// **What it is given.** `local` is the item as this replica had it before the pull; `remote` is
/// the same item with the other replicas' pulled changes applied over it (each field they set
/// takes their value). When either side removed the item, the field-by-field rule settles it: a
/// removal wins over older changes and loses to newer ones.
public struct SyncPolicy: Sendable {
    /// The collection of the model the policy is for.
    public let collection: String
    /// Settles a conflict of the item at a key from its two encodings, local and remote.
    let settle: @Sendable (_ key: String, _ local: [UInt8], _ remote: [UInt8]) throws -> Settlement

    /// What a policy decided for one conflict.
    struct Settlement: Sendable {
        /// The item's encoding at its key.
        var item: [UInt8]
        /// A second item to store, under its own key: the copy of ``SyncPolicy/keepBoth(_:copy:)``.
        var copy: (key: String, encoded: [UInt8])?
    }

    /// Keeps both versions: the item takes the remote version at its key, and the local version is
    /// stored as a new item, made by `copy` (which must give it another key, and may mark it, for
    /// example in its title). Nothing is lost, and the user chooses later.
    ///
    /// - Parameters:
    ///   - model: The synced model.
    ///   - copy: Makes the new item from the local version; its `id` must differ from the
    ///     original's.
    /// - Returns: The policy.
    public static func keepBoth<Item: Persistable>(
        _ model: Item.Type, copy: @escaping @Sendable (_ local: Item) throws -> Item
    ) -> SyncPolicy {
        SyncPolicy(collection: Item.collection) { key, local, remote in
            let made = try copy(try decode(Item.self, local, key: key))
            let copyKey = made.id.itemKey
            guard copyKey != key else {
                throw TroveError(
                    code: .misuse,
                    message: "The keep-both policy of '\(Item.collection)' made a copy with the key of the original: give the copy another id.",
                    collection: Item.collection, key: key)
            }
            return Settlement(item: remote, copy: (copyKey, try encode(made)))
        }
    }

    /// Merges the two versions with `merge`, whose result is stored at the item's key.
    ///
    /// The merge runs on one replica, the one that meets the conflict, and its result reaches the
    /// others as a change of that replica: it need not be commutative, but it should keep what
    /// each side meant (a union of sets, the larger of two counters' increments, both lines of a
    /// text).
    ///
    /// - Parameters:
    ///   - model: The synced model.
    ///   - merge: Makes the item from the local and the remote versions; its `id` must stay the
    ///     same.
    /// - Returns: The policy.
    public static func merge<Item: Persistable>(
        _ model: Item.Type, _ merge: @escaping @Sendable (_ local: Item, _ remote: Item) throws -> Item
    ) -> SyncPolicy {
        SyncPolicy(collection: Item.collection) { key, local, remote in
            let merged = try merge(try decode(Item.self, local, key: key), try decode(Item.self, remote, key: key))
            guard merged.id.itemKey == key else {
                throw TroveError(
                    code: .misuse,
                    message: "The merge policy of '\(Item.collection)' changed the id of the item it merged: keep the id.",
                    collection: Item.collection, key: key)
            }
            return Settlement(item: try encode(merged), copy: nil)
        }
    }

    private static func decode<Item: Persistable>(_ type: Item.Type, _ bytes: [UInt8], key: String) throws -> Item {
        do {
            return try bytes.withUnsafeBytes { buffer in
                var reader = BinaryReader(buffer)
                return try Item.Coder.decode(from: &reader)
            }
        } catch let error as TroveError {
            throw TroveError(
                code: error.code,
                message: "A version of the synced item could not be decoded for its merge policy: \(error.message)",
                collection: Item.collection, key: key, underlyingError: error)
        }
    }

    private static func encode<Item: Persistable>(_ item: Item) throws -> [UInt8] {
        var writer = BinaryWriter()
        try Item.Coder.encode(item, to: &writer)
        return writer.bytes
    }
}
