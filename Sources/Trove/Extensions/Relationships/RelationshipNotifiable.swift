/// A model whose items want to hear, inside the write transaction, that an item they are linked
/// to by a "notify" rule was removed (see ``DeleteRules/notifySourceWhenDestinationDeleted``).
///
/// ```swift
/// extension Post: RelationshipNotifiable {
///     func relatedItemRemoved(_ notice: RelationshipNotice, in transaction: ReadWriteTransaction) throws {
///         var orphan = self
///         orphan.authorID = nil
///         try transaction.write(orphan)
///     }
/// }
/// ```
public protocol RelationshipNotifiable: Persistable {
    /// Called on the notified item, as stored, once the cascade of removals that the rule is part
    /// of has run; not called when the notified item is gone by then. Writes and removals it
    /// makes are ordinary writes of the transaction; an error rolls the transaction back.
    ///
    /// - Parameters:
    ///   - notice: What was removed.
    ///   - transaction: The write transaction that removed it.
    func relatedItemRemoved(_ notice: RelationshipNotice, in transaction: ReadWriteTransaction) throws
}
