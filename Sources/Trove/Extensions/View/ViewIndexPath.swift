/// The position of a row in a view: its group and its index in the group.
public struct ViewIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The group.
    public var group: String
    /// The index of the row in the group, from 0.
    public var index: Int

    /// Creates a position.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - index: The index in the group.
    public init(group: String, index: Int) {
        self.group = group
        self.index = index
    }

    /// Orders positions by group, then index.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.group, lhs.index) < (rhs.group, rhs.index)
    }

    /// `group[index]`.
    public var description: String {
        "\(group)[\(index)]"
    }
}
