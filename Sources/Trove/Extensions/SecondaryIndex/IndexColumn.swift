/// A column of a ``SecondaryIndex``: its name, its type, whether its values are unique, and how
/// to compute its value from an item (and the item's metadata, which `Item.metadata` holds).
///
/// ```swift
/// let columns: [IndexColumn<User>] = [
///     .column("age") { $0.age },
///     .column("email", unique: true) { $0.email },
///     .column("visits") { $0.metadata?.visits },
///     .values("tags") { $0.tags },                 // several values per item
/// ]
/// ```
public struct IndexColumn<Item: Persistable>: Sendable {
    /// The name of the column, used by queries: letters, digits and underscores.
    public let name: String
    /// The SQLite type of the column (of each of its values, for a multi-valued column).
    public let type: IndexColumnType
    /// Whether two items may not have the same value (`nil` excepted).
    public let isUnique: Bool
    /// Whether the column holds several values per item (``values(_:unique:_:)``), matched by
    /// ``IndexCondition/contains(_:_:)``, ``IndexCondition/containsAny(_:_:)`` and
    /// ``IndexCondition/containsAll(_:_:)``.
    public let isMultiValued: Bool
    /// The value of a single-valued column (`.null` for a multi-valued one).
    package let value: @Sendable (Item) -> IndexValue
    /// The values of a multi-valued column, `nil` values left out (none for a single-valued one).
    package let values: @Sendable (Item) -> [IndexValue]

    private init(
        name: String, type: IndexColumnType, isUnique: Bool, isMultiValued: Bool,
        value: @escaping @Sendable (Item) -> IndexValue, values: @escaping @Sendable (Item) -> [IndexValue]
    ) {
        self.name = name
        self.type = type
        self.isUnique = isUnique
        self.isMultiValued = isMultiValued
        self.value = value
        self.values = values
    }

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
        IndexColumn(
            name: name, type: Value.indexColumnType, isUnique: unique, isMultiValued: false,
            value: { value($0).indexValue }, values: { _ in [] })
    }

    /// A multi-valued column: each item has the values of the collection `values` computes (an
    /// array, a set: any `Sendable` sequence), matched by ``IndexCondition/contains(_:_:)``,
    /// ``IndexCondition/containsAny(_:_:)`` and ``IndexCondition/containsAll(_:_:)``.
    ///
    /// ```swift
    /// .values("tags") { $0.tags }          // tags: [String] or Set<String>
    /// ```
    ///
    /// A value repeated in one item's collection counts once, and `nil` values are left out. The
    /// values are kept in a table of their own (one row per item and distinct value, with an
    /// SQLite index on the value then the item), written in the same transaction as the item. A
    /// multi-valued column cannot order a query.
    ///
    /// - Parameters:
    ///   - name: The name of the column: ASCII letters, digits and underscores, not starting
    ///     with a digit.
    ///   - unique: Must be `false`: a unique multi-valued column is refused when the index is
    ///     registered (``TroveError/Code/extensionFailed``), since what it would mean (no value
    ///     in two items, or no two items with the same collection) is not one thing.
    ///   - values: The values of the column for an item, with its metadata in `Item.metadata`.
    /// - Returns: The column.
    public static func values<Values: Sequence & Sendable>(
        _ name: String, unique: Bool = false, _ values: @escaping @Sendable (Item) -> Values
    ) -> IndexColumn where Values.Element: IndexValueConvertible {
        IndexColumn(
            name: name, type: Values.Element.indexColumnType, isUnique: unique, isMultiValued: true,
            value: { _ in .null },
            values: { item in
                var stored: [IndexValue] = []
                for element in values(item) {
                    let value = element.indexValue
                    if value != .null { stored.append(value) }
                }
                return stored
            })
    }
}
