import Foundation
import TroveGenerator

/// One `trove-gen generate --cache FILE` run: the cache and the file stamps beside it (`FILE.stamps`), read
/// before the inputs so that an input whose stamp vouches for it is not read (its bytes are the cached ones),
/// and written back after a run that changed anything.
///
/// An unreadable, damaged or foreign cache means a cold run; damaged stamps or stamps of another cache file
/// mean every file is read. Neither is ever written after a run with errors.
final class IncrementalSession {
    let cacheURL: URL
    let includeUnannotated: Bool
    /// The cache as read, then without the entries whose outputs are not in the output folder.
    private(set) var previous: GeneratorCache?
    /// Whether there was a cache file.
    let cacheExisted: Bool
    private let oldStamps: FileStamps?
    private var newStamps: FileStamps
    /// Whether a file was read or found changed: the stamps are then written again.
    private var stampsChanged = false
    private var cachedContents: [String: Int] = [:]
    /// How many inputs were read because their stamps did not vouch for them.
    private(set) var inputsRead = 0
    /// The outputs read from the output folder in this run, by name.
    private(set) var outputsRead: [String: [UInt8]] = [:]
    /// The outputs the folder holds, by name: the cached record (size and digest) is theirs.
    private(set) var outputsInFolder: [String: OutputRecord] = [:]

    private var stampsPath: String { cacheURL.path + ".stamps" }

    /// Reads the cache and its stamps.
    ///
    /// - Parameters:
    ///   - cacheURL: The cache file.
    ///   - includeUnannotated: Whether every input gets an output in this run.
    ///   - started: When the run began (``FileStamps/now()``).
    init(cacheURL: URL, includeUnannotated: Bool, started: Int64) {
        self.cacheURL = cacheURL
        self.includeUnannotated = includeUnannotated
        let bytes = FileBytes.read(cacheURL.path)
        cacheExisted = bytes != nil
        previous = bytes.flatMap {
            GeneratorCache(
                serialized: $0, generatorIdentity: GeneratorIdentity.current, includeUnannotated: includeUnannotated)
        }
        let stamps = FileBytes.read(cacheURL.path + ".stamps").flatMap(FileStamps.init(serialized:))
        if let previous, let stamps, stamps.cache != nil, stamps.cache == FileStamp(path: cacheURL.path) {
            oldStamps = stamps
            for (index, entry) in previous.entries.enumerated() { cachedContents[entry.path] = index }
        } else {
            oldStamps = nil
        }
        newStamps = FileStamps(taken: started)
    }

    /// The cached text of the input at `path` (`absolute`) when its stamp vouches that the file still holds
    /// it; `nil` when the file must be read. Takes the file's stamp for the next run either way, before the
    /// file is read.
    func unchangedContents(of path: String, absolute: String) -> String? {
        let stamp = FileStamp(path: absolute)
        if let stamp { newStamps.files[absolute] = stamp }
        if let oldStamps, oldStamps.vouchesFor(absolute, now: stamp), let index = cachedContents[path],
            let entry = previous?.entries[index]
        {
            return entry.contents
        }
        stampsChanged = true
        inputsRead += 1
        return nil
    }

    /// Drops every cached entry whose output `folder` does not hold, reading only the outputs whose stamps
    /// do not vouch for them (the others are read and must have the recorded size and digest).
    func keepOutputs(in folder: String) {
        previous = previous?.keepingOutputs { record in
            let path = folder + record.name
            let stamp = FileStamp(path: path)
            if let oldStamps, oldStamps.vouchesFor(path, now: stamp) {
                newStamps.files[path] = stamp
                outputsInFolder[record.name] = record
                return true
            }
            stampsChanged = true
            guard let bytes = FileBytes.read(path) else { return false }
            outputsRead[record.name] = bytes
            guard record.matches(bytes) else { return false }
            if let stamp { newStamps.files[path] = stamp }
            outputsInFolder[record.name] = record
            return true
        }
    }

    /// After a run without errors: writes the cache unless `cache` is unchanged, then the stamps of the inputs
    /// and of `outputs` (now in `folder`) when anything was read, written or changed.
    ///
    /// - Parameters:
    ///   - cache: The run's cache.
    ///   - cacheIsUnchanged: Whether it is the one read.
    ///   - outputs: The names of every output of the run, in `folder`; `nil` when the run wrote no outputs
    ///     (`--check`, `--dry-run`): then the stamps are not written.
    ///   - written: How many outputs the run wrote.
    ///   - folder: The output folder's path, ending with `/`.
    func finish(cache: GeneratorCache, cacheIsUnchanged: Bool, outputs: [String]?, written: Int, folder: String) {
        var cacheWritten = cacheIsUnchanged
        if !cacheIsUnchanged {
            // A cache that cannot be written costs the next run its speed, not its correctness.
            try? FileManager.default.removeItem(atPath: stampsPath)
            try? FileManager.default.createDirectory(
                at: cacheURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            cacheWritten = (try? Data(cache.serialized()).write(to: cacheURL, options: .atomic)) != nil
        }
        guard let outputs, cacheWritten, stampsChanged || written > 0 || !cacheIsUnchanged || oldStamps == nil
        else { return }
        for name in outputs {
            let path = folder + name
            if let stamp = FileStamp(path: path) { newStamps.files[path] = stamp }
        }
        newStamps.cache = FileStamp(path: cacheURL.path)
        try? Data(newStamps.serialized()).write(to: URL(fileURLWithPath: stampsPath), options: .atomic)
    }
}
