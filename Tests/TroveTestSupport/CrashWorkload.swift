import Foundation
@_spi(TroveGenerated) import Trove

// The workload of the crash tests, shared by the child process that writes it
// (`trove-crash-writer`) and the tests that kill that child and check what survived. Every
// value is a pure function of its group number, so the checker knows exactly what each
// acknowledged transaction wrote without asking the child.

/// An item written by the crash workload: a payload derived from its group and index, so that
/// any torn or mixed-up write shows as a wrong payload.
public struct CrashItem: Persistable, Equatable {
    /// The coder of items, written the way trove-gen writes it.
    public typealias Coder = MessageCoder<CrashItem>
    /// The coder of the metadata.
    public typealias MetadataCoder = MessageCoder<CrashStamp>
    /// The collection of the items.
    public static let collection = "crash"

    /// The key of the item.
    public var id: String
    /// The transaction (group) that wrote the item.
    public var group: Int
    /// Bytes that are a function of the group and of the item's place in it.
    public var payload: Data
    /// The metadata, stored in its own column.
    public var metadata: CrashStamp?

    /// Creates a value from its fields.
    public init(id: String, group: Int, payload: Data, metadata: CrashStamp?) {
        self.id = id
        self.group = group
        self.payload = payload
        self.metadata = metadata
    }
}

/// The metadata of a ``CrashItem``: its group again, and a checksum of its payload, stored in
/// the metadata column so that the two columns of one row are checked against each other.
public struct CrashStamp: Sendable, Equatable {
    /// The group of the item, again.
    public var group: Int
    /// The ``CrashWorkload/checksum(_:)`` of the item's payload.
    public var checksum: UInt64

    /// Creates a value from its fields.
    public init(group: Int, checksum: UInt64) {
        self.group = group
        self.checksum = checksum
    }
}

extension CrashItem: BinaryMessage {
    /// Writes the fields of `value`, the way trove-gen writes them.
    public static func encodeMessage(_ value: CrashItem, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.group, field: FieldNumber.of("group"))
        try writer.encode(value.payload, field: FieldNumber.of("payload"))
    }

    /// Reads the fields of a value, the way trove-gen reads them.
    public static func decodeMessage(from reader: inout BinaryReader) throws -> CrashItem {
        var id: String?
        var group: Int?
        var payload: Data?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("group"): group = try reader.decode(Int.self, from: header, field: "group")
            case FieldNumber.of("payload"): payload = try reader.decode(Data.self, from: header, field: "payload")
            default: try reader.skip(header)
            }
        }
        return CrashItem(
            id: try reader.required(id, field: "id"), group: try reader.required(group, field: "group"),
            payload: try reader.required(payload, field: "payload"), metadata: nil)
    }
}

extension CrashStamp: BinaryMessage {
    /// Writes the fields of `value`, the way trove-gen writes them.
    public static func encodeMessage(_ value: CrashStamp, to writer: inout BinaryWriter) throws {
        try writer.encode(value.group, field: FieldNumber.of("group"))
        try writer.encode(value.checksum, field: FieldNumber.of("checksum"))
    }

    /// Reads the fields of a value, the way trove-gen reads them.
    public static func decodeMessage(from reader: inout BinaryReader) throws -> CrashStamp {
        var group: Int?
        var checksum: UInt64?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("group"): group = try reader.decode(Int.self, from: header, field: "group")
            case FieldNumber.of("checksum"): checksum = try reader.decode(UInt64.self, from: header, field: "checksum")
            default: try reader.skip(header)
            }
        }
        return CrashStamp(
            group: try reader.required(group, field: "group"),
            checksum: try reader.required(checksum, field: "checksum"))
    }
}

/// What the crash child writes, transaction by transaction.
///
/// Small transactions (``writeGroup(_:in:)``): transaction `g` writes the items `g<g>-0` …
/// `g<g>-<n-1>` (1 to 4 of them), removes the items of group `g - smallWindow`, sets `counter`
/// to `g`, overwrites `hot-<g % 16>`, removes `temp-<g-1>` and writes `temp-<g>`. So the whole
/// collection is a function of the counter `c` (``expectedSmallState(counter:)``): the last
/// ``smallWindow`` groups up to `c`, complete; no later group; each hot item holding its latest
/// group; only `temp-c`. Removing old groups keeps the file small however long the test runs.
///
/// Bulk transactions (``writeBulk(_:in:)``): transaction `g` writes ``bulkSize`` items `b<g>-<j>`
/// as one sequence, removes the items of group `g - bulkWindow`, and sets `counter` to `g`.
public enum CrashWorkload {
    /// The key of a file at step `step` of `trove-crash-writer rekey`: a raw key, another, then
    /// none (the file decrypted), and so on.
    public static func rekeyKey(_ step: Int) -> EncryptionKey? {
        step % 3 == 2 ? nil : TestEncryption.rawKey("rekey-\(step)")
    }

    /// The number of hot items, overwritten in turn.
    public static let hotCount = 16
    /// How many small groups stay stored: older ones are removed.
    public static let smallWindow = 64
    /// The items of one bulk transaction.
    public static let bulkSize = 400
    /// How many bulk groups stay stored: older ones are removed.
    public static let bulkWindow = 3
    /// The key of the counter item.
    public static let counterKey = "counter"
    /// The key of the item that counts the items of the shared workload (``item(id:group:salt:)``
    /// with the count as its group).
    public static let totalKey = "total"

    /// The collection of the sequence workload: item `n` is committed alone, after items 1 to
    /// `n - 1` (see `trove-crash-writer sequence`).
    public static let sequenceCollection = "sequence"

    /// The key of item `n` of the sequence workload: the number in eight digits, so that the
    /// keys sort in the order of the commits.
    public static func sequenceKey(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The data of item `n` of the sequence workload: a message of one string field (number 1,
    /// which `trove check` decodes without a schema) holding its key repeated to 1,000 bytes, so
    /// that each commit adds about a page to the file.
    public static func sequencePayload(_ n: Int) -> Data {
        let key = Array(sequenceKey(n).utf8)
        // Field 1, length-delimited (a 4-byte tag), then the length 1,000 as a varint.
        return Data([0x0A, 0, 0, 0, 0xE8, 0x07] + (0..<1_000).map { key[$0 % key.count] })
    }

    /// The number of items of small group `group`: 1 to 4.
    public static func groupSize(_ group: Int) -> Int {
        Int(mix(UInt64(group), 1) % 4) + 1
    }

    /// The expected item `index` of small group `group`.
    public static func groupItem(_ group: Int, _ index: Int) -> CrashItem {
        item(id: "g\(group)-\(index)", group: group, salt: UInt64(index))
    }

    /// The counter item after group `group`.
    public static func counter(_ group: Int) -> CrashItem {
        item(id: counterKey, group: group, salt: 1_000)
    }

    /// The key of the hot item that group `group` overwrites.
    public static func hotKey(_ group: Int) -> String {
        "hot-\(group % hotCount)"
    }

    /// The hot item as group `group` writes it.
    public static func hot(_ group: Int) -> CrashItem {
        item(id: hotKey(group), group: group, salt: 2_000)
    }

    /// The temporary item of group `group`, removed by the next group.
    public static func temp(_ group: Int) -> CrashItem {
        item(id: "temp-\(group)", group: group, salt: 3_000)
    }

    /// The expected item `index` of bulk group `group`.
    public static func bulkItem(_ group: Int, _ index: Int) -> CrashItem {
        item(id: "b\(group)-\(index)", group: group, salt: 10_000 + UInt64(index))
    }

    /// Writes small group `group`: one transaction of the small-transaction workload.
    public static func writeGroup(_ group: Int, in tx: ReadWriteTransaction) throws {
        for index in 0..<groupSize(group) {
            try tx.write(groupItem(group, index))
        }
        if group >= smallWindow {
            let old = group - smallWindow
            try tx.remove(CrashItem.self, keys: (0..<groupSize(old)).map { "g\(old)-\($0)" })
        }
        try tx.write(counter(group))
        try tx.write(hot(group))
        if group > 0 {
            try tx.remove(CrashItem.self, key: "temp-\(group - 1)")
        }
        try tx.write(temp(group))
    }

    /// Writes bulk group `group`: one transaction of the bulk workload.
    public static func writeBulk(_ group: Int, in tx: ReadWriteTransaction) throws {
        try tx.write((0..<bulkSize).lazy.map { bulkItem(group, $0) })
        if group >= bulkWindow {
            let old = group - bulkWindow
            try tx.remove(CrashItem.self, keys: (0..<bulkSize).map { "b\(old)-\($0)" })
        }
        try tx.write(counter(group))
    }

    /// Every item of the collection once the small workload has committed group `counter`
    /// (and nothing else), by key; empty for `-1`.
    public static func expectedSmallState(counter: Int) -> [String: CrashItem] {
        guard counter >= 0 else { return [:] }
        var items: [String: CrashItem] = [:]
        for group in max(0, counter - smallWindow + 1)...counter {
            for index in 0..<groupSize(group) {
                let item = groupItem(group, index)
                items[item.id] = item
            }
        }
        for group in max(0, counter - hotCount + 1)...counter {
            items[hotKey(group)] = hot(group)
        }
        items[counterKey] = self.counter(counter)
        items["temp-\(counter)"] = temp(counter)
        return items
    }

    /// Every item of the collection once the bulk workload has committed group `counter`, by
    /// key; empty for `-1`.
    public static func expectedBulkState(counter: Int) -> [String: CrashItem] {
        guard counter >= 0 else { return [:] }
        var items: [String: CrashItem] = [:]
        for group in max(0, counter - bulkWindow + 1)...counter {
            for index in 0..<bulkSize {
                let item = bulkItem(group, index)
                items[item.id] = item
            }
        }
        items[counterKey] = self.counter(counter)
        return items
    }

    /// An item whose payload derives from its group and `salt`: 16 to 600 bytes, and one item
    /// in 16 takes 3 to 9 KB so that it spills onto SQLite overflow pages.
    public static func item(id: String, group: Int, salt: UInt64) -> CrashItem {
        var random = SeededGenerator(seed: mix(UInt64(group), salt))
        let large = random.next() % 16 == 0
        let count = large ? Int(3_000 + random.next() % 6_000) : Int(16 + random.next() % 585)
        var payload = Data(count: count)
        payload.withUnsafeMutableBytes { buffer in
            for offset in buffer.indices { buffer[offset] = UInt8(truncatingIfNeeded: random.next()) }
        }
        return CrashItem(
            id: id, group: group, payload: payload, metadata: CrashStamp(group: group, checksum: checksum(payload)))
    }

    /// FNV-1a 64 of the payload.
    public static func checksum(_ payload: Data) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in payload {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var generator = SeededGenerator(seed: a &* 0x9E37_79B9_7F4A_7C15 ^ b)
        return generator.next()
    }
}

/// A small, fast, seeded pseudo-random generator (SplitMix64), so that random tests are
/// reproducible from their seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose numbers are a function of `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next pseudo-random number.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
