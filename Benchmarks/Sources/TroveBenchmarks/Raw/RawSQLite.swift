import CSQLiteBenchmark

/// A thin, fast wrapper of the SQLite C API for the raw implementations (the baseline and
/// Codable+JSON): what a careful engineer writes by hand, nothing more.
final class RawSQLite {
    let handle: OpaquePointer

    /// Opens (or creates) the database at `path` in WAL mode; an encrypted file (the trait
    /// `Encryption`, issue 34) with `passphrase`, given with `PRAGMA key` before anything else.
    init(path: String, passphrase: String? = nil) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(
            path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            if let handle { sqlite3_close_v2(handle) }
            throw BenchmarkError("cannot open \(path): SQLite error \(code)")
        }
        self.handle = handle
        if let passphrase {
            try execute(Self.keyStatement(passphrase))
        }
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The statement that gives SQLite3 Multiple Ciphers the passphrase of an encrypted file,
    /// first on a new handle (the trait `Encryption`, issue 34).
    static func keyStatement(_ passphrase: String) -> String {
        "PRAGMA key = '\(passphrase.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''"))'"
    }

    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql) }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql) }
        return RawStatement(statement, connection: self)
    }

    /// The row id of the last row this connection inserted.
    var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    func error(_ code: Int32, _ sql: String) -> BenchmarkError {
        BenchmarkError("SQLite error \(code) (\(String(cString: sqlite3_errmsg(handle)))) in \(sql)")
    }
}

/// A prepared statement, reused for every execution: bind, step, reset.
///
/// Text and blob parameters are bound without a copy (`SQLITE_STATIC`): the caller keeps them
/// alive until the statement is stepped, which every use here does.
final class RawStatement {
    let pointer: OpaquePointer
    unowned let connection: RawSQLite

    init(_ pointer: OpaquePointer, connection: RawSQLite) {
        self.pointer = pointer
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(pointer)
    }

    @inline(__always)
    func bindText(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int32) {
        sqlite3_bind_text(
            pointer, index, UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self),
            Int32(buffer.count), benchmark_sqlite_static())
    }

    @inline(__always)
    func bindBlob(_ buffer: UnsafeRawBufferPointer, at index: Int32) {
        sqlite3_bind_blob(pointer, index, buffer.baseAddress, Int32(buffer.count), benchmark_sqlite_static())
    }

    @inline(__always)
    func bindInt64(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(pointer, index, value)
    }

    @inline(__always)
    func bindDouble(_ value: Double, at index: Int32) {
        sqlite3_bind_double(pointer, index, value)
    }

    @inline(__always)
    func bindNull(at index: Int32) {
        sqlite3_bind_null(pointer, index)
    }

    /// Steps once: `true` when a row is available.
    @inline(__always)
    func step() throws -> Bool {
        let code = sqlite3_step(pointer)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let error = connection.error(code, String(cString: sqlite3_sql(pointer)))
        sqlite3_reset(pointer)
        throw error
    }

    @inline(__always)
    func reset() {
        sqlite3_reset(pointer)
    }

    /// Steps to the end, then resets.
    @inline(__always)
    func run() throws {
        defer { sqlite3_reset(pointer) }
        while try step() {}
    }

    @inline(__always)
    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(pointer, column) == SQLITE_NULL
    }

    /// The bytes of a blob column, valid until the next step or reset.
    @inline(__always)
    func blob(at column: Int32) -> UnsafeRawBufferPointer {
        let base = sqlite3_column_blob(pointer, column)
        return UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : Int(sqlite3_column_bytes(pointer, column)))
    }

    @inline(__always)
    func double(at column: Int32) -> Double {
        sqlite3_column_double(pointer, column)
    }

    @inline(__always)
    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(pointer, column)
    }

    @inline(__always)
    func text(at column: Int32) -> String {
        guard let text = sqlite3_column_text(pointer, column) else { return "" }
        return String(
            decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(pointer, column))), as: UTF8.self)
    }
}

extension String {
    /// Calls `body` with the UTF-8 bytes of the string, without copying a native string.
    @inline(__always)
    func withUTF8Buffer<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        if let result = try utf8.withContiguousStorageIfAvailable(body) {
            return result
        }
        var copy = self
        return try copy.withUTF8(body)
    }
}
