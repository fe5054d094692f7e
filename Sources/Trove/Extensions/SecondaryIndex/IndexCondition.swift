/// A condition on one column of a ``SecondaryIndex``, for ``IndexQuery/filter(_:)``.
///
/// ```swift
/// .column("age", equals: 30)
/// .column("age", in: 18..<30)          // also a...b, ..<b, ...b, a...
/// .column("city", in: ["Paris", "Lyon"])
/// .column("nickname", isNil: true)
/// ```
///
/// A `nil` value is never in a range, and equals only `nil`.
public struct IndexCondition<Item: Persistable>: Sendable, Hashable {
    typealias Predicate = IndexPredicate

    /// The name of the column.
    public let column: String
    @usableFromInline package let predicate: IndexPredicate

    init(column: String, predicate: Predicate) {
        self.column = column
        self.predicate = predicate
    }

    /// The items whose `column` equals `value` (`nil` matches `nil` only).
    ///
    /// - Parameters:
    ///   - column: The name of the column.
    ///   - value: The value.
    /// - Returns: The condition.
    public static func column<Value: IndexValueConvertible>(_ column: String, equals value: Value) -> Self {
        let stored = value.indexValue
        return Self(column: column, predicate: stored == .null ? .isNull : .equals(stored))
    }

    /// The items whose `column` is one of `values`.
    ///
    /// - Parameters:
    ///   - column: The name of the column.
    ///   - values: The values; none matches nothing.
    /// - Returns: The condition.
    @_disfavoredOverload  // A range is a sequence too: its own overloads say it in SQL.
    public static func column<Value: IndexValueConvertible>(_ column: String, in values: some Sequence<Value>) -> Self {
        Self(column: column, predicate: .oneOf(values.map(\.indexValue)))
    }

    /// The items whose `column` is in `range`: any kind of range (`a..<b`, `a...b`, `a...`,
    /// `..<b`, `...b`).
    ///
    /// - Parameters:
    ///   - column: The name of the column.
    ///   - range: The range of values.
    /// - Returns: The condition.
    public static func column<Range: IndexRangeExpression>(_ column: String, in range: Range) -> Self {
        let bounds = range.indexBounds
        return Self(
            column: column,
            predicate: .range(
                lower: bounds.lower?.indexValue, lowerIncluded: bounds.lowerIncluded, upper: bounds.upper?.indexValue,
                upperIncluded: bounds.upperIncluded))
    }

    /// The items whose `column` is `nil` (`isNil: true`) or is not (`isNil: false`).
    ///
    /// - Parameters:
    ///   - column: The name of the column.
    ///   - isNil: Whether to match `nil` values or the others.
    /// - Returns: The condition.
    public static func column(_ column: String, isNil: Bool) -> Self {
        Self(column: column, predicate: isNil ? .isNull : .isNotNull)
    }
}

/// What an ``IndexCondition`` asks of its column (not generic: the SQL of a query is built
/// once for every item type).
@usableFromInline
package enum IndexPredicate: Sendable, Hashable {
    case equals(IndexValue)
    case oneOf([IndexValue])
    case range(lower: IndexValue?, lowerIncluded: Bool, upper: IndexValue?, upperIncluded: Bool)
    case isNull
    case isNotNull
}
