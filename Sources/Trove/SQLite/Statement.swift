internal import CSQLite
import Foundation

/// A prepared SQLite statement, owned by a ``SQLiteConnection``.
///
/// Parameters are 1-based as in SQLite, columns 0-based. After stepping, call ``reset()`` so
/// that the statement releases its read snapshot and bound values.
final class Statement {
    let pointer: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String

    init(pointer: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.pointer = pointer
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(pointer)
    }

    // MARK: Binding

    func bind(_ value: String, at index: Int32) throws {
        let code = value.utf8.withContiguousStorageIfAvailable { buffer in
            sqlite3_bind_text(
                pointer, index, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                Int32(buffer.count), trove_sqlite_transient())
        } ?? sqlite3_bind_text(pointer, index, value, -1, trove_sqlite_transient())
        try check(code)
    }

    func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(pointer, index, value))
    }

    /// Binds a blob. The bytes are copied by SQLite.
    func bind(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        // A zero-length blob must still be a blob, not NULL: SQLite binds NULL for a nil pointer.
        if bytes.count == 0 {
            try check(sqlite3_bind_zeroblob(pointer, index, 0))
        } else {
            try check(sqlite3_bind_blob(pointer, index, bytes.baseAddress, Int32(bytes.count), trove_sqlite_transient()))
        }
    }

    func bind(_ bytes: [UInt8], at index: Int32) throws {
        try bytes.withUnsafeBytes { try bind($0, at: index) }
    }

    func bind(_ data: Data, at index: Int32) throws {
        try data.withUnsafeBytes { try bind($0, at: index) }
    }

    func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(pointer, index))
    }

    // MARK: Stepping

    /// Steps once. Returns `true` when a row is available, `false` when the statement is done.
    func step() throws -> Bool {
        if sqlite3_stmt_busy(pointer) == 0 {
            try connection.statementWillStart(sql: sql)
        }
        let code = sqlite3_step(pointer)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code: code, sql: sql)
        }
    }

    /// Steps until the statement is done, ignoring rows.
    func stepToEnd() throws {
        while try step() {}
    }

    /// Resets the statement and clears its bindings. Never fails: an error of the last step was
    /// already thrown by ``step()``.
    func reset() {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    // MARK: Columns

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(pointer, column) == SQLITE_NULL
    }

    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(pointer, column)
    }

    func string(at column: Int32) -> String {
        guard let text = sqlite3_column_text(pointer, column) else { return "" }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return String(decoding: UnsafeRawBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The bytes of a blob column, valid until the next step or reset.
    func bytes(at column: Int32) -> UnsafeRawBufferPointer {
        let base = sqlite3_column_blob(pointer, column)
        let count = Int(sqlite3_column_bytes(pointer, column))
        return UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count)
    }

    func data(at column: Int32) -> Data {
        Data(bytes(at: column))
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            throw connection.error(code: code, sql: sql)
        }
    }
}

// Explicit non-conformance to Sendable: a statement belongs to one handle, used under its lock.
@available(*, unavailable)
extension Statement: Sendable {}
