/// One kind of edge of a ``Relationships``: from each item of `Source` to items of one
/// destination collection, with a name and ``DeleteRules``.
///
/// An edge is either read from the source at every write (``to(_:_:rules:key:)``,
/// ``to(_:_:rules:keys:)``), so that changing the property moves it, or added and removed by
/// hand (``manual(_:to:rules:)``, ``Relationships/addEdge(_:from:to:in:)-(_,_,_,TransactionWriting)``).
public struct RelationshipEdge<Source: Persistable>: Sendable {
    /// The name of the edge, unique in its relationship.
    public let name: String
    /// The collection of the destinations.
    public let destinationCollection: String
    /// What a removal of one end does to the other.
    public let rules: DeleteRules
    /// The keys of the destinations of a source; `nil` for a manual edge.
    package let destinations: (@Sendable (Source) -> [String])?
    /// Tells the source of a removed destination, when it is `RelationshipNotifiable`.
    package let notifySource: RelationshipNotifier
    /// Tells the destination of a removed source, when it is `RelationshipNotifiable`.
    package let notifyDestination: RelationshipNotifier

    /// Whether the edge is added and removed by hand.
    public var isManual: Bool { destinations == nil }

    private init<Destination: Persistable>(
        name: String, destination: Destination.Type, rules: DeleteRules,
        destinations: (@Sendable (Source) -> [String])?
    ) {
        self.name = name
        destinationCollection = Destination.collection
        self.rules = rules
        self.destinations = destinations
        notifySource = RelationshipNotifier(Source.self)
        notifyDestination = RelationshipNotifier(Destination.self)
    }

    /// An edge from each source to the item whose key `key` returns, if any.
    ///
    /// ```swift
    /// .to("author", User.self, rules: .deleteSourceWhenDestinationDeleted) { $0.authorID }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of the edge: unique in the relationship.
    ///   - destination: The model of the destinations.
    ///   - rules: What a removal of one end does to the other.
    ///   - key: The key of the destination (`nil`: no edge). The destination need not exist.
    /// - Returns: The edge.
    public static func to<Destination: Persistable>(
        _ name: String, _ destination: Destination.Type, rules: DeleteRules = .none,
        key: @escaping @Sendable (Source) -> Destination.ID?
    ) -> Self {
        Self(name: name, destination: destination, rules: rules) { source in
            key(source).map { [$0.itemKey] } ?? []
        }
    }

    /// An edge from each source to every item whose key `keys` returns.
    ///
    /// ```swift
    /// .to("tags", Tag.self, rules: .deleteDestinationWhenAllSourcesDeleted) { Array($0.tagIDs) }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of the edge: unique in the relationship.
    ///   - destination: The model of the destinations.
    ///   - rules: What a removal of one end does to the other.
    ///   - keys: The keys of the destinations (repeated keys count once). They need not exist.
    /// - Returns: The edge.
    public static func to<Destination: Persistable>(
        _ name: String, _ destination: Destination.Type, rules: DeleteRules = .none,
        keys: @escaping @Sendable (Source) -> [Destination.ID]
    ) -> Self {
        Self(name: name, destination: destination, rules: rules) { source in
            keys(source).map(\.itemKey)
        }
    }

    /// An edge that no property describes: added and removed with
    /// ``Relationships/addEdge(_:from:to:in:)-(_,_,_,TransactionWriting)`` and ``Relationships/removeEdge(_:from:to:applyingRulesAsIfRemoved:in:)-(_,_,_,_,TransactionWriting)``.
    ///
    /// A rebuild of the extension (a new version or definition, or another process writing to
    /// the collection without maintaining it) recomputes the other edges from the items and
    /// keeps the manual ones whose source still exists, as long as the definition still declares
    /// this edge manual; their rules are those of the definition.
    ///
    /// - Parameters:
    ///   - name: The name of the edge: unique in the relationship.
    ///   - destination: The model of the destinations.
    ///   - rules: What a removal of one end does to the other.
    /// - Returns: The edge.
    public static func manual<Destination: Persistable>(
        _ name: String, to destination: Destination.Type, rules: DeleteRules = .none
    ) -> Self {
        Self(name: name, destination: destination, rules: rules, destinations: nil)
    }
}
