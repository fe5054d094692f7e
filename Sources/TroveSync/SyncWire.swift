import Foundation
@_spi(TroveGenerated) import Trove

/// The bodies a sync client and a sync server exchange over HTTP, in Trove's own tagged format
/// (the format of items and of ``ItemVersions``): a newer side can add fields an older one skips.
///
/// - push request (`POST …/push`): field 1, the replica; field 2, one per change, oldest first;
///   field 3, the replica's pull cursor (the last change of the log it has merged).
/// - push refused with 409: a guarded change's item was changed by another replica after the
///   pull cursor; the replica pulls, settles, and pushes again.
/// - push answer: field 1, the outbox number the replica may acknowledge through.
/// - pull answer (`GET …/pull?after=N&limit=M&wait=S`): field 1, the cursor to pull after next;
///   field 2, whether more changes follow at once; field 3, one per change, oldest first.
/// - a change: field 1, its number (the replica's outbox number in a push, the server's log number
///   in a pull); field 2, the collection; field 3, the key; field 4, the versions' bytes
///   (``ItemVersions/serialized()``); field 5 (push), whether the change is guarded (its model has
///   a merge policy: the server refuses it while the replica has not pulled another replica's
///   change of the same fields); field 6 (pull), the replica that pushed it.
package enum SyncWire {
    /// The media type of every body.
    package static let contentType = "application/x-trove-sync"

    /// The most bytes of UTF-8 a change's collection and key take together: PostgreSQL's index of
    /// the server's items keeps rows of about 2,700 bytes at most, the partition's name (128 at
    /// most) included.
    package static let maximumAddressBytes = 2_048

    /// Why the server cannot keep an item at `key` in `collection`, or `nil` when it can: a NUL
    /// character (PostgreSQL's text has none), or a collection and key longer than
    /// ``maximumAddressBytes`` together. A replica refuses such a write to a synced collection; the
    /// server refuses such a change.
    package static func addressProblem(collection: String, key: String) -> String? {
        if collection.utf8.contains(0) || key.utf8.contains(0) {
            return "a collection or key with a NUL character, which the sync server cannot keep"
        }
        let bytes = collection.utf8.count + key.utf8.count
        if bytes > maximumAddressBytes {
            return "a collection and key of \(bytes) bytes together: the sync server keeps at most \(maximumAddressBytes)"
        }
        return nil
    }

    /// One change in a push or a pull.
    package struct Change: Sendable, Hashable {
        /// Its number: in the replica's outbox (push), or in the server's log (pull).
        package var sequence: Int64
        /// The collection of the item.
        package var collection: String
        /// The key of the item.
        package var key: String
        /// What changed.
        package var changes: ItemVersions
        /// In a push: whether the server must refuse the change while the replica has not pulled
        /// another replica's change of the same fields (its model has a merge policy).
        package var guarded: Bool
        /// In a pull: the replica that pushed the change (`nil` from a server that does not say).
        package var origin: ReplicaID?

        package init(
            sequence: Int64, collection: String, key: String, changes: ItemVersions, guarded: Bool = false,
            origin: ReplicaID? = nil
        ) {
            self.sequence = sequence
            self.collection = collection
            self.key = key
            self.changes = changes
            self.guarded = guarded
            self.origin = origin
        }
    }

    /// What a replica pushes: its identity and its pending changes.
    package struct Push: Sendable, Hashable {
        package var replica: ReplicaID
        package var changes: [Change]
        /// The last change of the server's log the replica has merged: another replica's change
        /// logged after it is one the replica has not seen.
        package var basis: Int64

        package init(replica: ReplicaID, changes: [Change], basis: Int64 = 0) {
            self.replica = replica
            self.changes = changes
            self.basis = basis
        }
    }

    /// What a pull returns.
    package struct Pulled: Sendable, Hashable {
        /// Where the next pull starts: the last change's number, or the cursor sent when none.
        package var cursor: Int64
        /// Whether the server has more changes after these, to be pulled at once.
        package var more: Bool
        /// The changes, oldest first.
        package var changes: [Change]

        package init(cursor: Int64, more: Bool, changes: [Change]) {
            self.cursor = cursor
            self.more = more
            self.changes = changes
        }
    }

    // MARK: Writing

    package static func encode(_ push: Push) throws -> [UInt8] {
        var writer = BinaryWriter()
        try writer.encode(push.replica.rawValue, field: 1)
        for change in push.changes { try writer.encodeMessage(field: 2) { try write(change, to: &$0) } }
        if push.basis != 0 { try writer.encode(push.basis, field: 3) }
        return writer.bytes
    }

    package static func encodeAcknowledged(_ sequence: Int64) throws -> [UInt8] {
        var writer = BinaryWriter()
        try writer.encode(sequence, field: 1)
        return writer.bytes
    }

    package static func encode(_ pulled: Pulled) throws -> [UInt8] {
        var writer = BinaryWriter()
        try writer.encode(pulled.cursor, field: 1)
        try writer.encode(pulled.more, field: 2)
        for change in pulled.changes { try writer.encodeMessage(field: 3) { try write(change, to: &$0) } }
        return writer.bytes
    }

    private static func write(_ change: Change, to writer: inout BinaryWriter) throws {
        try writer.encode(change.sequence, field: 1)
        try writer.encode(change.collection, field: 2)
        try writer.encode(change.key, field: 3)
        try writer.encode(Data(try change.changes.serialized()), field: 4)
        if change.guarded { try writer.encode(true, field: 5) }
        if let origin = change.origin { try writer.encode(origin.rawValue, field: 6) }
    }

    // MARK: Reading

    /// Reads a push; damaged bytes fail with ``/Trove/TroveError/Code/corruptData``, never trap.
    package static func decodePush(_ bytes: [UInt8]) throws -> Push {
        var replica: UInt64?
        var changes: [Change] = []
        var basis: Int64 = 0
        try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            while let header = try reader.nextField() {
                switch header.number {
                case 1: replica = try reader.decode(UInt64.self, from: header, field: "replica")
                case 2: changes.append(try reader.decodeMessage(from: header, field: "changes") { try readChange(from: &$0) })
                case 3: basis = try reader.decode(Int64.self, from: header, field: "basis")
                default: try reader.skip(header)
                }
            }
            _ = try reader.required(replica, field: "replica")
        }
        return Push(replica: ReplicaID(rawValue: replica ?? 0), changes: changes, basis: basis)
    }

    /// Reads a push's answer.
    package static func decodeAcknowledged(_ bytes: [UInt8]) throws -> Int64 {
        var sequence: Int64?
        try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            while let header = try reader.nextField() {
                if header.number == 1 {
                    sequence = try reader.decode(Int64.self, from: header, field: "acknowledged")
                } else {
                    try reader.skip(header)
                }
            }
            _ = try reader.required(sequence, field: "acknowledged")
        }
        return sequence ?? 0
    }

    /// Reads a pull's answer.
    package static func decodePulled(_ bytes: [UInt8]) throws -> Pulled {
        var cursor: Int64?
        var more = false
        var changes: [Change] = []
        try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            while let header = try reader.nextField() {
                switch header.number {
                case 1: cursor = try reader.decode(Int64.self, from: header, field: "cursor")
                case 2: more = try reader.decode(Bool.self, from: header, field: "more")
                case 3: changes.append(try reader.decodeMessage(from: header, field: "changes") { try readChange(from: &$0) })
                default: try reader.skip(header)
                }
            }
            _ = try reader.required(cursor, field: "cursor")
        }
        return Pulled(cursor: cursor ?? 0, more: more, changes: changes)
    }

    private static func readChange(from reader: inout BinaryReader) throws -> Change {
        var sequence: Int64?
        var collection: String?
        var key: String?
        var versions: Data?
        var guarded = false
        var origin: UInt64?
        while let header = try reader.nextField() {
            switch header.number {
            case 1: sequence = try reader.decode(Int64.self, from: header, field: "sequence")
            case 2: collection = try reader.decode(String.self, from: header, field: "collection")
            case 3: key = try reader.decode(String.self, from: header, field: "key")
            case 4: versions = try reader.decode(Data.self, from: header, field: "versions")
            case 5: guarded = try reader.decode(Bool.self, from: header, field: "guarded")
            case 6: origin = try reader.decode(UInt64.self, from: header, field: "origin")
            default: try reader.skip(header)
            }
        }
        return Change(
            sequence: try reader.required(sequence, field: "sequence"),
            collection: try reader.required(collection, field: "collection"),
            key: try reader.required(key, field: "key"),
            changes: try ItemVersions(serialized: Array(try reader.required(versions, field: "versions"))),
            guarded: guarded, origin: origin.map(ReplicaID.init(rawValue:)))
    }
}
