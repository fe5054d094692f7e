import TroveSync

/// The brute-force model of sync's merge rule: every field value set (with its time) and every
/// removal, kept as lists; the expected state of a field is the value set at the latest time,
/// found by a scan, and the item is hidden when it was removed later than every field was set.
/// What the merge tests compare replicas and the server with.
public struct SyncModel {
    /// Every value set, by key and field number.
    public var sets: [String: [UInt32: [(stamp: HybridTimestamp, bytes: [UInt8]?)]]] = [:]
    /// Every removal, by key.
    public var removals: [String: [HybridTimestamp]] = [:]

    /// An empty model.
    public init() {}

    /// Records the changes a replica's outbox holds for the item at `key`: each field it sets, and
    /// its removal.
    public mutating func record(_ changes: ItemVersions, of key: String) {
        for (number, field) in changes.fields {
            sets[key, default: [:]][number, default: []].append((field.stamp, field.bytes))
        }
        if let removal = changes.removal { removals[key, default: []].append(removal) }
    }

    /// The keys the model has seen.
    public var keys: Set<String> {
        Set(sets.keys).union(removals.keys)
    }

    /// The versions the rule gives for the item at `key`.
    public func expected(_ key: String) -> ItemVersions {
        var fields: [UInt32: ItemVersions.Field] = [:]
        for (number, values) in sets[key] ?? [:] {
            let latest = values.max { $0.stamp < $1.stamp }!
            fields[number] = ItemVersions.Field(bytes: latest.bytes, stamp: latest.stamp)
        }
        return ItemVersions(fields: fields, removal: removals[key]?.max())
    }

    /// The item the rule gives at `key`, as its top-level fields by number, or `nil` when hidden.
    public func expectedFields(_ key: String) -> [UInt32: [UInt8]]? {
        let versions = expected(key)
        guard !Self.hidden(versions) else { return nil }
        var fields: [UInt32: [UInt8]] = [:]
        for (number, field) in versions.fields {
            if let bytes = field.bytes { fields[number] = bytes }
        }
        return fields
    }

    /// Whether `versions` hide the item, computed here from the rule: never written, or removed
    /// later than every field was set.
    public static func hidden(_ versions: ItemVersions) -> Bool {
        guard let latest = versions.fields.values.map(\.stamp).max() else { return true }
        return versions.removal.map { $0 > latest } ?? false
    }
}
