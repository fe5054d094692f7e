// Finding rows by what they hold: a binary search over a group's rows, for the rows that a
// caller's placement puts together (the messages of one day in a view sorted by date).

/// Where a row stands against the rows a search looks for (see
/// ``ViewReader/range(in:where:)``).
public enum ViewRowPlacement: Sendable, Hashable {
    /// The row comes before the rows looked for.
    case before
    /// The row is one of the rows looked for.
    case match
    /// The row comes after the rows looked for.
    case after
}

extension ViewReader {
    /// The indexes of the rows of `group` that `placement` matches, found by binary search.
    ///
    /// The placement must agree with the view's sort: along the group, every row it places
    /// ``ViewRowPlacement/before`` comes first, then the rows it matches, then the rows it places
    /// ``ViewRowPlacement/after``. In a view of messages sorted by date, the messages of one day:
    ///
    /// ```swift
    /// let tuesday = try messages.read(tx).range(in: conversationID) { message in
    ///     message.date < tuesdayStart ? .before : message.date < wednesdayStart ? .match : .after
    /// }
    /// let rows = try messages.read(tx).items(in: conversationID, range: tuesday)
    /// ```
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - placement: Where a row's item stands against the rows looked for.
    /// - Returns: The range of the matching rows; when no row matches, the empty range at the
    ///   index where such rows would be.
    /// - Throws: What `placement` throws, and what ``items(in:range:)`` throws.
    /// - Complexity: O(log n) reads of one row, n rows in the group.
    public func range(in group: String, where placement: (Item) throws -> ViewRowPlacement) throws -> Range<Int> {
        let count = try count(in: group)
        let lower = try partitionPoint(in: group, 0..<count) { try placement($0) != .before }
        let upper = try partitionPoint(in: group, lower..<count) { try placement($0) == .after }
        return lower..<upper
    }

    /// The index of the first row of `group` that `placement` matches, found by binary search.
    ///
    /// The placement must agree with the view's sort, as for ``range(in:where:)``; this reads
    /// half the rows that method reads.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - placement: Where a row's item stands against the rows looked for.
    /// - Returns: The index, or `nil` when no row matches.
    /// - Throws: What `placement` throws, and what ``items(in:range:)`` throws.
    /// - Complexity: O(log n) reads of one row, n rows in the group.
    public func firstIndex(in group: String, where placement: (Item) throws -> ViewRowPlacement) throws -> Int? {
        let count = try count(in: group)
        let lower = try partitionPoint(in: group, 0..<count) { try placement($0) != .before }
        guard lower < count, let item = try item(at: lower, in: group), try placement(item) == .match else {
            return nil
        }
        return lower
    }

    /// The first index of `range` whose row `isPast` holds for, or `range.upperBound`: `isPast`
    /// must be false for the rows of a prefix of the range and true for the others.
    private func partitionPoint(
        in group: String, _ range: Range<Int>, where isPast: (Item) throws -> Bool
    ) throws -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            guard let item = try item(at: middle, in: group) else {
                // The group is shorter than its count said: impossible within one snapshot.
                throw TroveError.viewRowWithoutItem(
                    view: view.name, collections: [Item.collection], group: group, index: middle)
            }
            if try isPast(item) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }
}
