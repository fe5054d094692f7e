/// One section of ``ViewSections``: the rows of a group that the mappings show.
public struct ViewSection: Sendable, Hashable {
    /// The group.
    public let group: String
    /// The keys of the rows shown, in the order they are shown.
    public let keys: [String]
    /// The number of rows of the group in the view, shown or not.
    public let groupCount: Int
    /// Whether the rows are shown last to first.
    public let isReversed: Bool
    /// The indexes in the view's group of the rows shown (ascending, whatever the reversal).
    public let groupRange: Range<Int>

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - keys: The keys shown, in order.
    ///   - groupCount: The number of rows of the group in the view.
    ///   - isReversed: Whether the rows are shown last to first.
    ///   - groupRange: The indexes in the view's group of the rows shown.
    public init(group: String, keys: [String], groupCount: Int, isReversed: Bool, groupRange: Range<Int>) {
        self.group = group
        self.keys = keys
        self.groupCount = groupCount
        self.isReversed = isReversed
        self.groupRange = groupRange
    }

    /// The index in the view's group (as ``ViewReader/key(at:in:)`` takes it) of the shown row
    /// at `row`, or `nil` when the section has no such row: like ``row(ofGroupIndex:)``,
    /// ``ViewSections/key(at:)`` and ``ViewSections/section(ofGroup:)``, an index outside the
    /// section is an answer, not a trap.
    ///
    /// - Parameter row: A row of the section, from 0 to the number of rows shown
    ///   (`groupRange.count`), excluded.
    /// - Returns: Its index in the group, or `nil` when `row` is negative or past the last row.
    public func groupIndex(ofRow row: Int) -> Int? {
        guard row >= 0, row < groupRange.count else { return nil }
        return isReversed ? groupRange.upperBound - 1 - row : groupRange.lowerBound + row
    }

    /// The row of the section that shows the row at `index` of the view's group, or `nil` when
    /// that row is not shown.
    ///
    /// - Parameter index: An index in the view's group.
    /// - Returns: The row of the section.
    public func row(ofGroupIndex index: Int) -> Int? {
        guard groupRange.contains(index) else { return nil }
        return isReversed ? groupRange.upperBound - 1 - index : index - groupRange.lowerBound
    }
}
