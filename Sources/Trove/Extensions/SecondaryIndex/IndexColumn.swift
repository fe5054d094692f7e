/// A column of a ``SecondaryIndex``: its name, its type, whether its values are unique, and how
/// to compute its value from an item (and the item's metadata, which `Item.metadata` holds).
///
/// ```swift
/// let columns: [IndexColumn<User>] = [
///     .column("age") { $0.age },
///     .column("email", unique: true) { $0.email },
///     .column("visits") { $0.metadata?.visits },
/// ]
/// ```
public struct IndexColumn<Item: Persistable>: Sendable {
    /// The name of the column, used by queries: letters, digits and underscores.
    public let name: String
    /// The SQLite type of the column.
    public let type: IndexColumnType
    /// Whether two items may not have the same value (`nil` excepted).
    public let isUnique: Bool
    package let value: @Sendable (Item) -> IndexValue

    /// A column whose value `value` computes from each item.
    ///
    /// - Parameters:
    ///   - name: The name of the column: ASCII letters, digits and underscores, not starting
    ///     with a digit.
    ///   - unique: Whether two items may not have the same value; a write that would break it
    ///     throws ``TroveError/Code/uniqueViolation`` and its transaction is rolled back. `nil`
    ///     values are never in conflict.
    ///   - value: The value of the column for an item, with its metadata in `Item.metadata`.
    /// - Returns: The column.
    public static func column<Value: IndexValueConvertible>(
        _ name: String, unique: Bool = false, _ value: @escaping @Sendable (Item) -> Value
    ) -> IndexColumn {
        IndexColumn(name: name, type: Value.indexColumnType, isUnique: unique, value: { value($0).indexValue })
    }
}
