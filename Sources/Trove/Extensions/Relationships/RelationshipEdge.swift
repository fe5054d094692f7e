/// One kind of edge of a ``Relationships``: from each item of `Source` to items of one
/// destination collection, with a name and ``DeleteRules``.
///
/// An edge is either read from the source at every write (``to(_:_:rules:key:)``,
/// ``to(_:_:rules:keys:)``), so that changing the property moves it, or added and removed by
/// hand (``manual(_:to:rules:)``, ``Relationships/addEdge(_:from:to:in:)-(_,_,_,TransactionWriting)``).
///
/// An edge may also point at files instead of items (``toFile(_:in:rules:path:)``,
/// ``toFiles(_:in:rules:paths:)``, ``manualFiles(_:in:rules:)``): its destinations are paths in
/// a folder, and its rules remove the files once the transaction that removed their last source
/// commits.
public struct RelationshipEdge<Source: Persistable>: Sendable {
    /// The name of the edge, unique in its relationship.
    public let name: String
    /// The collection of the destinations; empty for an edge to files.
    public let destinationCollection: String
    /// The folder of the destinations of an edge to files, as the definition gives it (relative
    /// to the database file's folder, or absolute); `nil` for an edge to items.
    public let fileFolder: String?
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

    /// Whether the destinations are files (``fileFolder`` is set).
    public var isFile: Bool { fileFolder != nil }

    private init<Destination: Persistable>(
        name: String, destination: Destination.Type, rules: DeleteRules,
        destinations: (@Sendable (Source) -> [String])?
    ) {
        self.name = name
        destinationCollection = Destination.collection
        fileFolder = nil
        self.rules = rules
        self.destinations = destinations
        notifySource = RelationshipNotifier(Source.self)
        notifyDestination = RelationshipNotifier(Destination.self)
    }

    private init(name: String, folder: String, rules: DeleteRules, paths: (@Sendable (Source) -> [String])?) {
        self.name = name
        destinationCollection = ""
        fileFolder = folder
        self.rules = rules
        destinations = paths
        notifySource = RelationshipNotifier(Source.self)
        notifyDestination = RelationshipNotifier(Source.self)
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

    /// An edge from each source to the file at the path `path` returns, if any: a path relative
    /// to `folder`, which the rules remove after the commit of the transaction that removed its
    /// source (YapDatabase's edges to files).
    ///
    /// ```swift
    /// .toFile("photo", in: "photos", rules: .deleteDestinationWhenAllSourcesDeleted) { $0.photoFileName }
    /// ```
    ///
    /// A file is removed only once the transaction has committed, never on a rollback, and never
    /// while an edge to files in the same folder still names it, whatever the rule: a file has no
    /// key of its own to tell two sources' copies apart. A process stopped between the commit and
    /// the removal leaves it to the next registration (the next open). Only the rules that remove
    /// destinations apply to files: ``DeleteRules/deleteDestinationWhenSourceDeleted`` and
    /// ``DeleteRules/deleteDestinationWhenAllSourcesDeleted``. A write that changes the path moves
    /// the edge and leaves the old file alone: rules act on removals.
    ///
    /// - Parameters:
    ///   - name: The name of the edge: unique in the relationship.
    ///   - folder: The folder of the files: relative to the folder of the database file (the
    ///     files then move with it), or absolute.
    ///   - rules: What the removal of a source does to its file.
    ///   - path: The path of the file, relative to `folder` and inside it (no `..`), or `nil`: no
    ///     edge. The file need not exist.
    /// - Returns: The edge.
    public static func toFile(
        _ name: String, in folder: String, rules: DeleteRules, path: @escaping @Sendable (Source) -> String?
    ) -> Self {
        Self(name: name, folder: folder, rules: rules) { source in path(source).map { [$0] } ?? [] }
    }

    /// An edge from each source to every file at the paths `paths` returns, relative to
    /// `folder`, as ``toFile(_:in:rules:path:)`` describes.
    ///
    /// - Parameters:
    ///   - name: The name of the edge: unique in the relationship.
    ///   - folder: The folder of the files: relative to the folder of the database file, or absolute.
    ///   - rules: What the removal of a source does to its files.
    ///   - paths: The paths of the files, relative to `folder` (repeated paths count once).
    /// - Returns: The edge.
    public static func toFiles(
        _ name: String, in folder: String, rules: DeleteRules, paths: @escaping @Sendable (Source) -> [String]
    ) -> Self {
        Self(name: name, folder: folder, rules: rules, paths: paths)
    }

    /// An edge to files in `folder` that no property describes: added and removed by hand with
    /// ``Relationships/addEdge(_:from:to:in:)-(_,_,_,ReadWriteTransaction)`` and
    /// ``Relationships/removeEdge(_:from:to:applyingRulesAsIfRemoved:in:)-(_,_,_,_,ReadWriteTransaction)``,
    /// whose destination is the file's path relative to `folder`. Removing the last edge to a file
    /// `applyingRulesAsIfRemoved: .source` removes it after the commit, when the rules say so.
    ///
    /// - Parameters:
    ///   - name: The name of the edge: unique in the relationship.
    ///   - folder: The folder of the files: relative to the folder of the database file, or absolute.
    ///   - rules: What the removal of a source (or of its edge, when asked) does to its files.
    /// - Returns: The edge.
    public static func manualFiles(_ name: String, in folder: String, rules: DeleteRules) -> Self {
        Self(name: name, folder: folder, rules: rules, paths: nil)
    }
}
