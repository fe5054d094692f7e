import TroveCSQLite
import Foundation
import Trove

/// Runs SQL on a database file through a raw SQLite handle, behind Trove's back, to build the
/// damaged or foreign files that the error tests need.
func executeRawSQL(path: String, _ sql: String) throws {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
        sqlite3_close_v2(handle)
        throw TroveError(code: .sqlite, message: "raw open failed", path: path)
    }
    defer { sqlite3_close_v2(handle) }
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    guard code == SQLITE_OK else {
        let text = message.map { String(cString: $0) } ?? "unknown"
        sqlite3_free(message)
        throw TroveError(code: .sqlite, message: "raw SQL failed: \(text)", sql: sql, path: path, sqliteResultCode: code)
    }
}

/// Replaces the stored data of one item with bytes that are no valid encoding.
func corruptDataColumn(path: String, collection: String, key: String) throws {
    try executeRawSQL(
        path: path,
        "UPDATE trove_items SET data = x'FFFFFFFF07' WHERE collection = '\(collection)' AND key = '\(key)'")
}

/// Replaces the stored metadata of one item with bytes that are no valid encoding.
func corruptMetadataColumn(path: String, collection: String, key: String) throws {
    try executeRawSQL(
        path: path,
        "UPDATE trove_items SET metadata = x'FFFFFFFF07' WHERE collection = '\(collection)' AND key = '\(key)'")
}
