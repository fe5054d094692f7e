#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads whole files with `open` and `read`: a run with nothing to generate reads every input, the
/// cache and every output, and Foundation's readers cost several times more per file.
enum FileBytes {
    /// The bytes of the file at `path`.
    ///
    /// - Parameter path: The file's path.
    /// - Returns: Its bytes, or `nil` when it cannot be opened or read.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        // One byte more than the size, to see the end of the file in the first pass when it did not grow.
        var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let read = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if read == 0 { break }
            count += read
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Writes `bytes` to the file at `path` with `open` and `write`, and no `fsync`.
    ///
    /// Foundation's atomic write syncs every file to the disk: a cold run over 1,000 inputs spent a third
    /// of its time there, and more on a journaling file system, for files that a build can always make
    /// again. A file that existed is replaced by renaming a temporary file of the same folder over it, so
    /// that a reader never sees it half written; a new one is written in place. A run cut short can
    /// leave a new file incomplete: the next run reads any output its stamps cannot vouch for, checks its
    /// size and digest, and writes it again.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - path: The file's path.
    ///   - replacing: Whether the file may exist (it is then replaced by a rename).
    /// - Throws: ``WriteError`` naming the file and the system's reason.
    static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(WriteError) {
        let target = replacing ? temporaryPath(for: path) : path
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: lastError) }
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = lastError
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil { failure = lastError }
        if failure == nil, replacing, rename(target, path) != 0 { failure = lastError }
        if let failure {
            if replacing { unlink(target) }
            throw WriteError(path: path, reason: failure)
        }
    }

    /// A file that could not be written.
    struct WriteError: Error, CustomStringConvertible {
        /// The file's path.
        var path: String
        /// The system's reason.
        var reason: String

        var description: String { "cannot write '\(path)': \(reason)" }
    }

    /// A temporary file beside `path`, unique to this process.
    private static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        return String(path[..<slash]) + "." + String(path[slash...]) + ".trove-gen-\(getpid()).tmp"
    }

    /// The description of the last system call's error (`errno`).
    static var lastError: String {
        String(cString: strerror(errno))
    }

    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.write(descriptor, buffer, count)
        #elseif canImport(Musl)
            Musl.write(descriptor, buffer, count)
        #else
            Glibc.write(descriptor, buffer, count)
        #endif
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.read(descriptor, buffer, count)
        #elseif canImport(Musl)
            Musl.read(descriptor, buffer, count)
        #else
            Glibc.read(descriptor, buffer, count)
        #endif
    }
}
