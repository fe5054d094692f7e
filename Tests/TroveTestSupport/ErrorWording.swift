/// What a message shows of Trove's internals: SQL keywords and the names of Trove's own tables.
///
/// Errors say what failed and where in words; a user never needs the statement Trove ran to
/// understand one. The bad-input tests check every message (and `description`) with it:
///
/// ```swift
/// #expect(internalsShown(in: error.description).isEmpty)
/// ```
///
/// - Parameter message: A message or description of an error.
/// - Returns: The internal words found, in the order of ``internalWords``; empty when there are none.
public func internalsShown(in message: String) -> [String] {
    let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
    let found = Set(words.filter { internalWords.contains($0) || $0.hasPrefix("trove_") })
    return found.sorted()
}

/// SQL keywords as SQLite's statements spell them (upper case, whole words), and words that only
/// SQLite's own messages use. A message may say "SQLite" or name a file; it may not quote a
/// statement.
public let internalWords: Set<String> = [
    "SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "PRAGMA", "CREATE", "DROP", "ALTER", "BEGIN", "COMMIT",
    "ROLLBACK", "FROM", "WHERE", "VALUES", "INTO", "JOIN", "IMMEDIATE", "journal_mode", "user_version",
    "application_id", "rowid", "sqlite_master", "sqlite_schema",
]
