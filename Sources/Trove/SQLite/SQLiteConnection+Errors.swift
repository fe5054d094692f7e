import Foundation
internal import TroveCSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The words of SQLite's failures. SQLite's own messages are short and name its internals ("no such
// table: trove_registry", "unable to open database file" for a dozen causes); a `TroveError` says
// what is wrong in Trove's words, names the file, and keeps SQLite's result code. SQLite's text is
// kept as a cause only where it adds something and names nothing internal.

extension SQLiteConnection {
    /// Makes a ``TroveError`` from the handle's current error state, after a call that returned
    /// `code`.
    ///
    /// - Parameters:
    ///   - code: The result code of the call that failed.
    ///   - sql: The statement that failed, kept in ``TroveError/sql`` for debugging only.
    /// - Returns: The error, in Trove's words, naming the file.
    func error(code: Int32, sql: String?) -> TroveError {
        let extended = sqlite3_extended_errcode(handle)
        // The handle's code belongs to the last call that failed: trust it only when it is the
        // same failure (a binding that failed before any call reached SQLite is not).
        let resultCode = extended & 0xFF == code & 0xFF ? extended : code
        let sqliteMessage = extended & 0xFF == code & 0xFF ? String(cString: sqlite3_errmsg(handle)) : nil
        let (troveCode, message) = SQLiteWording.describe(
            resultCode: resultCode, sqliteMessage: sqliteMessage, systemErrno: sqlite3_system_errno(handle), path: path,
            isOpenedReadOnly: isOpenedReadOnly, lengthLimit: Int(sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1)))
        var error = TroveError(
            code: troveCode, message: message, sql: sql, path: path, sqliteResultCode: resultCode)
        error.sqliteMessage = sqliteMessage
        if isTransactionExpected && abortCause == nil && !isInsideTransaction {
            abortCause = error
        }
        return error
    }

    /// The error of a failed `sqlite3_open_v2`, after looking at the path and its folder.
    static func openError(path: String, flags: Int32, resultCode: Int32, systemErrno: Int32) -> TroveError {
        let readOnly = flags & SQLITE_OPEN_READONLY != 0
        if let problem = PathDiagnosis.openProblem(path, creating: flags & SQLITE_OPEN_CREATE != 0, readOnly: readOnly)
        {
            return TroveError(code: problem.code, message: problem.message, path: path, sqliteResultCode: resultCode)
        }
        guard resultCode & 0xFF != SQLITE_CANTOPEN else {
            return TroveError(
                code: .sqlite,
                message:
                    "SQLite cannot open the database file '\(path)': \(PathDiagnosis.describe(errno: systemErrno)).",
                path: path, sqliteResultCode: resultCode)
        }
        let (code, message) = SQLiteWording.describe(
            resultCode: resultCode, sqliteMessage: nil, systemErrno: systemErrno, path: path,
            isOpenedReadOnly: readOnly,
            lengthLimit: 0)
        return TroveError(code: code, message: message, path: path, sqliteResultCode: resultCode)
    }
}

/// SQLite's result codes in Trove's words.
enum SQLiteWording {
    /// The code and the message of an error for SQLite's `resultCode` (extended when known) on
    /// the database file at `path`.
    ///
    /// - Parameters:
    ///   - resultCode: SQLite's extended result code, or its primary code.
    ///   - sqliteMessage: SQLite's text (`sqlite3_errmsg`), if any.
    ///   - systemErrno: The operating system's error of the failed call (`sqlite3_system_errno`).
    ///   - path: The database file.
    ///   - isOpenedReadOnly: Whether the handle was opened read-only on purpose.
    ///   - lengthLimit: SQLite's largest string or blob, in bytes.
    /// - Returns: The code and the message of the error.
    static func describe(
        resultCode: Int32, sqliteMessage: String?, systemErrno: Int32, path: String, isOpenedReadOnly: Bool,
        lengthLimit: Int
    ) -> (TroveError.Code, String) {
        let file = "the database file '\(path)'"
        let system = PathDiagnosis.describe(errno: systemErrno)
        switch resultCode & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return (.corruptDatabase, TroveError.damagedFileMessage(path: path, collection: nil, key: nil))
        case SQLITE_READONLY:
            return (.readOnly, readOnlyMessage(resultCode: resultCode, path: path, isOpenedReadOnly: isOpenedReadOnly))
        case SQLITE_FULL:
            return (
                .sqlite,
                "The write was refused: \(file) cannot grow, because the disk is full or the database reached its size limit (Configuration.maximumPageCount)."
            )
        case SQLITE_IOERR:
            return (.sqlite, ioErrorMessage(resultCode: resultCode, path: path, system: system))
        case SQLITE_CANTOPEN:
            // The file is open: what SQLite cannot open is a file of its write-ahead log.
            let folder = PathDiagnosis.folder(of: path)
            return (
                PathDiagnosis.isAccessible(folder, W_OK | X_OK) ? .sqlite : .readOnly,
                "The files that the write-ahead log of \(file) needs ('\(path)-wal' and '\(path)-shm') cannot be created or opened in its folder '\(folder)': \(system)."
            )
        case SQLITE_BUSY:
            switch resultCode {
            case SQLITE_BUSY | (1 << 8):  // SQLITE_BUSY_RECOVERY
                return (
                    .sqlite,
                    "The write-ahead log of \(file) is being recovered by another process, and the recovery took longer than the busy timeout (Configuration.busyTimeoutMilliseconds)."
                )
            case SQLITE_BUSY | (2 << 8):  // SQLITE_BUSY_SNAPSHOT
                return (
                    .sqlite,
                    "The transaction cannot write to \(file): another connection or process committed since its snapshot began (SQLITE_BUSY_SNAPSHOT)."
                )
            default:
                return (
                    .sqlite,
                    "\(file.capitalizedFirst) is locked by another connection or process, and stayed locked longer than the busy timeout (Configuration.busyTimeoutMilliseconds; SQLITE_BUSY)."
                )
            }
        case SQLITE_LOCKED:
            return (
                .sqlite,
                "A table of \(file) is locked by another statement of the same connection (SQLITE_LOCKED)."
            )
        case SQLITE_TOOBIG:
            // Trove's values are the caller's: one past SQLite's limit is a use Trove does not
            // support, refused before anything of it is written.
            return (
                .misuse,
                "A key, item or metadata is too big for SQLite, which stores at most \(lengthLimit) bytes in one value: nothing of it was written to \(file)."
            )
        case SQLITE_CONSTRAINT:
            return (.sqlite, "SQLite refused a write to \(file): it would break a rule of the file's tables.")
        case SQLITE_NOMEM:
            return (.sqlite, "SQLite ran out of memory while using \(file).")
        case SQLITE_INTERRUPT:
            return (.sqlite, "The operation on \(file) was interrupted.")
        case SQLITE_NOLFS:
            return (.sqlite, "\(file.capitalizedFirst) is too large for the file system it is on.")
        case SQLITE_PERM:
            return (.sqlite, "The file system refused access to \(file): \(system).")
        case SQLITE_ERROR:
            let cause = sqliteMessage.flatMap(plainCause).map { " SQLite says: \($0)." } ?? ""
            return (
                .sqlite,
                "SQLite could not run an operation of Trove on \(file): the file may have been changed by another program, or it does not hold what this version of Trove expects.\(cause)"
            )
        default:
            let cause = sqliteMessage.flatMap(plainCause).map { ": \($0)" } ?? ""
            return (.sqlite, "SQLite failed on \(file) (result code \(resultCode))\(cause).")
        }
    }

    private static func readOnlyMessage(resultCode: Int32, path: String, isOpenedReadOnly: Bool) -> String {
        let file = "the database file '\(path)'"
        switch resultCode {
        case SQLITE_READONLY | (6 << 8):  // SQLITE_READONLY_DIRECTORY
            return
                "The folder '\(PathDiagnosis.folder(of: path))' of \(file) is read-only: the database is in WAL mode, which needs to create the files '\(path)-wal' and '\(path)-shm' beside it."
        case SQLITE_READONLY | (4 << 8):  // SQLITE_READONLY_DBMOVED
            return "\(file.capitalizedFirst) was moved or removed while it was open: writes to it are refused."
        case SQLITE_READONLY | (1 << 8), SQLITE_READONLY | (2 << 8), SQLITE_READONLY | (3 << 8),
            SQLITE_READONLY | (5 << 8):  // RECOVERY, CANTLOCK, ROLLBACK, CANTINIT
            return
                "The write-ahead log of \(file) cannot be written: its shared-memory file '\(path)-shm' is read-only or cannot be set up. Writes are refused."
        default:
            if isOpenedReadOnly {
                return "\(file.capitalizedFirst) was opened read-only (Configuration.isReadOnly): writes are refused."
            }
            let cause = PathDiagnosis.readOnlyCause(path) ?? "SQLite could only open it for reading"
            return "\(file.capitalizedFirst) is read-only: \(cause). Writes are refused; reads go on."
        }
    }

    private static func ioErrorMessage(resultCode: Int32, path: String, system: String) -> String {
        let file = "the database file '\(path)'"
        switch resultCode >> 8 {
        case 18, 19, 20, 21:  // SQLITE_IOERR_SHMOPEN, SHMSIZE, SHMLOCK, SHMMAP
            return
                "The write-ahead log of \(file) needs shared memory (the file '\(path)-shm'), which its file system does not provide: \(system). Keep the database on a local file system."
        case 15, 9, 14, 8:  // SQLITE_IOERR_LOCK, RDLOCK, CHECKRESERVEDLOCK, UNLOCK
            return
                "\(file.capitalizedFirst) cannot be locked: \(system). Its file system may not support the locks SQLite needs (a network file system?)."
        case 4, 5:  // SQLITE_IOERR_FSYNC, DIR_FSYNC
            return "The file system of \(file) cannot flush writes to the disk: \(system)."
        case 1, 2:  // SQLITE_IOERR_READ, SHORT_READ
            return "Reading \(file) failed: \(system)."
        case 3:  // SQLITE_IOERR_WRITE
            return "Writing \(file) failed: \(system)."
        default:
            return "The file system failed on \(file) (SQLite I/O error \(resultCode)): \(system)."
        }
    }

    /// `text` when it names nothing internal (no SQL keyword, no table of Trove's), else `nil`.
    static func plainCause(_ text: String) -> String? {
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        let namesInternals = words.contains {
            $0.hasPrefix("trove_") || $0.hasPrefix("sqlite_") || sqlKeywords.contains(String($0))
        }
        return namesInternals || text.isEmpty ? nil : text
    }

    /// Words of SQL statements, as Trove's statements and SQLite's messages about them spell them.
    private static let sqlKeywords: Set<String> = [
        "SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "PRAGMA", "CREATE", "DROP", "ALTER", "BEGIN", "COMMIT",
        "ROLLBACK", "FROM", "WHERE", "VALUES", "INTO", "JOIN", "table", "column", "rowid", "journal_mode",
        "user_version", "application_id",
    ]
}

extension String {
    /// The string with its first character in upper case, to start a sentence with it.
    fileprivate var capitalizedFirst: String {
        prefix(1).uppercased() + dropFirst()
    }
}
