internal import TroveCSQLite

// What the layers above ask of a database file through SQLite: how a handle is opened, whether it
// can write, a backup into another file and a checkpoint of the write-ahead log. The rest of the
// runtime never calls SQLite's C API; it calls these.

extension SQLiteConnection {
    /// How a handle opens its file.
    enum Access {
        /// Reads only, whatever the file's permissions.
        case readOnly
        /// Reads and writes an existing file.
        case readWrite
        /// Reads and writes, creating the file when it does not exist.
        case readWriteCreate

        var flags: Int32 {
            switch self {
            case .readOnly: SQLITE_OPEN_READONLY
            case .readWrite: SQLITE_OPEN_READWRITE
            case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
        }
    }

    /// Opens a handle on `path` with `access` and the file's `key` (`nil`: not encrypted), waiting up to `busyTimeoutMilliseconds` for the
    /// locks of other connections (none when `nil`).
    ///
    /// - Throws: ``TroveError`` when SQLite cannot open the file, saying what is wrong with the
    ///   path.
    convenience init(path: String, access: Access, key: EncryptionKey?, busyTimeoutMilliseconds: Int? = nil) throws {
        try self.init(path: path, flags: access.flags, key: key)
        if let busyTimeoutMilliseconds {
            setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        }
    }

    /// Waits up to `milliseconds` for the locks of other connections before a statement fails
    /// with `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// Whether the handle can only read its file: opened read-only, or a file SQLite could only
    /// open for reading.
    var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    /// Copies the whole database of this handle into the database of `destination`,
    /// `pagesPerStep` pages at a time, reporting after each step.
    ///
    /// - Parameters:
    ///   - destination: The handle of the copy.
    ///   - pagesPerStep: How many pages each step copies (at least 1).
    ///   - progress: Called after each step with the pages copied so far and the total.
    ///   - describe: Words that say which backup failed, put before SQLite's.
    /// - Throws: ``TroveError`` from the source when it is damaged, from the destination
    ///   otherwise (a full disk).
    func backup(
        into destination: SQLiteConnection, pagesPerStep: Int, progress: ((_ copied: Int, _ total: Int) -> Void)?,
        describe: String
    ) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.error(code: sqlite3_errcode(destination.handle), sql: nil)
        }
        var result: Int32 = SQLITE_OK
        repeat {
            result = sqlite3_backup_step(backup, Int32(clamping: max(1, pagesPerStep)))
            switch result {
            case SQLITE_OK, SQLITE_DONE:
                let total = Int(sqlite3_backup_pagecount(backup))
                progress?(total - Int(sqlite3_backup_remaining(backup)), total)
            case SQLITE_BUSY, SQLITE_LOCKED:
                // Only the new file can be locked (by a process that opened it meanwhile): wait.
                sqlite3_sleep(10)
            default:
                sqlite3_backup_finish(backup)
                // Damage is the source's; anything else (a full disk) the copy's.
                let isDamage = result & 0xFF == SQLITE_CORRUPT || result & 0xFF == SQLITE_NOTADB
                var error = (isDamage ? self : destination).error(code: result, sql: nil)
                error.message = "\(describe) \(error.message)"
                throw error
            }
        } while result != SQLITE_DONE
        let finish = sqlite3_backup_finish(backup)
        guard finish == SQLITE_OK else {
            throw destination.error(code: finish, sql: nil)
        }
    }

    /// Takes the file out of write-ahead logging, which SQLite does only when no other handle has
    /// it open: the check that this handle is alone on the file, and what SQLite3 Multiple Ciphers
    /// needs to change the key of a plain file. Trove puts the file back in write-ahead logging
    /// when it next opens it.
    ///
    /// - Throws: ``TroveError`` with code ``TroveError/Code/misuse`` when another connection or
    ///   process has the file open.
    func takeExclusiveAccess() throws {
        let openElsewhere = TroveError(
            code: .misuse,
            message: "The encryption key of '\(path)' cannot change while another connection or process has the file open: close them first.",
            path: path)
        do {
            let statement = try makeStatement("PRAGMA journal_mode = DELETE")
            guard try statement.step(), statement.string(at: 0) == "delete" else { throw openElsewhere }
        } catch let error as TroveError where error.sqliteResultCode.map({ $0 & 0xFF }) == SQLITE_BUSY {
            throw openElsewhere
        }
    }

    /// Encrypts the file with `key`, encrypts it again with another, or decrypts it (`nil`). The
    /// handle must have been opened with the file's key (or none) and be alone on the file
    /// (``takeExclusiveAccess()`` is called first). Not atomic under a crash (SQLite3 Multiple
    /// Ciphers' journal of a key change is not one the old or the new key rolls back): call it on
    /// a copy only, as backups and ``Database/changeEncryptionKey(ofFileAt:from:to:)`` do.
    ///
    /// - Throws: ``TroveError``: ``TroveError/Code/misuse`` without the `Encryption` trait, for
    ///   an empty passphrase, or when another handle has the file open; what SQLite throws.
    func changeKey(to key: EncryptionKey?) throws {
        #if Encryption
        let material = key?.material ?? []
        if key != nil, material.isEmpty {
            throw TroveError(
                code: .misuse, message: "The new encryption key of '\(path)' is an empty passphrase: give a passphrase, or no key.",
                path: path)
        }
        try takeExclusiveAccess()
        let code = material.withUnsafeBytes { bytes in
            sqlite3_rekey_v2(handle, "main", material.isEmpty ? nil : bytes.baseAddress, Int32(bytes.count))
        }
        guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
        #else
        throw TroveError(
            code: .misuse,
            message:
                "The encryption key of '\(path)' cannot change: this build of Trove has no encryption. Enable Trove's package trait \"Encryption\".",
            path: path)
        #endif
    }

    /// Copies frames of the write-ahead log into the database file.
    ///
    /// - Returns: The frames in the log, how many are in the database file, and whether another
    ///   connection kept the checkpoint from finishing (`SQLITE_BUSY`, which is not an error).
    /// - Throws: ``TroveError`` when SQLite fails.
    func checkpoint(_ kind: CheckpointMode) throws -> (logFrames: Int, checkpointed: Int, wasBusy: Bool) {
        let mode: Int32
        switch kind {
        case .passive: mode = SQLITE_CHECKPOINT_PASSIVE
        case .full: mode = SQLITE_CHECKPOINT_FULL
        case .restart: mode = SQLITE_CHECKPOINT_RESTART
        case .truncate: mode = SQLITE_CHECKPOINT_TRUNCATE
        }
        var logFrames: Int32 = 0
        var checkpointed: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(handle, nil, mode, &logFrames, &checkpointed)
        guard code == SQLITE_OK || code == SQLITE_BUSY else {
            throw error(code: code, sql: "PRAGMA wal_checkpoint(\(kind.rawValue.uppercased()))")
        }
        return (Int(max(0, logFrames)), Int(max(0, checkpointed)), code == SQLITE_BUSY)
    }
}

extension TroveError {
    /// Whether SQLite said the file is not a database (`SQLITE_NOTADB`).
    var isNotADatabase: Bool {
        sqliteResultCode.map { $0 & 0xFF } == SQLITE_NOTADB
    }
}
