/// A condition on one column of a ``SecondaryIndex``, for ``IndexQuery/filter(_:)``.
///
/// ```swift
/// .column("age", equals: 30)
/// .column("age", in: 18..<30)          // also a...b, ..<b, ...b, a...
/// .column("city", in: ["Paris", "Lyon"])
/// .column("nickname", isNil: true)
/// .contains("tags", "swift")                 // a multi-valued column (`IndexColumn.values`)
/// .containsAny("tags", ["swift", "sqlite"])
/// .containsAll("tags", ["swift", "sqlite"])
/// ```
///
/// A `nil` value is never in a range, and equals only `nil`. The conditions of a multi-valued
/// column and of the other columns combine in one query.
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

    /// The items whose multi-valued `column` (``IndexColumn/values(_:unique:_:)``) has `value`
    /// among its values (`nil` matches nothing: `nil` values are not kept).
    ///
    /// - Parameters:
    ///   - column: The name of a multi-valued column.
    ///   - value: The value.
    /// - Returns: The condition.
    public static func contains<Value: IndexValueConvertible>(_ column: String, _ value: Value) -> Self {
        Self(column: column, predicate: .containsAny([value.indexValue]))
    }

    /// The items whose multi-valued `column` has at least one of `values`. An empty `values`
    /// matches nothing (no item has one of no values). Each item comes once, however many of
    /// `values` it has.
    ///
    /// - Parameters:
    ///   - column: The name of a multi-valued column.
    ///   - values: The values.
    /// - Returns: The condition.
    public static func containsAny<Value: IndexValueConvertible>(_ column: String, _ values: some Sequence<Value>)
        -> Self
    {
        Self(column: column, predicate: .containsAny(IndexPredicate.distinct(values.map(\.indexValue))))
    }

    /// The items whose multi-valued `column` has every one of `values` (and maybe others). An
    /// empty `values` matches every item of the index (every item has all of no values); a `nil`
    /// among `values` matches nothing.
    ///
    /// - Parameters:
    ///   - column: The name of a multi-valued column.
    ///   - values: The values.
    /// - Returns: The condition.
    public static func containsAll<Value: IndexValueConvertible>(_ column: String, _ values: some Sequence<Value>)
        -> Self
    {
        Self(column: column, predicate: .containsAll(IndexPredicate.distinct(values.map(\.indexValue))))
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
    /// A multi-valued column has one of the values (none: matches nothing).
    case containsAny([IndexValue])
    /// A multi-valued column has every one of the values, which are distinct (none: matches
    /// everything).
    case containsAll([IndexValue])

    /// Whether the predicate is about a multi-valued column.
    package var isMultiValued: Bool {
        switch self {
        case .containsAny, .containsAll: true
        default: false
        }
    }

    /// Whether the SQL of the predicate depends on the length of a list of values (the SQL of
    /// such a query is not kept, lest a program keep one per length); `contains` (one value) is
    /// not such a list.
    package var hasList: Bool {
        switch self {
        case .oneOf: true
        case .containsAny(let values), .containsAll(let values): values.count > 1
        default: false
        }
    }

    /// `values` without repetitions, in their first order.
    static func distinct(_ values: [IndexValue]) -> [IndexValue] {
        var seen: Set<IndexValue> = []
        return values.filter { seen.insert($0).inserted }
    }
}
