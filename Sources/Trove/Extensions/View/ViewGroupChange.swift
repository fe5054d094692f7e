/// A group that appeared in a view or left it.
public struct ViewGroupChange: Sendable, Hashable, Comparable {
    /// What happened to the group.
    public enum Kind: Int, Sendable, Hashable {
        /// The group had no row before and has some after.
        case inserted
        /// The group had rows before and has none after.
        case removed
    }

    /// What happened to the group.
    public var kind: Kind
    /// The group.
    public var group: String

    /// Creates a group change.
    ///
    /// - Parameters:
    ///   - kind: What happened to the group.
    ///   - group: The group.
    public init(kind: Kind, group: String) {
        self.kind = kind
        self.group = group
    }

    /// Orders changes by kind, then group.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.kind.rawValue, lhs.group) < (rhs.kind.rawValue, rhs.group)
    }
}
