import Trove
import TroveSync

/// The sync ledger of the crash tests' items (`trove-crash-writer sync`).
public enum SyncWorkload {
    /// The ledger of `CrashItem`'s collection.
    public static let ledger = SyncLedger(models: [CrashItem.self])
}

extension SyncWorkload {
    /// The top-level fields of an item's encoding, by number: what the sync tests compare stored
    /// items with (an encoding's fields come in the coder's order, a merged one's in the order of
    /// their numbers).
    public static func fields(of bytes: [UInt8]) -> [UInt32: [UInt8]] {
        var fields: [UInt32: [UInt8]] = [:]
        _ = bytes.withUnsafeBytes { buffer in
            TopLevelFields.forEach(in: buffer) { number, field in fields[number] = Array(field) }
        }
        return fields
    }
}
