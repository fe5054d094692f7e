import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Database files only their owner can read.
///
/// SQLite creates a new database file with mode 0644 (less the process's umask): readable by every
/// user of the machine. Trove creates the file itself first, empty, with mode 0600, and SQLite then
/// opens it as a new database. SQLite gives the write-ahead log and the shared-memory file the mode
/// of the database file, so they are owner-only too. A file that exists keeps its mode: to share a
/// database with a group on purpose, `chmod 660` it (its new `-wal` and `-shm` files follow).
enum FilePermissions {
    /// Creates an empty file at `path` with mode 0600 when nothing is there; does nothing when a
    /// file exists (or is created meanwhile by another process), or when the file cannot be
    /// created (SQLite then fails to open it and says why).
    static func createOwnerOnly(_ path: String) {
        create(path, mode: 0o600)
    }

    /// Creates an empty file at `path` with `mode` (less nothing: the umask does not apply) when
    /// nothing is there.
    static func create(_ path: String, mode: Int) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        fchmod(descriptor, mode_t(mode & 0o777))
        close(descriptor)
    }

    /// Puts the file at `replacement` in the place of the one at `path`, in one rename, and makes
    /// the rename durable (the folder synced): a process killed at any moment leaves one or the
    /// other at `path`, whole.
    ///
    /// - Throws: ``TroveError`` when the rename fails.
    static func replace(_ path: String, with replacement: String) throws {
        guard rename(replacement, path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw TroveError(
                code: .sqlite, message: "'\(replacement)' could not replace '\(path)': \(reason).", path: path)
        }
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
