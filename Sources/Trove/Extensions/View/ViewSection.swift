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
    /// For the one section of consolidated groups (``ViewMappings/Consolidation``): the sections
    /// whose rows it shows, one after the other; empty for the section of one group.
    public let consolidated: [ViewSection]

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
        consolidated = []
    }

    /// Creates the one section that shows the rows of `sections`, one after the other, under the
    /// name `group` (see ``ViewMappings/Consolidation``).
    ///
    /// - Parameters:
    ///   - group: The name of the section.
    ///   - sections: The sections it consolidates.
    public init(group: String, consolidating sections: [ViewSection]) {
        self.group = group
        keys = sections.flatMap(\.keys)
        groupCount = keys.count
        isReversed = false
        groupRange = 0..<keys.count
        consolidated = sections
    }

    /// The group, and the index in that group, of the shown row at `row`, for any section,
    /// consolidated or not; `nil` when the section has no such row.
    ///
    /// - Parameter row: A row of the section.
    /// - Returns: The row's group and its index in the group.
    public func groupPosition(ofRow row: Int) -> (group: String, index: Int)? {
        guard !consolidated.isEmpty else { return groupIndex(ofRow: row).map { (group, $0) } }
        var rest = row
        for section in consolidated {
            if rest >= 0 && rest < section.keys.count { return section.groupPosition(ofRow: rest) }
            rest -= section.keys.count
        }
        return nil
    }

    /// The index in the view's group (as ``ViewReader/key(at:in:)`` takes it) of the shown row
    /// at `row`, or `nil` when the section has no such row (for a consolidated section, use
    /// ``groupPosition(ofRow:)``, which names the group too): like ``row(ofGroupIndex:)``,
    /// ``ViewSections/key(at:)`` and ``ViewSections/section(ofGroup:)``, an index outside the
    /// section is an answer, not a trap.
    ///
    /// - Parameter row: A row of the section, from 0 to the number of rows shown
    ///   (`groupRange.count`), excluded.
    /// - Returns: Its index in the group, or `nil` when `row` is negative or past the last row.
    public func groupIndex(ofRow row: Int) -> Int? {
        guard consolidated.isEmpty, row >= 0, row < groupRange.count else { return nil }
        return isReversed ? groupRange.upperBound - 1 - row : groupRange.lowerBound + row
    }

    /// The row of the section that shows the row at `index` of the view's group, or `nil` when
    /// that row is not shown.
    ///
    /// - Parameter index: An index in the view's group.
    /// - Returns: The row of the section.
    public func row(ofGroupIndex index: Int) -> Int? {
        guard consolidated.isEmpty, groupRange.contains(index) else { return nil }
        return isReversed ? groupRange.upperBound - 1 - index : index - groupRange.lowerBound
    }
}
