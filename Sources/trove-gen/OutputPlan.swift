import Foundation
import TroveGenerator

/// What writing the generated files would change in the output directory.
struct OutputPlan {
    /// A file to create or replace.
    struct Write {
        var url: URL
        var displayPath: String
        var bytes: [UInt8]
        var isNew: Bool
    }

    /// A previously generated file that is no longer produced.
    struct Deletion {
        var url: URL
        var displayPath: String
    }

    var directory: URL
    var writes: [Write]
    var deletions: [Deletion]

    /// Whether the directory already holds exactly the generated files.
    var isUpToDate: Bool { writes.isEmpty && deletions.isEmpty }

    /// Compares the generated `files` with what `directory` holds.
    ///
    /// A reused output (``IncrementalOutput/reused(_:)``) is already in `directory` with exactly its bytes
    /// (the cache was checked against the folder before the run): it is neither compared nor written, only
    /// kept from deletion.
    ///
    /// - Parameters:
    ///   - files: The outputs of the run.
    ///   - directory: The output directory.
    ///   - existing: The bytes of files of `directory` already read, by name; the others are read here.
    ///   - inFolder: What `directory` is known to hold (sizes and digests), by file name: a generated file
    ///     that matches its record is not read nor written.
    ///   - deletingExtras: Whether files with the generated header that are not produced any
    ///     more are deleted (committed mode).
    ///   - displayPrefix: How the directory is named in messages.
    static func make(
        files outputs: [IncrementalOutput], in directory: URL, existing known: [String: [UInt8]] = [:],
        inFolder: [String: OutputRecord] = [:], deletingExtras: Bool, displayPrefix: String
    ) throws -> OutputPlan {
        func display(_ name: String) -> String {
            displayPrefix.hasSuffix("/") ? displayPrefix + name : displayPrefix + "/" + name
        }
        var writes: [Write] = []
        let folder = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
        for output in outputs {
            guard case .generated(let file) = output else { continue }
            if let record = inFolder[file.name], record.matches(file.contents) { continue }
            let existing = known[file.name] ?? FileBytes.read(folder + file.name)
            var contents = file.contents
            let unchanged = contents.withUTF8 { utf8 in
                existing?.withUnsafeBytes { bytes in
                    bytes.count == utf8.count
                        && (bytes.isEmpty || memcmp(bytes.baseAddress!, utf8.baseAddress!, bytes.count) == 0)
                } ?? false
            }
            if !unchanged {
                writes.append(
                    Write(
                        url: directory.appendingPathComponent(file.name), displayPath: display(file.name),
                        bytes: Array(file.contents.utf8), isNew: existing == nil))
            }
        }
        var deletions: [Deletion] = []
        if deletingExtras {
            let produced = Set(outputs.map(\.name))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".swift") && !produced.contains(name) {
                let url = directory.appendingPathComponent(name)
                guard let text = try? String(contentsOf: url, encoding: .utf8), GeneratedHeader.isGenerated(text)
                else { continue }
                deletions.append(Deletion(url: url, displayPath: display(name)))
            }
        }
        return OutputPlan(directory: directory, writes: writes, deletions: deletions)
    }

    /// One line per change: `missing: path`, `stale: path`, `extra: path`.
    func changeLines() -> [String] {
        writes.map { ($0.isNew ? "missing: " : "stale: ") + $0.displayPath }
            + deletions.map { "extra: " + $0.displayPath }
    }

    /// Writes every changed file and deletes every extra one.
    func apply() throws {
        if !writes.isEmpty {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        for write in writes {
            try FileBytes.write(write.bytes, to: write.url.path, replacing: !write.isNew)
        }
        for deletion in deletions {
            try FileManager.default.removeItem(at: deletion.url)
        }
    }

    /// Writes `data` to `url` unless the file already holds exactly these bytes.
    static func writeIfChanged(_ data: Data, to url: URL) throws {
        if (try? Data(contentsOf: url)) == data { return }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }
}
