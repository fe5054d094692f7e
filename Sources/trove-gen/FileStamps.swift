#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import TroveGenerator

/// What `stat` says of a file: enough to tell, without reading it, that it was not written since.
struct FileStamp: Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// The modification time, in nanoseconds since 1970.
    var modified: Int64
    /// The status change time, in nanoseconds since 1970: unlike the modification time, no tool can set it
    /// back (`touch -m`, `cp -p` and `rsync -t` keep an old modification time on new bytes).
    var changed: Int64

    /// The stamp of the file at `path`, or `nil` when there is no such file.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
            modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
            changed = Int64(status.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(status.st_ctimespec.tv_nsec)
        #else
            modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
            changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
        #endif
    }

    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }
}

/// The stamps of a run's inputs and outputs, kept beside the cache (`FILE.stamps` for `--cache FILE`), so that
/// the next run reads only the files written since: the others hold the bytes the cache holds.
///
/// A stamp vouches for a file only when the file was last written well before the run that took it began
/// (``racyMargin``): a file written in the same tick of the file system's clock as an earlier read could
/// have new bytes under the same stamp, so such a file is always read (what Git calls "racily clean").
/// The stamps name the cache file they go with (its own stamp): beside another cache, or damaged (a
/// checksum), they are not used, and every file is read.
struct FileStamps {
    /// How long before a run's start a file must have been written for its stamp to vouch for its bytes:
    /// more than any file system's timestamp granularity (two seconds on FAT).
    /// `TROVE_GEN_RACY_MARGIN_MS` sets another (the tests set 0, so as not to wait).
    static let racyMargin: Int64 = {
        guard let text = getenv("TROVE_GEN_RACY_MARGIN_MS").map({ String(cString: $0) }), let milliseconds = Int64(text)
        else { return 3_000_000_000 }
        return milliseconds * 1_000_000
    }()

    /// When the run that took the stamps began, in nanoseconds since 1970.
    var taken: Int64
    /// The cache file the stamps go with.
    var cache: FileStamp?
    /// The stamp of each input (by absolute path) and output (by absolute path).
    var files: [String: FileStamp]

    /// No stamps, for a run started at `taken`.
    init(taken: Int64) {
        self.taken = taken
        cache = nil
        files = [:]
    }

    /// The time now, in nanoseconds since 1970.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Whether the file at `path` holds the bytes it held when the stamps were taken: it has the same stamp,
    /// and that stamp is older than the run that took it by ``racyMargin``.
    func vouchesFor(_ path: String, now stamp: FileStamp?) -> Bool {
        guard let stamp, let recorded = files[path], recorded == stamp else { return false }
        return stamp.modified < taken - Self.racyMargin && stamp.changed < taken - Self.racyMargin
    }

    private static let magic = Array("trove-gen stamps\n".utf8)

    /// The stamps as bytes, with a checksum (the files in no particular order).
    func serialized() -> [UInt8] {
        var bytes = Self.magic
        func integer(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func stamp(_ stamp: FileStamp) {
            integer(stamp.device)
            integer(stamp.inode)
            integer(UInt64(bitPattern: stamp.size))
            integer(UInt64(bitPattern: stamp.modified))
            integer(UInt64(bitPattern: stamp.changed))
        }
        integer(UInt64(bitPattern: taken))
        stamp(cache ?? FileStamp(device: 0, inode: 0, size: -1, modified: 0, changed: 0))
        integer(UInt64(files.count))
        // In the dictionary's order, not sorted: the reader makes a dictionary again, and sorting two thousand
        // paths cost a debug build of the tool about 8 ms a run.
        for (path, fileStamp) in files {
            integer(UInt64(path.utf8.count))
            bytes.append(contentsOf: path.utf8)
            stamp(fileStamp)
        }
        integer(bytes.withUnsafeBytes(Checksum.of))
        return bytes
    }

    /// Reads what ``serialized()`` wrote; `nil` when the bytes are damaged.
    init?(serialized bytes: [UInt8]) {
        guard bytes.count >= Self.magic.count + 8, bytes.starts(with: Self.magic) else { return nil }
        let body = bytes.count - 8
        let valid = bytes.withUnsafeBytes { buffer in
            Checksum.of(UnsafeRawBufferPointer(rebasing: buffer[..<body]))
                == UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: body, as: UInt64.self))
        }
        guard valid else { return nil }
        var offset = Self.magic.count
        func integer() -> UInt64? {
            guard body - offset >= 8 else { return nil }
            defer { offset += 8 }
            return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        }
        func stamp() -> FileStamp? {
            guard let device = integer(), let inode = integer(), let size = integer(), let modified = integer(),
                let changed = integer()
            else { return nil }
            return FileStamp(
                device: device, inode: inode, size: Int64(bitPattern: size), modified: Int64(bitPattern: modified),
                changed: Int64(bitPattern: changed))
        }
        guard let taken = integer(), let cache = stamp(), let count = integer(), count <= UInt64(body) else {
            return nil
        }
        var files: [String: FileStamp] = [:]
        files.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let length = integer().map(Int.init(truncatingIfNeeded:)), length >= 0, body - offset >= length
            else { return nil }
            let path = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
            offset += length
            guard let fileStamp = stamp() else { return nil }
            files[path] = fileStamp
        }
        guard offset == body else { return nil }
        self.taken = Int64(bitPattern: taken)
        self.cache = cache
        self.files = files
    }
}
