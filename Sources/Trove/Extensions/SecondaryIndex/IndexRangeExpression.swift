/// A range of values that an ``IndexCondition`` can match: `Range`, `ClosedRange`,
/// `PartialRangeFrom`, `PartialRangeUpTo` and `PartialRangeThrough` of any
/// ``IndexValueConvertible`` type.
public protocol IndexRangeExpression<Bound>: Sendable {
    /// The type of the values.
    associatedtype Bound: IndexValueConvertible & Comparable
    /// The bounds of the range; `nil` where it has none.
    var indexBounds: (lower: Bound?, lowerIncluded: Bool, upper: Bound?, upperIncluded: Bool) { get }
}

extension Range: IndexRangeExpression where Bound: IndexValueConvertible {
    /// `lower <= value < upper`.
    public var indexBounds: (lower: Bound?, lowerIncluded: Bool, upper: Bound?, upperIncluded: Bool) {
        (lowerBound, true, upperBound, false)
    }
}

extension ClosedRange: IndexRangeExpression where Bound: IndexValueConvertible {
    /// `lower <= value <= upper`.
    public var indexBounds: (lower: Bound?, lowerIncluded: Bool, upper: Bound?, upperIncluded: Bool) {
        (lowerBound, true, upperBound, true)
    }
}

extension PartialRangeFrom: IndexRangeExpression where Bound: IndexValueConvertible {
    /// `lower <= value`.
    public var indexBounds: (lower: Bound?, lowerIncluded: Bool, upper: Bound?, upperIncluded: Bool) {
        (lowerBound, true, nil, false)
    }
}

extension PartialRangeUpTo: IndexRangeExpression where Bound: IndexValueConvertible {
    /// `value < upper`.
    public var indexBounds: (lower: Bound?, lowerIncluded: Bool, upper: Bound?, upperIncluded: Bool) {
        (nil, false, upperBound, false)
    }
}

extension PartialRangeThrough: IndexRangeExpression where Bound: IndexValueConvertible {
    /// `value <= upper`.
    public var indexBounds: (lower: Bound?, lowerIncluded: Bool, upper: Bound?, upperIncluded: Bool) {
        (nil, false, upperBound, true)
    }
}
