/// One criterion of the order of a ``View``'s rows within a group: a value of each item
/// compared ascending or descending, or a closure that compares two items.
///
/// ```swift
/// let order: [ViewSort<Message>] = [.descending(\.date), .ascending(\.sender)]
/// ```
///
/// Criteria apply in order: the second decides between items the first finds equal. Items that
/// every criterion finds equal are ordered by key: by value for an integer key type, by text for
/// the others.
public struct ViewSort<Item: Persistable>: Sendable {
    let areInIncreasingOrder: @Sendable (Item, Item) -> Bool

    /// Orders by `value`, smallest first.
    ///
    /// - Parameter value: The value of an item to compare, such as a key path (`\.date`).
    /// - Returns: The criterion.
    public static func ascending<Value: Comparable & Sendable>(_ value: @escaping @Sendable (Item) -> Value) -> Self {
        Self { value($0) < value($1) }
    }

    /// Orders by `value`, largest first.
    ///
    /// - Parameter value: The value of an item to compare, such as a key path (`\.date`).
    /// - Returns: The criterion.
    public static func descending<Value: Comparable & Sendable>(_ value: @escaping @Sendable (Item) -> Value) -> Self {
        Self { value($1) < value($0) }
    }

    /// Orders by a closure: whether its first item comes before its second. It must be a strict
    /// weak ordering, as for `sorted(by:)`.
    ///
    /// - Parameter areInIncreasingOrder: Whether the first item comes before the second.
    /// - Returns: The criterion.
    public static func by(_ areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool) -> Self {
        Self(areInIncreasingOrder: areInIncreasingOrder)
    }

    /// The order of several criteria, each deciding between items the ones before it find equal.
    static func combined(_ criteria: [ViewSort<Item>]) -> @Sendable (Item, Item) -> Bool {
        if criteria.count == 1 { return criteria[0].areInIncreasingOrder }
        return { lhs, rhs in
            for criterion in criteria {
                if criterion.areInIncreasingOrder(lhs, rhs) { return true }
                if criterion.areInIncreasingOrder(rhs, lhs) { return false }
            }
            return false
        }
    }
}
