import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What is wrong with the path of a database file, in words.
///
/// SQLite says "unable to open database file" for a missing folder, a folder given as the file,
/// a path it may not read and a dozen other causes. After it fails, a few `stat` and `access`
/// calls on the path and its folder tell them apart; nothing here runs when SQLite succeeds,
/// except ``refuseSpecialFile(_:)``, one `stat` per ``Database`` opened.
enum PathDiagnosis {
    /// Whether the file at `path` may be an encrypted database: whole pages of bytes (a multiple
    /// of 512) that do not begin with SQLite's header, as a file SQLite refused as not a database.
    static func looksEncrypted(_ path: String) -> Bool {
        encryptedSalt(path) != nil
    }

    /// The first 16 bytes of `path` when it looks encrypted (``looksEncrypted(_:)``): in the
    /// SQLCipher scheme, the salt its key is derived with; `nil` otherwise.
    static func encryptedSalt(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 512, size % 512 == 0 else { return nil }
        try? handle.seek(toOffset: 0)
        guard let head = try? handle.read(upToCount: 16), head.count == 16, head != Data("SQLite format 3\0".utf8) else {
            return nil
        }
        return Array(head)
    }

    /// A problem found, with the code of the error to throw.
    struct Problem {
        var code: TroveError.Code
        var message: String
    }

    /// Throws when `path` exists and is not a regular file: a folder, a device, a named pipe or a
    /// socket.
    ///
    /// Called once before SQLite opens the file of a ``Database``: SQLite would wait forever to
    /// open a named pipe, and would read a device such as `/dev/null` as an empty database, then
    /// fail with a disk I/O error when it sets up the write-ahead log. A path that does not exist
    /// passes: SQLite creates the file or reports why it cannot.
    ///
    /// - Throws: ``TroveError`` with code ``TroveError/Code/notADatabase`` naming what the path is.
    static func refuseSpecialFile(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, let kind = specialKind(info.st_mode) else { return }
        throw TroveError(code: .notADatabase, message: notAFileMessage(path, kind: kind), path: path)
    }

    /// Why SQLite could not open `path`, found by looking at the path and its folder; `nil` when
    /// both look usable and the cause lies elsewhere.
    ///
    /// - Parameters:
    ///   - path: The path of the database file.
    ///   - creating: Whether the file was to be created if missing (`SQLITE_OPEN_CREATE`).
    ///   - readOnly: Whether the file was opened read-only (``Configuration/isReadOnly``).
    /// - Returns: The problem, or `nil` when the path and its folder look usable.
    static func openProblem(_ path: String, creating: Bool, readOnly: Bool) -> Problem? {
        var info = stat()
        if stat(path, &info) == 0 {
            if let kind = specialKind(info.st_mode) {
                return Problem(code: .notADatabase, message: notAFileMessage(path, kind: kind))
            }
            if !isAccessible(path, R_OK) {
                return Problem(
                    code: .sqlite,
                    message: "The database file '\(path)' cannot be read: its permissions do not let this user read it."
                )
            }
            return nil
        }
        let error = errno
        switch error {
        case ENOENT:
            return missingFileProblem(path, creating: creating, readOnly: readOnly)
        case ENOTDIR:
            let file = firstFileOnPath(path) ?? folder(of: path)
            return Problem(
                code: .sqlite,
                message: "'\(file)' is a file, not a folder: the database file '\(path)' cannot be inside it.")
        case EACCES:
            return Problem(
                code: .sqlite,
                message:
                    "The database file '\(path)' cannot be reached: a folder on its path does not let this user look inside it (permission denied)."
            )
        case ENAMETOOLONG:
            return Problem(
                code: .sqlite, message: "The path of the database file '\(path)' is too long for the file system.")
        case ELOOP:
            return Problem(
                code: .sqlite, message: "The path of the database file '\(path)' goes round a loop of symbolic links.")
        default:
            return Problem(
                code: .sqlite, message: "The database file '\(path)' cannot be opened: \(describe(errno: error)).")
        }
    }

    /// Why a write to `path` was refused although it was not opened read-only, as the end of a
    /// sentence ("…: why."), or `nil` when the file and its file system allow writing.
    static func readOnlyCause(_ path: String) -> String? {
        if access(path, F_OK) == 0, !isAccessible(path, W_OK) {
            return errno == EROFS
                ? "it is on a read-only file system" : "its permissions do not let this user write to it"
        }
        return nil
    }

    /// The folder of `path`: `.` for a bare file name.
    static func folder(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// The text of a system error number (`strerror`).
    static func describe(errno number: Int32) -> String {
        guard number != 0, let text = strerror(number) else { return "no system error was reported" }
        return String(cString: text).lowercased()
    }

    // MARK: Details

    private static func missingFileProblem(_ path: String, creating: Bool, readOnly: Bool) -> Problem {
        let parent = folder(of: path)
        var info = stat()
        guard stat(parent, &info) == 0 else {
            return Problem(
                code: .sqlite,
                message: "The folder '\(parent)' does not exist: it must exist to hold the database file '\(path)'.")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return Problem(
                code: .sqlite,
                message: "'\(parent)' is a file, not a folder: the database file '\(path)' cannot be inside it.")
        }
        if readOnly {
            return Problem(
                code: .sqlite,
                message:
                    "The database file '\(path)' does not exist, and a database opened read-only (Configuration.isReadOnly) is never created."
            )
        }
        if !creating {
            return Problem(
                code: .sqlite,
                message:
                    "The database file '\(path)' does not exist any more: it was removed or moved after the database was opened."
            )
        }
        if !isAccessible(parent, W_OK | X_OK) {
            return Problem(
                code: .readOnly,
                message:
                    "The folder '\(parent)' is read-only: the database file '\(path)' cannot be created in it (\(describe(errno: errno)))."
            )
        }
        return Problem(code: .sqlite, message: "The database file '\(path)' cannot be created.")
    }

    /// The first component of `path`, from its start, that exists and is not a folder.
    private static func firstFileOnPath(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            var info = stat()
            guard stat(prefix, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT != S_IFDIR {
                return path.hasPrefix("/") ? prefix : String(prefix.dropFirst(2))
            }
        }
        return nil
    }

    /// What a file of this mode is, in words, unless it is a regular file.
    private static func specialKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    private static func notAFileMessage(_ path: String, kind: String) -> String {
        kind == "a folder"
            ? "'\(path)' is a folder, not a database file: give the path of a file inside it."
            : "'\(path)' is \(kind), not a database file: a database is a regular file."
    }

    /// Whether this process, with its effective user and group (as the file system checks them),
    /// may access `path` in `mode`.
    static func isAccessible(_ path: String, _ mode: Int32) -> Bool {
        faccessat(AT_FDCWD, path, mode, AT_EACCESS) == 0
    }
}
