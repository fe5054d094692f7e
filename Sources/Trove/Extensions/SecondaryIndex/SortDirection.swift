/// The direction of an ordering.
public enum SortDirection: Sendable, Hashable {
    /// Smallest first.
    case ascending
    /// Largest first.
    case descending
}
