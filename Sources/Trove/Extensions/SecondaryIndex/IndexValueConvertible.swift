import Foundation

/// A type whose values can be stored in a column of a ``SecondaryIndex`` and matched by its
/// queries.
///
/// Trove's conformances: the integer types, `Double`, `Float`, `Bool`, `String`, `UUID`, `Date`,
/// `Data`, and `Optional` of any of them (`nil` is stored as `NULL`). A raw-value enum conforms by
/// declaring it, and is stored as its raw value:
///
/// ```swift
/// enum Status: String, IndexValueConvertible { case active, archived }
/// ```
///
/// The stored value keeps the order of the Swift values, so that range queries and sorting
/// agree with `<`: `UInt` and `UInt64` are stored with their top bit flipped (0 is stored as
/// `Int64.min`), and text is ordered by code point, which differs from `String`'s `<` only for
/// text that Unicode normalization changes.
public protocol IndexValueConvertible: Sendable {
    /// The SQLite type of a column of this type.
    static var indexColumnType: IndexColumnType { get }
    /// The value as the index stores it.
    var indexValue: IndexValue { get }
}

extension IndexValueConvertible where Self: BinaryInteger {
    /// Integers are stored as `INTEGER`.
    public static var indexColumnType: IndexColumnType { .integer }
    /// The integer as a 64-bit signed integer.
    public var indexValue: IndexValue { .integer(Int64(self)) }
}

extension Int: IndexValueConvertible {}
extension Int8: IndexValueConvertible {}
extension Int16: IndexValueConvertible {}
extension Int32: IndexValueConvertible {}
extension Int64: IndexValueConvertible {}
extension UInt8: IndexValueConvertible {}
extension UInt16: IndexValueConvertible {}
extension UInt32: IndexValueConvertible {}

extension UInt64: IndexValueConvertible {
    /// The value with its top bit flipped, as a 64-bit signed integer: every value fits, in order.
    public var indexValue: IndexValue { .integer(Int64(bitPattern: self ^ (1 << 63))) }
}

extension UInt: IndexValueConvertible {
    /// The value with its top bit flipped, as a 64-bit signed integer: every value fits, in order.
    public var indexValue: IndexValue { UInt64(self).indexValue }
}

extension Bool: IndexValueConvertible {
    /// Stored as `INTEGER`, 0 or 1.
    public static var indexColumnType: IndexColumnType { .integer }
    /// 1 for `true`, 0 for `false`.
    public var indexValue: IndexValue { .integer(self ? 1 : 0) }
}

extension Double: IndexValueConvertible {
    /// Stored as `REAL`.
    public static var indexColumnType: IndexColumnType { .real }
    /// The number; NaN is stored as `NULL`, as SQLite does.
    public var indexValue: IndexValue { isNaN ? .null : .real(self) }
}

extension Float: IndexValueConvertible {
    /// Stored as `REAL`.
    public static var indexColumnType: IndexColumnType { .real }
    /// The number as a `Double`; NaN is stored as `NULL`.
    public var indexValue: IndexValue { Double(self).indexValue }
}

extension String: IndexValueConvertible {
    /// Stored as `TEXT`.
    public static var indexColumnType: IndexColumnType { .text }
    /// The string.
    public var indexValue: IndexValue { .text(self) }
}

extension UUID: IndexValueConvertible {
    /// Stored as a 16-byte `BLOB`.
    public static var indexColumnType: IndexColumnType { .blob }
    /// The 16 bytes of the UUID.
    public var indexValue: IndexValue {
        withUnsafeBytes(of: uuid) { .blob(Array($0)) }
    }
}

extension Date: IndexValueConvertible {
    /// Stored as `REAL`, seconds since 1970.
    public static var indexColumnType: IndexColumnType { .real }
    /// The seconds since 00:00:00 UTC on 1 January 1970.
    public var indexValue: IndexValue { .real(timeIntervalSince1970) }
}

extension Data: IndexValueConvertible {
    /// Stored as `BLOB`.
    public static var indexColumnType: IndexColumnType { .blob }
    /// The bytes.
    public var indexValue: IndexValue { .blob(Array(self)) }
}

extension Optional: IndexValueConvertible where Wrapped: IndexValueConvertible {
    /// The type of the wrapped value; `nil` is stored as `NULL`.
    public static var indexColumnType: IndexColumnType { Wrapped.indexColumnType }
    /// The wrapped value, or ``IndexValue/null``.
    public var indexValue: IndexValue { self?.indexValue ?? .null }
}

extension IndexValueConvertible where Self: RawRepresentable, RawValue: IndexValueConvertible {
    /// A raw-value type is stored as its raw value.
    public static var indexColumnType: IndexColumnType { RawValue.indexColumnType }
    /// The raw value, as the index stores it.
    public var indexValue: IndexValue { rawValue.indexValue }
}
