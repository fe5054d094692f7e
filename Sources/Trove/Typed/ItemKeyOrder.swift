/// How the keys of one model compare where Trove orders items "by key" to break a tie: the ties
/// of a ``View``'s sort and of an ``IndexQuery``'s orderings, and the order of an index query
/// that has none.
///
/// Keys are stored as text (``ItemKey/itemKey``). Comparing that text would put the integer key
/// 10 before 9, and -1 before -5, so where the model's key type is known to be an integer type
/// of up to 64 bits, keys compare by value; every other key (`String`, `UUID`, any
/// `LosslessStringConvertible`) compares by its stored text. The Swift comparison
/// (``precedes(_:_:)``) and the SQL one (``orderingTerms(of:)``) give the same order for every
/// key the typed API writes.
///
/// The order of a collection itself (`readAll(_:)`, the enumerations) stays the
/// order of the stored text: it is the order of the file's index on (collection, key), which
/// every page of an enumeration follows without sorting.
package enum ItemKeyOrder: Sendable, Hashable {
    /// By the stored text, as Swift's `<` compares strings (SQLite: byte by byte, which agrees
    /// for every string in Unicode's composed form).
    case text
    /// By value: an integer type of up to 64 bits.
    case integer

    /// The order of the keys of type `Key`.
    package init<Key: ItemKey>(of type: Key.Type) {
        if let integer = type as? any FixedWidthInteger.Type, integer.bitWidth <= 64 {
            self = .integer
        } else {
            self = .text
        }
    }

    /// Whether the stored key `lhs` comes before the stored key `rhs`.
    ///
    /// Integer keys compare by value, then, for the same value written two ways (`7` and `007`
    /// through the untyped API), by length, then text: the order of ``orderingTerms(of:)``.
    /// Text that is no integer sorts after every integer, by text.
    func precedes(_ lhs: String, _ rhs: String) -> Bool {
        switch self {
        case .text:
            return lhs < rhs
        case .integer:
            switch (Self.integerValue(lhs), Self.integerValue(rhs)) {
            case (let left?, let right?):
                if left != right { return left < right }
                if lhs.utf8.count != rhs.utf8.count { return lhs.utf8.count < rhs.utf8.count }
                return lhs < rhs
            case (.some, nil):
                return true
            case (nil, .some):
                return false
            case (nil, nil):
                return lhs < rhs
            }
        }
    }

    /// The terms of an SQL `ORDER BY` that order the stored keys of the column expression
    /// `column` as ``precedes(_:_:)`` does. For integers, `CAST` gives the value; the unsigned
    /// values above `Int64.max`, which it caps, follow by length and then text, which is their
    /// value for the decimal text the typed API writes.
    func orderingTerms(of column: String) -> String {
        switch self {
        case .text: column
        case .integer: "CAST(\(column) AS INTEGER), length(\(column)), \(column)"
        }
    }

    /// The value of an integer key of up to 64 bits, signed or not, or `nil` when `key` is no
    /// integer.
    private static func integerValue(_ key: String) -> IntegerKeyValue? {
        if let value = Int64(key) { return IntegerKeyValue(negative: value < 0, magnitude: value.magnitude) }
        if let value = UInt64(key) { return IntegerKeyValue(negative: false, magnitude: value) }
        return nil
    }
}

/// A signed or unsigned 64-bit integer, as its sign and magnitude: the values of every integer
/// key type, in one comparable type.
private struct IntegerKeyValue: Comparable {
    var negative: Bool
    var magnitude: UInt64

    static func < (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.negative, rhs.negative) {
        case (true, false): true
        case (false, true): false
        case (true, true): lhs.magnitude > rhs.magnitude
        case (false, false): lhs.magnitude < rhs.magnitude
        }
    }
}
