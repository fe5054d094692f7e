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
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        }
    }
}
