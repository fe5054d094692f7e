import Foundation

/// A value in a column of a ``SecondaryIndex``, as SQLite stores it.
public enum IndexValue: Sendable, Hashable {
    /// No value (`nil`).
    case null
    /// An integer: integers, `Bool` (0 or 1), and raw values that are integers.
    case integer(Int64)
    /// A floating-point number: `Double`, `Float`, and `Date` (seconds since 1970).
    case real(Double)
    /// Text, compared byte by byte in UTF-8 (that is, by Unicode code point).
    case text(String)
    /// Bytes, compared byte by byte: `Data`, and `UUID` (its 16 bytes).
    case blob([UInt8])
}
