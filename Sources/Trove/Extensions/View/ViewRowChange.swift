/// A row that changed in a view (see ``ViewChanges`` for the index convention).
public struct ViewRowChange: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// What happened to the row.
    public enum Kind: Int, Sendable, Hashable {
        /// The row left the view: its item was removed, or no longer passes the filter or has a
        /// group.
        case removed
        /// The row entered the view.
        case inserted
        /// The row moved: within its group or to another group.
        case moved
        /// The row stayed in place among the rows that did not move; its item, its metadata, or
        /// nothing (a touch) changed.
        case updated
    }

    /// What of the row's item changed.
    public struct Parts: OptionSet, Sendable, Hashable {
        /// The item was written (its data, and its metadata with it).
        public static let item = Parts(rawValue: 1)
        /// Only the metadata was replaced.
        public static let metadata = Parts(rawValue: 2)
        /// A row that this row draws from changed: its neighbour at one of the offsets of
        /// ``ViewMappings/Rows/dependencies`` is another row, or was updated. Only in
        /// ``ViewSectionChanges``.
        public static let neighbour = Parts(rawValue: 4)

        /// The raw value.
        public let rawValue: UInt8

        /// Creates a set of parts from its raw value.
        ///
        /// - Parameter rawValue: The raw value.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }
    }

    /// What happened to the row.
    public var kind: Kind
    /// The key of the row's item.
    public var key: String
    /// The collection of the row's item in a view over several collections
    /// (``MultiCollectionView``); `nil` in a ``View`` of one type, whose collection is its type's.
    public var collection: String?
    /// The position before the changes: `nil` for an inserted row.
    public var from: ViewIndexPath?
    /// The position after the changes: `nil` for a removed row.
    public var to: ViewIndexPath?
    /// What of the item changed: empty for a touch, or for a row that only moved because its
    /// item was removed and stored again.
    public var changedParts: Parts

    /// Creates a row change.
    ///
    /// - Parameters:
    ///   - kind: What happened to the row.
    ///   - key: The key of the row's item.
    ///   - from: The position before the changes.
    ///   - to: The position after the changes.
    ///   - changedParts: What of the item changed.
    ///   - collection: The collection of the row's item, in a view over several collections.
    public init(
        kind: Kind, key: String, from: ViewIndexPath?, to: ViewIndexPath?, changedParts: Parts = [],
        collection: String? = nil
    ) {
        self.kind = kind
        self.key = key
        self.collection = collection
        self.from = from
        self.to = to
        self.changedParts = changedParts
    }

    /// Orders changes by kind, then by position (the old one for removals, the new one for the
    /// others), then key.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
        let left = lhs.to ?? lhs.from
        let right = rhs.to ?? rhs.from
        if left != right, let left, let right { return left < right }
        if lhs.key != rhs.key { return lhs.key < rhs.key }
        return (lhs.collection ?? "") < (rhs.collection ?? "")
    }

    /// A short description: `moved k1 a[3] -> b[0]`, or `moved notes/k1 a[3] -> b[0]` in a view
    /// over several collections.
    public var description: String {
        let name = collection.map { "\($0)/\(key)" } ?? key
        return "\(kind) \(name) \(from?.description ?? "-") -> \(to?.description ?? "-")"
    }
}
