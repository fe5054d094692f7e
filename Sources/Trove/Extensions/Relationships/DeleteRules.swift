/// What happens to one end of an edge of a ``Relationships`` when the other end is removed.
///
/// The *source* is the item that holds the edge (a post, whose `authorID` points at a user);
/// the *destination* is the item it points at (the user). Rules combine:
/// `[.deleteSourceWhenDestinationDeleted, .notifyDestinationWhenSourceDeleted]`.
///
/// Every rule runs inside the write transaction that removes the item, and every item a rule
/// removes is an ordinary removal: other extensions and the changeset see it, and it fires the
/// rules of its own edges in turn (cascades end on cycles: an item is removed once).
public struct DeleteRules: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits of the rules.
    public let rawValue: Int

    /// Creates rules from their bits.
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// No rule: the edge is only a link to query.
    public static let none: DeleteRules = []
    /// Removes the source when its destination is removed (a post goes with its author).
    public static let deleteSourceWhenDestinationDeleted = DeleteRules(rawValue: 1 << 0)
    /// Removes the destination when the source is removed (a user's avatar goes with the user).
    public static let deleteDestinationWhenSourceDeleted = DeleteRules(rawValue: 1 << 1)
    /// Removes the source when none of the destinations of its edge of this name exists any more
    /// (an album goes when its last photo goes). Checked when one of them is removed.
    public static let deleteSourceWhenAllDestinationsDeleted = DeleteRules(rawValue: 1 << 2)
    /// Removes the destination when no source points at it through an edge of this name any more
    /// (a tag goes when the last post tagged with it goes). Checked when one of them is removed.
    public static let deleteDestinationWhenAllSourcesDeleted = DeleteRules(rawValue: 1 << 3)
    /// Reports the removal of the destination to the source: a ``RelationshipNotice`` in the
    /// changeset, and ``RelationshipNotifiable/relatedItemRemoved(_:in:)`` on the source.
    public static let notifySourceWhenDestinationDeleted = DeleteRules(rawValue: 1 << 4)
    /// Reports the removal of the source to the destination, as
    /// ``notifySourceWhenDestinationDeleted`` does the other way.
    public static let notifyDestinationWhenSourceDeleted = DeleteRules(rawValue: 1 << 5)

    static let named: [(String, DeleteRules)] = [
        ("deleteSourceWhenDestinationDeleted", .deleteSourceWhenDestinationDeleted),
        ("deleteDestinationWhenSourceDeleted", .deleteDestinationWhenSourceDeleted),
        ("deleteSourceWhenAllDestinationsDeleted", .deleteSourceWhenAllDestinationsDeleted),
        ("deleteDestinationWhenAllSourcesDeleted", .deleteDestinationWhenAllSourcesDeleted),
        ("notifySourceWhenDestinationDeleted", .notifySourceWhenDestinationDeleted),
        ("notifyDestinationWhenSourceDeleted", .notifyDestinationWhenSourceDeleted),
    ]

    /// The names of the rules, as in `[.deleteSourceWhenDestinationDeleted]`.
    public var description: String {
        "[" + Self.named.filter { contains($0.1) }.map { "." + $0.0 }.joined(separator: ", ") + "]"
    }

    /// Whether one of the rules acts when the destination is removed.
    var actOnDestinationRemoval: Bool {
        !isDisjoint(with: [
            .deleteSourceWhenDestinationDeleted, .deleteSourceWhenAllDestinationsDeleted,
            .notifySourceWhenDestinationDeleted,
        ])
    }

    /// Whether one of the rules acts when the source is removed.
    var actOnSourceRemoval: Bool {
        !isDisjoint(with: [
            .deleteDestinationWhenSourceDeleted, .deleteDestinationWhenAllSourcesDeleted,
            .notifyDestinationWhenSourceDeleted,
        ])
    }
}

/// What a "notify" rule of a relationship reports: in ``Changeset/relationshipNotices`` and to
/// ``RelationshipNotifiable/relatedItemRemoved(_:in:)``.
public struct RelationshipNotice: Sendable, Hashable {
    /// Which end of the edge was removed.
    public enum Removed: Sendable, Hashable {
        /// The source was removed; the destination is notified.
        case source
        /// The destination was removed; the source is notified.
        case destination
    }

    /// The name of the ``Relationships`` extension.
    public var relationship: String
    /// The name of the edge.
    public var edge: String
    /// Which end was removed.
    public var removed: Removed
    /// The item that holds the edge.
    public var source: ItemAddress
    /// The item the edge points at.
    public var destination: ItemAddress

    /// Creates a notice.
    ///
    /// - Parameters:
    ///   - relationship: The name of the extension.
    ///   - edge: The name of the edge.
    ///   - removed: Which end was removed.
    ///   - source: The source of the edge.
    ///   - destination: The destination of the edge.
    public init(relationship: String, edge: String, removed: Removed, source: ItemAddress, destination: ItemAddress) {
        self.relationship = relationship
        self.edge = edge
        self.removed = removed
        self.source = source
        self.destination = destination
    }

    /// The end that was not removed, which is notified.
    public var notified: ItemAddress {
        removed == .source ? destination : source
    }
}

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
