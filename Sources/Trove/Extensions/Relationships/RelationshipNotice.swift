/// What a "notify" rule of a relationship reports: in ``Changeset/relationshipNotices`` and to
/// ``RelationshipNotifiable/relatedItemRemoved(_:)``.
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
