import Foundation

/// The SQLite type of a column of a ``SecondaryIndex``.
public enum IndexColumnType: String, Sendable, Hashable {
    /// `INTEGER`
    case integer = "INTEGER"
    /// `REAL`
    case real = "REAL"
    /// `TEXT`
    case text = "TEXT"
    /// `BLOB`
    case blob = "BLOB"
}
