@_spi(TroveGenerated) import Trove
import TroveSync

/// The sync ledger of the crash tests' items (`trove-crash-writer sync`).
public enum SyncWorkload {
    /// The ledger of `CrashItem`'s collection.
    public static let ledger = SyncLedger(models: [CrashItem.self])

    /// A unique index of the items' payloads (an empty payload is no value): what two replicas
    /// break by giving one payload to two items offline.
    public static let uniquePayload = SecondaryIndex<CrashItem>(
        "crash_unique_payload",
        columns: [.column("payload", unique: true) { $0.payload.isEmpty ? nil : String(decoding: $0.payload, as: UTF8.self) }])
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

extension SyncWorkload {
    /// The `CrashItem` whose top-level fields are `fields` (in the order of their numbers).
    public static func decode(_ fields: [UInt32: [UInt8]]) throws -> CrashItem {
        let bytes = fields.keys.sorted().flatMap { fields[$0]! }
        return try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            return try CrashItem.Coder.decode(from: &reader)
        }
    }
}
