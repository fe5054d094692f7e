/// An ordering of the results of an ``IndexQuery`` by a column of its index. Items with equal
/// values are ordered by key (by value for an integer key type, by text for the others), so the
/// order is total; `nil` sorts first when ascending.
public struct IndexOrder<Item: Persistable>: Sendable, Hashable {
    /// The name of the column.
    public let column: String
    /// The direction.
    public let direction: SortDirection

    /// An ordering by `column`.
    ///
    /// - Parameters:
    ///   - column: The name of the column.
    ///   - direction: The direction (default ascending).
    /// - Returns: The ordering.
    public static func column(_ column: String, _ direction: SortDirection = .ascending) -> Self {
        Self(column: column, direction: direction)
    }
}
