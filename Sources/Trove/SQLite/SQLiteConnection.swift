internal import TroveCSQLite

/// One SQLite database handle, with its cache of prepared statements.
///
/// Not thread-safe: the owning ``Connection`` (or ``Database`` while it opens the file) uses it
/// only while holding its lock.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    /// Whether the handle was opened read-only on purpose (``Configuration/isReadOnly``), as
    /// opposed to a file that SQLite could only open for reading.
    let isOpenedReadOnly: Bool
    /// The statements used most, looked up by a linear scan: the SQL of the runtime's
    /// statements are constants, and comparing a constant with itself is a pointer comparison,
    /// while hashing its text for a dictionary costs hundreds of instructions on every use; an
    /// entry whose SQL has another length is passed over without comparing text. A statement
    /// used more often than the one before it moves one place forward, so that the statements of
    /// a hot path (a point read's select, an index's insert) come early, whatever the order they
    /// were first prepared in, and two statements used in turn do not swap places at every use.
    private var frequentStatements: [FrequentStatement] = []
    /// The statements prepared after the first ``frequentStatementLimit``.
    private var statements: [String: Statement] = [:]
    private static let frequentStatementLimit = 16
    /// Whether the owner has begun a transaction that it has not ended yet (see
    /// ``checkTransactionIsActive(sql:)``).
    private(set) var isTransactionExpected = false
    /// The error after which SQLite rolled the expected transaction back on its own (set by
    /// ``error(code:sql:)``).
    var abortCause: TroveError?
    /// The statement that holds the snapshot of the current guarded read (see
    /// ``beginGuardedRead()``), or `nil` outside one.
    private var readGuard: Statement?
    /// The statement of a guarded read: it reads the schema cookie from the file header, which
    /// starts a read transaction, and returns one row.
    private static let readGuardSQL = "PRAGMA schema_version"
    /// The statements started in the current guarded read.
    private var guardedStatements = 0
    /// The statements after which a guarded read turns into an explicit transaction: in
    /// autocommit mode SQLite tries to end the transaction when each statement finishes (about
    /// 450 instructions that find the guard still active), where `BEGIN` and `COMMIT` cost about
    /// 2,000 once.
    private static let statementsBeforeBegin = 8

    /// Opens a handle on `path`.
    ///
    /// - Throws: ``TroveError`` when SQLite cannot open the file, saying what is wrong with the
    ///   path (see ``PathDiagnosis``).
    init(path: String, flags: Int32, key: EncryptionKey? = nil) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let resultCode = handle.map { sqlite3_extended_errcode($0) } ?? code
            let systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
            if let handle { sqlite3_close_v2(handle) }
            throw Self.openError(path: path, flags: flags, resultCode: resultCode, systemErrno: systemErrno)
        }
        self.handle = handle
        self.path = path
        self.isOpenedReadOnly = flags & SQLITE_OPEN_READONLY != 0
        sqlite3_extended_result_codes(handle, 1)
        if let key {
            try useKey(key)
        }
    }

    /// Gives SQLite the key of the file, before anything reads it, and checks it by reading the
    /// schema: a wrong key fails here, before anything is written.
    private func useKey(_ key: EncryptionKey) throws {
        #if Encryption
        guard !key.material.isEmpty else {
            throw TroveError(
                code: .misuse, message: "The encryption key of '\(path)' is an empty passphrase: give a passphrase, or no key.",
                path: path)
        }
        let code = key.material.withUnsafeBytes { bytes in
            sqlite3_key_v2(handle, "main", bytes.baseAddress, Int32(bytes.count))
        }
        guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
        do {
            try execute("SELECT count(*) FROM sqlite_master")
        } catch let error as TroveError where error.isNotADatabase {
            throw TroveError(
                code: .encryptionKey,
                message:
                    "The encryption key given does not open '\(path)': it is not the key the file was encrypted with, or the file is not encrypted (open it without a key).",
                path: path, underlyingError: error)
        }
        #else
        throw TroveError(
            code: .misuse,
            message:
                "'\(path)' cannot be opened with an encryption key: this build of Trove has no encryption. Enable Trove's package trait \"Encryption\" (traits: [\"Encryption\"] where your package depends on Trove).",
            path: path)
        #endif
    }

    /// Opens the first handle of a database on `path` with `key`, and returns with it the key of
    /// the database's other handles. For a passphrase, that is the key it derives with the file's
    /// salt, used raw, so that the derivation (PBKDF2, a fifth of a second) runs once per database
    /// instead of once per handle: before this open when the file has its salt already, after it
    /// for a new file. When the key derived does not open the file (a wrong passphrase, a salt
    /// that changed), the passphrase itself is tried, and fails as it would have.
    ///
    /// - Returns: The handle, the key of the other handles, and how many times the open derived a
    ///   key from the passphrase (0 without one, 1 for a file with its salt, 2 for a new file).
    /// - Throws: What ``init(path:access:key:busyTimeoutMilliseconds:)`` throws.
    static func openFirst(
        path: String, access: Access, key: EncryptionKey?
    ) throws -> (connection: SQLiteConnection, otherKey: EncryptionKey?, derivations: Int) {
        guard let key, key.isPassphrase else { return (try SQLiteConnection(path: path, access: access, key: key), key, 0) }
        var derivations = 0
        if let salt = PathDiagnosis.encryptedSalt(path), let derived = derive(key, salt: salt, settingsOf: nil) {
            derivations += 1
            if let connection = try? SQLiteConnection(path: path, access: access, key: derived) {
                return (connection, derived, derivations)
            }
        }
        let connection = try SQLiteConnection(path: path, access: access, key: key)
        let derived = connection.derivedKey(for: key)
        return (connection, derived ?? key, derivations + (derived == nil ? 1 : 2))
    }

    /// The key that `key`, the passphrase this connection was keyed with, derives with the
    /// file's salt; `nil` when `key` is not a passphrase, or the file's scheme is not SQLCipher 4's.
    private func derivedKey(for key: EncryptionKey) -> EncryptionKey? {
        #if Encryption
        var salt = [UInt8](repeating: 0, count: 16)
        guard trove_sqlcipher_salt(handle, &salt) == SQLITE_OK else { return nil }
        return Self.derive(key, salt: salt, settingsOf: handle)
        #else
        return nil
        #endif
    }

    /// The raw key (with `salt`) that the passphrase `key` derives with `salt`, by SQLCipher 4's
    /// scheme with the settings of `handle` (`nil`: the defaults); `nil` when `key` is not a
    /// passphrase, the settings are another scheme's, or the build has no encryption.
    private static func derive(_ key: EncryptionKey, salt: [UInt8], settingsOf handle: OpaquePointer?) -> EncryptionKey? {
        #if Encryption
        guard key.isPassphrase, salt.count == 16 else { return nil }
        var derived = [UInt8](repeating: 0, count: 32)
        let code = key.material.withUnsafeBytes { passphrase in
            trove_sqlcipher_derive_key(handle, passphrase.baseAddress, Int32(passphrase.count), salt, &derived)
        }
        return code == SQLITE_OK ? EncryptionKey.derived(key: derived, salt: salt) : nil
        #else
        return nil
        #endif
    }

    deinit {
        frequentStatements.removeAll()
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Returns the cached prepared statement for `sql`, preparing it on first use.
    ///
    /// When the cached statement is being stepped (an enumeration whose body runs the same SQL
    /// again, in the same transaction), returns a new statement instead, used once and
    /// finalized: rebinding or resetting the one in use would end the outer loop.
    func cachedStatement(_ sql: String) throws -> Statement {
        let length = sql.utf8.count
        let found: Statement? = frequentStatements.withUnsafeMutableBufferPointer { entries in
            for index in entries.indices where entries[index].length == length && entries[index].sql == sql {
                entries[index].uses &+= 1
                if index > 0, entries[index].uses > entries[index - 1].uses {
                    entries.swapAt(index, index - 1)
                    return entries[index - 1].statement
                }
                return entries[index].statement
            }
            return nil
        }
        if let found {
            return found.isBusy ? try makeStatement(sql) : found
        }
        if let statement = statements[sql] {
            return statement.isBusy ? try makeStatement(sql) : statement
        }
        let statement = try makeStatement(sql)
        if frequentStatements.count < Self.frequentStatementLimit {
            frequentStatements.append(FrequentStatement(sql: sql, length: length, statement: statement))
        } else {
            statements[sql] = statement
        }
        return statement
    }

    /// Finalizes the cached statements that are not in use, releasing their memory; they are
    /// prepared again on their next use.
    ///
    /// - Returns: The number of statements finalized.
    @discardableResult
    func removeCachedStatements() -> Int {
        let before = frequentStatements.count + statements.count
        frequentStatements.removeAll { !$0.statement.isBusy }
        statements = statements.filter { $0.value.isBusy }
        return before - frequentStatements.count - statements.count
    }

    /// The number of prepared statements in the cache.
    var cachedStatementCount: Int {
        frequentStatements.count + statements.count
    }

    /// Prepares a statement that is not cached.
    func makeStatement(_ sql: String) throws -> Statement {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            throw error(code: code, sql: sql)
        }
        return Statement(pointer: pointer, connection: self, sql: sql)
    }

    /// Runs one or more SQL statements that return no rows.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw error(code: code, sql: sql)
        }
    }

    /// Runs a statement from the cache that returns no rows.
    func executeCached(_ sql: String) throws {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.stepToEnd()
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int {
        Int(sqlite3_changes64(handle))
    }

    /// The number of rows changed by INSERT, UPDATE and DELETE statements of this handle since
    /// it was opened: an enumeration compares it before and after its body to notice writes.
    var totalChanges: Int64 {
        sqlite3_total_changes64(handle)
    }

    /// The row id of the last row inserted by this handle, or what ``lastInsertRowID`` was set to.
    var lastInsertRowID: Int64 {
        get { sqlite3_last_insert_rowid(handle) }
        set { sqlite3_set_last_insert_rowid(handle, newValue) }
    }

    /// Whether the handle is inside an explicit transaction.
    var isInsideTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    // MARK: Guarded reads

    /// Starts a read transaction without `BEGIN`: steps a statement that returns a row and keeps
    /// it active until ``endGuardedRead()``.
    ///
    /// In autocommit mode SQLite keeps a read transaction open while any statement is active,
    /// and every statement run meanwhile reads the same snapshot. A guarded read costs one
    /// statement step and one reset, where `BEGIN` … `COMMIT` costs two statements more, and its
    /// first read needs no `BEGIN` to run first.
    ///
    /// - Throws: ``TroveError`` when SQLite cannot start the read transaction.
    func beginGuardedRead() throws {
        let statement = try cachedStatement(Self.readGuardSQL)
        do {
            guard try statement.step() else {
                throw TroveError(
                    code: .sqlite, message: "SQLite could not start a read transaction on the database file '\(path)'.",
                    sql: Self.readGuardSQL, path: path)
            }
        } catch {
            statement.reset()
            throw error
        }
        readGuard = statement
    }

    /// Ends the read transaction of ``beginGuardedRead()``. Never fails: a read transaction
    /// has nothing to lose.
    func endGuardedRead() {
        if readGuard != nil && isInsideTransaction {
            do {
                try executeCached("COMMIT")
            } catch {
                try? execute("ROLLBACK")
            }
        }
        readGuard?.reset()
        readGuard = nil
        guardedStatements = 0
    }

    /// A number that changes whenever the database file changed since this handle's previous
    /// transaction: commits of this handle, of other handles, and of other processes
    /// (`SQLITE_FCNTL_DATA_VERSION`).
    ///
    /// It is brought up to date when a read transaction starts, so call it inside one, or
    /// right after a commit of this handle.
    ///
    /// - Throws: ``TroveError`` when SQLite cannot tell.
    func dataVersion() throws -> UInt32 {
        var version: UInt32 = 0
        let code = sqlite3_file_control(handle, nil, SQLITE_FCNTL_DATA_VERSION, &version)
        guard code == SQLITE_OK else {
            throw TroveError(
                code: .sqlite,
                message: "SQLite cannot tell whether the database file '\(path)' changed since the last transaction.",
                path: path, sqliteResultCode: code)
        }
        return version
    }

    // MARK: Transactions begun by the owner

    /// Records that a transaction has begun: until ``transactionEnded()``, statements must run
    /// inside it.
    func transactionBegan() {
        isTransactionExpected = true
        abortCause = nil
    }

    /// Records that the transaction has been committed or rolled back.
    func transactionEnded() {
        isTransactionExpected = false
        abortCause = nil
    }

    /// Called before the first step of every statement: checks that the transaction is still
    /// there, and turns a guarded read that runs many statements into an explicit transaction.
    ///
    /// - Parameter sql: The statement about to run, for the error.
    /// - Throws: ``TroveError`` when SQLite ended the transaction after an earlier error.
    func statementWillStart(sql: String) throws {
        try checkTransactionIsActive(sql: sql)
        guard readGuard != nil, !isInsideTransaction else { return }
        guardedStatements += 1
        if guardedStatements == Self.statementsBeforeBegin {
            // Inside the guarded read: BEGIN keeps its snapshot.
            try executeCached("BEGIN DEFERRED")
        }
    }

    /// Throws when a transaction was begun but SQLite has rolled it back on its own.
    ///
    /// After some errors (`SQLITE_FULL`, `SQLITE_IOERR`, `SQLITE_NOMEM`, `SQLITE_BUSY`, an
    /// interrupt) SQLite may roll back the whole transaction, not only the failing statement.
    /// A statement run after that would run in autocommit mode: it would be stored on its own,
    /// outside the transaction that the caller believes atomic, without a changeset. Statements
    /// call this check before their first step, so that the transaction's later statements
    /// and its commit fail instead.
    ///
    /// - Parameter sql: The statement about to run, for the error.
    /// - Throws: ``TroveError`` naming the error after which SQLite rolled back, with its
    ///   result code.
    func checkTransactionIsActive(sql: String) throws {
        if let readGuard, sqlite3_stmt_busy(readGuard.pointer) == 0 {
            throw TroveError(
                code: .sqlite,
                message:
                    "The read transaction on the database file '\(path)' lost its snapshot: SQLite reset it after an earlier error. No statement can run in it any more.",
                sql: sql, path: path)
        }
        guard isTransactionExpected, !isInsideTransaction else { return }
        let cause = abortCause.map { ": \($0.message)" } ?? "."
        throw TroveError(
            code: abortCause?.code ?? .sqlite,
            message:
                "The transaction was rolled back by SQLite after an earlier error\(cause) Nothing it wrote is stored, and no statement can run in it any more.",
            sql: sql, path: path, sqliteResultCode: abortCause?.sqliteResultCode, underlyingError: abortCause)
    }
}

// Explicit non-conformance to Sendable: a handle is used only under its owner's lock.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}

/// An entry of a connection's frequent statements: its SQL, the SQL's length in UTF-8 (compared
/// first), the prepared statement and how often it was asked for.
private struct FrequentStatement {
    let sql: String
    let length: Int
    let statement: Statement
    var uses = 0
}
