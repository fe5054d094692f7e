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
    /// changeset, and ``RelationshipNotifiable/relatedItemRemoved(_:)`` on the source.
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
    package var actOnDestinationRemoval: Bool {
        !isDisjoint(with: [
            .deleteSourceWhenDestinationDeleted, .deleteSourceWhenAllDestinationsDeleted,
            .notifySourceWhenDestinationDeleted,
        ])
    }

    /// Whether one of the rules acts when the source is removed.
    package var actOnSourceRemoval: Bool {
        !isDisjoint(with: [
            .deleteDestinationWhenSourceDeleted, .deleteDestinationWhenAllSourcesDeleted,
            .notifyDestinationWhenSourceDeleted,
        ])
    }

    // The decisions of the rules, written once for every engine: each engine reads what they
    // need (the sources left, a live destination) from its own tables and queues the removals.

    /// Whether the destination of an edge goes once a source of it went, while `sourcesLeft`
    /// sources still point at it through an edge of the same name (counted only when
    /// ``countsSourcesLeft``).
    package func removesDestination(sourcesLeft: Int) -> Bool {
        contains(.deleteDestinationWhenSourceDeleted)
            || (contains(.deleteDestinationWhenAllSourcesDeleted) && sourcesLeft == 0)
    }

    /// Whether ``removesDestination(sourcesLeft:)`` needs the number of sources left.
    package var countsSourcesLeft: Bool {
        contains(.deleteDestinationWhenAllSourcesDeleted)
    }

    /// What the rules do to a source once one destination of its edge went.
    package enum SourceRemoval: Sendable {
        /// The source stays.
        case never
        /// The source goes.
        case always
        /// The source goes when no destination of its edges of this name exists any more.
        case whenNoDestinationLeft
    }

    /// What the rules do to a source once one destination of its edge went.
    package var sourceRemoval: SourceRemoval {
        if contains(.deleteSourceWhenDestinationDeleted) { return .always }
        if contains(.deleteSourceWhenAllDestinationsDeleted) { return .whenNoDestinationLeft }
        return .never
    }
}
