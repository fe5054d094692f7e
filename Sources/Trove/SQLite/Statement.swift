internal import TroveCSQLite
import Foundation

/// A prepared SQLite statement, owned by a ``SQLiteConnection``.
///
/// Parameters are 1-based as in SQLite, columns 0-based. After stepping, call ``reset()`` so
/// that the statement releases its read snapshot and bound values.
///
/// Bound values are not copied by SQLite (`SQLITE_STATIC`), which saves an allocation, a copy
/// and a free per value: strings are copied once into the statement's own text buffer, which
/// lives as long as the statement and is reused after ``reset()``; blobs are read where they
/// are, so their memory must stay valid until the statement is reset (see
/// ``bind(_:at:)-(UnsafeRawBufferPointer,_)``).
final class Statement {
    let pointer: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String

    /// The UTF-8 of the strings bound since the last ``reset()``, side by side, that SQLite reads
    /// in place. Allocated on the first bound string and freed after the statement is finalized,
    /// so it outlives every step; never reallocated, so bound text never moves. A string that
    /// does not fit in what is left is bound as a copy that SQLite makes.
    private var text: UnsafeMutableRawPointer?
    /// The number of bytes of ``text`` in use by bound strings.
    private var textCount = 0
    /// The size of ``text``: room for the collection and key of any statement, unless they are
    /// unusually long.
    private static var textCapacity: Int { 256 }

    init(pointer: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.pointer = pointer
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(pointer)
        text?.deallocate()
    }

    // MARK: Binding

    /// Binds a string as text.
    ///
    /// Its UTF-8 is copied into the statement's text buffer and bound from there without
    /// another copy, or bound as a copy that SQLite makes when the buffer is full.
    func bind(_ value: String, at index: Int32) throws {
        try check(value.withUTF8Bytes { bindText($0, at: index) })
    }

    /// Binds UTF-8 bytes as text, copied as a string's are.
    func bind(utf8Text utf8: UnsafeRawBufferPointer, at index: Int32) throws {
        try check(bindText(utf8, at: index))
    }

    /// Binds `utf8` from the text buffer, or as a copy that SQLite makes if it does not fit.
    private func bindText(_ utf8: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        let count = utf8.count
        guard count <= Self.textCapacity &- textCount else {
            // Here `count` > 0 (an empty string always fits), so the base address is not nil.
            guard count <= Int32.max else { return SQLITE_TOOBIG }
            return sqlite3_bind_text(
                pointer, index, utf8.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(count),
                trove_sqlite_transient())
        }
        let buffer = text ?? allocateText()
        let destination = buffer + textCount
        if let source = utf8.baseAddress, count > 0 {
            destination.copyMemory(from: source, byteCount: count)
        }
        textCount &+= count
        return sqlite3_bind_text(
            pointer, index, destination.assumingMemoryBound(to: CChar.self), Int32(count), trove_sqlite_static())
    }

    private func allocateText() -> UnsafeMutableRawPointer {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.textCapacity, alignment: 1)
        text = buffer
        return buffer
    }

    func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(pointer, index, value))
    }

    /// Binds a blob without copying it: SQLite reads `bytes` where they are when the statement
    /// is stepped.
    ///
    /// ```swift
    /// try data.withUnsafeBytes { bytes in
    ///     defer { statement.reset() }
    ///     try statement.bind(bytes, at: 3)
    ///     try statement.stepToEnd()
    /// }
    /// ```
    ///
    /// - Important: `bytes` must stay valid and unchanged until the statement is reset: step
    ///   and reset it inside the scope that provides `bytes` (the `withUnsafeBytes` closure of a
    ///   `Data` or a ``BinaryWriter``).
    func bind(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        try bindBlob(bytes, at: index, destructor: trove_sqlite_static())
    }

    func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(pointer, index, value))
    }

    /// Binds a blob as a copy that SQLite makes, for bytes that do not outlive this call.
    func bindCopy(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        try bindBlob(bytes, at: index, destructor: trove_sqlite_transient())
    }

    private func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32, destructor: sqlite3_destructor_type?)
        throws
    {
        guard bytes.count <= Int32.max else { throw connection.error(code: SQLITE_TOOBIG, sql: sql) }
        // A zero-length blob must still be a blob, not NULL: SQLite binds NULL for a nil pointer.
        if bytes.count == 0 {
            try check(sqlite3_bind_zeroblob(pointer, index, 0))
        } else {
            try check(sqlite3_bind_blob(pointer, index, bytes.baseAddress, Int32(bytes.count), destructor))
        }
    }

    func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(pointer, index))
    }

    // MARK: Stepping

    /// Steps once. Returns `true` when a row is available, `false` when the statement is done.
    func step() throws -> Bool {
        if !isBusy {
            try connection.statementWillStart(sql: sql)
        }
        let code = sqlite3_step(pointer)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code: code, sql: sql)
        }
    }

    /// Steps once, as ``step()``; an error of SQLite names the collection and the key being read
    /// (SQLite knows only the file).
    func step(collection: String, key: String?) throws -> Bool {
        do {
            return try step()
        } catch let error as TroveError {
            throw error.involving(collection: collection, key: key)
        }
    }

    /// Whether the statement has been stepped and has neither finished nor been reset: it is
    /// in use by a caller further up the stack.
    var isBusy: Bool {
        sqlite3_stmt_busy(pointer) != 0
    }

    /// Steps until the statement is done, ignoring rows.
    func stepToEnd() throws {
        while try step() {}
    }

    /// Resets the statement and clears its bindings, so that it no longer refers to the memory
    /// of bound values. Never fails: an error of the last step was already thrown by ``step()``.
    func reset() {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
        // No binding refers to the text buffer any more: it can be reused.
        textCount = 0
    }

    // MARK: Columns

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(pointer, column) == SQLITE_NULL
    }

    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(pointer, column)
    }

    func double(at column: Int32) -> Double {
        sqlite3_column_double(pointer, column)
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

    /// The number of columns of the statement's rows.
    var columnCount: Int32 {
        sqlite3_column_count(pointer)
    }

    /// The value of `column` as SQLite stores it.
    func value(at column: Int32) -> IndexValue {
        switch sqlite3_column_type(pointer, column) {
        case SQLITE_INTEGER: .integer(int64(at: column))
        case SQLITE_FLOAT: .real(double(at: column))
        case SQLITE_TEXT: .text(string(at: column))
        case SQLITE_BLOB: .blob(Array(bytes(at: column)))
        default: .null
        }
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
