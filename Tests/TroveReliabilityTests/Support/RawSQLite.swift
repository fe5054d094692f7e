import TroveCSQLite
import Foundation
import Trove
import TroveTestSupport

/// A raw SQLite handle on a database file, behind Trove's back: to check the file as SQLite sees
/// it, and to damage it.
final class RawDatabase {
    private let handle: OpaquePointer

    init(path: String, flags: Int32 = SQLITE_OPEN_READWRITE) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw TroveError(code: .sqlite, message: "raw open failed (\(code))", path: path)
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 5_000)
        #if Encryption
        if let key = TestEncryption.keyLiteral {
            _ = sqlite3_key_v2(handle, "main", key, Int32(key.utf8.count))
        }
        #endif
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The rows of `sql`, each column as text (`nil` for NULL).
    func rows(_ sql: String) throws -> [[String?]] {
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK else { throw failure(code, sql) }
        defer { sqlite3_finalize(statement) }
        var rows: [[String?]] = []
        while true {
            code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(code, sql) }
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) }
                })
        }
        return rows
    }

    func execute(_ sql: String) throws {
        _ = try rows(sql)
    }

    /// The result of `PRAGMA integrity_check`: `["ok"]` for a sound file.
    func integrityCheck() throws -> [String] {
        try rows("PRAGMA integrity_check").map { $0.first.flatMap { $0 } ?? "NULL" }
    }

    private func failure(_ code: Int32, _ sql: String) -> TroveError {
        TroveError(
            code: .sqlite, message: "raw SQL failed: \(String(cString: sqlite3_errmsg(handle)))", sql: sql,
            sqliteResultCode: code)
    }
}

/// `PRAGMA integrity_check` of the file at `path`, through a raw SQLite handle.
func integrityCheck(path: String) throws -> [String] {
    try RawDatabase(path: path).integrityCheck()
}
