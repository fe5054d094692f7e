import Foundation
import TroveGenerator

/// Names the running `trove-gen` in the caches it writes, so that a rebuilt generator never reuses
/// what another one generated.
enum GeneratorIdentity {
    /// The cache format, the executable's path, size and modification time (to the nanosecond where the file
    /// system keeps it): any rebuild of the tool gives another identity. When the executable cannot be found,
    /// a fresh random identity, which no cache matches (every run is cold, never wrong).
    static let current: String = {
        let format = "format \(GeneratorCache.formatVersion)"
        guard let path = Bundle.main.executableURL?.resolvingSymlinksInPath().path,
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? NSNumber,
            let modified = attributes[.modificationDate] as? Date
        else { return format + ", unknown executable " + UUID().uuidString }
        return "\(format), \(path), \(size) bytes, modified \(modified.timeIntervalSince1970)"
    }()
}
