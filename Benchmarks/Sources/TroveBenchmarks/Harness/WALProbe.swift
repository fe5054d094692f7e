import Foundation

/// Counts the database pages a commit writes, from outside the connection that commits: in WAL
/// mode every commit appends one frame per page it changed to the `-wal` file, and the last valid
/// frame (`mxFrame`) is in the WAL-index header at the start of the `-shm` file (SQLite's file
/// format, "walformat": a 32-bit native-order integer at byte 16).
///
/// A checkpoint that copied the whole WAL lets the next writer start the log again from frame 1:
/// then the frames of the commit are the new `mxFrame` itself.
final class WALProbe {
    private let descriptor: Int32
    private let shmPath: String
    private var last: Int

    /// Opens the `-shm` file of the database at `databasePath`, which must be open in WAL mode.
    init(databasePath: String) throws {
        shmPath = databasePath + "-shm"
        descriptor = open(shmPath, O_RDONLY)
        guard descriptor >= 0 else { throw BenchmarkError("cannot open \(shmPath): errno \(errno)") }
        last = 0
        last = try maxFrame()
    }

    deinit {
        close(descriptor)
    }

    /// The last valid frame of the WAL now.
    func maxFrame() throws -> Int {
        var value: UInt32 = 0
        let count = withUnsafeMutableBytes(of: &value) { pread(descriptor, $0.baseAddress, 4, 16) }
        guard count == 4 else { throw BenchmarkError("cannot read the WAL-index header of \(shmPath)") }
        return Int(value)
    }

    /// Checks the reading of the header against the size of the `-wal` file, which holds a
    /// 32-byte header and frames of a 24-byte header and a page: valid while the log grew from
    /// empty without starting again (after `checkpointTruncating(_:)`, before the next
    /// checkpoint), where the file holds exactly `mxFrame` frames.
    func verifyAgainstWALSize() throws {
        var pageSize: UInt16 = 0
        let count = withUnsafeMutableBytes(of: &pageSize) { pread(descriptor, $0.baseAddress, 2, 14) }
        guard count == 2 else { throw BenchmarkError("cannot read the WAL-index header of \(shmPath)") }
        let page = pageSize == 1 ? 65_536 : Int(pageSize)
        let walPath = String(shmPath.dropLast(4)) + "-wal"
        let size = (try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? NSNumber)?.intValue ?? -1
        let frames = try maxFrame()
        guard size == 32 + frames * (page + 24) else {
            throw BenchmarkError(
                "WAL probe: \(walPath) has \(size) bytes, not the 32 + \(frames) × (\(page) + 24) its index says")
        }
    }

    /// The frames written since the previous call (or since the probe was made).
    func framesSinceLastCall() throws -> Int {
        let now = try maxFrame()
        defer { last = now }
        return now >= last ? now - last : now
    }
}

/// Runs `PRAGMA wal_checkpoint(TRUNCATE)` on the database at `path` from a connection of its
/// own, so that every implementation starts its timed commits with an empty WAL. An encrypted
/// file (the encrypted pass, issue 34) is opened with `passphrase` (`PRAGMA key`).
func checkpointTruncating(_ path: String, passphrase: String? = nil) throws {
    let sqlite = try RawSQLite(path: path, passphrase: passphrase)
    try sqlite.execute("PRAGMA wal_checkpoint(TRUNCATE)")
}
