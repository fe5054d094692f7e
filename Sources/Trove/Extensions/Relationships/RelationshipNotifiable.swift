/// A model whose items want to hear that an item they are linked to by a "notify" rule was
/// removed (see ``DeleteRules/notifySourceWhenDestinationDeleted``), and say what to do about it,
/// on every engine.
///
/// ```swift
/// extension Post: RelationshipNotifiable {
///     func relatedItemRemoved(_ notice: RelationshipNotice) -> RelationshipReaction<Post> {
///         var orphan = self
///         orphan.authorID = nil
///         return .write(orphan)
///     }
/// }
/// ```
///
/// The callback decides; the engine acts, in the transaction that removed the related item: as
/// YapDatabase's relationship callbacks return the object to save, the item returns itself
/// changed (``RelationshipReaction/write(_:)``), asks to be removed
/// (``RelationshipReaction/remove``) or stays (``RelationshipReaction/keep``). Because it is
/// handed no transaction, the same conformance runs on a Trove file and on PostgreSQL.
public protocol RelationshipNotifiable: Persistable {
    /// Called on the notified item, as stored, once the cascade of removals that the rule is part
    /// of has run; not called when the notified item is gone by then. What it returns is done in
    /// the same transaction, as an ordinary write or removal (which may fire more rules); an
    /// error rolls the transaction back.
    ///
    /// - Parameter notice: What was removed.
    /// - Returns: What to do with this item.
    func relatedItemRemoved(_ notice: RelationshipNotice) throws -> RelationshipReaction<Self>
}

/// What a ``RelationshipNotifiable`` item does when it hears of a removal.
public enum RelationshipReaction<Item: Persistable>: Sendable {
    /// Nothing: the item stays as it is.
    case keep
    /// The item is written with this value (at its own key).
    case write(Item)
    /// The item is removed.
    case remove
}

/// Delivers the notices of one end of an edge: reads the notified item as its type, asks it
/// (when it is ``RelationshipNotifiable``) and does what it answers, in a Trove file's
/// transaction or in any engine's.
package struct RelationshipNotifier: Sendable {
    private let deliverNow: @Sendable (RelationshipNotice, ReadWriteTransaction) throws -> Void
    private let deliverAsync: @Sendable (RelationshipNotice, any TransactionWriting) async throws -> Void

    /// The notifier of the items of `Item`.
    init<Item: Persistable>(_ type: Item.Type) {
        deliverNow = { notice, transaction in
            guard let key = Item.ID(itemKey: notice.notified.key),
                let item = try transaction.read(Item.self, key: key)
            else { return }
            switch try Self.reaction(of: item, to: notice) {
            case .keep: break
            case .write(let written): try transaction.write(written)
            case .remove: _ = try transaction.remove(Item.self, key: key)
            }
        }
        deliverAsync = { notice, transaction in
            guard let key = Item.ID(itemKey: notice.notified.key),
                let item = try await transaction.read(Item.self, key: key)
            else { return }
            switch try Self.reaction(of: item, to: notice) {
            case .keep: break
            case .write(let written): try await transaction.write(written)
            case .remove: _ = try await transaction.remove(Item.self, key: key)
            }
        }
    }

    /// Tells the notified item of `notice`, in a Trove file's write transaction.
    func deliver(_ notice: RelationshipNotice, in transaction: ReadWriteTransaction) throws {
        try deliverNow(notice, transaction)
    }

    /// Tells the notified item of `notice`, in a write transaction of any engine.
    package func deliver(_ notice: RelationshipNotice, in transaction: some TransactionWriting) async throws {
        try await deliverAsync(notice, transaction)
    }

    /// What `item` answers to `notice`: ``RelationshipReaction/keep`` when it does not listen.
    private static func reaction<Item: Persistable>(of item: Item, to notice: RelationshipNotice) throws
        -> RelationshipReaction<Item>
    {
        guard let notifiable = item as? any RelationshipNotifiable else { return .keep }
        return try answer(of: notifiable, to: notice) as? RelationshipReaction<Item> ?? .keep
    }

    /// The answer of `item`, with its own type.
    private static func answer<Notified: RelationshipNotifiable>(of item: Notified, to notice: RelationshipNotice)
        throws -> any Sendable
    {
        try item.relatedItemRemoved(notice)
    }
}
