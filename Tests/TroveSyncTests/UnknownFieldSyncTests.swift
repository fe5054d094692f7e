import Foundation
import Testing
@_spi(TroveGenerated) import Trove
import TroveSync
import TroveTestSupport

// Two versions of one model, hand-written the way trove-gen writes them: `EntryV1`
// (TroveTestSupport), and a later version that adds `color`.

private struct EntryWithColor: Persistable, BinaryMessage, Equatable {
    typealias Coder = MessageCoder<EntryWithColor>
    static let collection = "entries"
    var id: String
    var title: String
    var color: String

    static func encodeMessage(_ value: EntryWithColor, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.title, field: FieldNumber.of("title"))
        try writer.encode(value.color, field: FieldNumber.of("color"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> EntryWithColor {
        var id: String?
        var title: String?
        var color: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("title"): title = try reader.decode(String.self, from: header, field: "title")
            case FieldNumber.of("color"): color = try reader.decode(String.self, from: header, field: "color")
            default: try reader.skip(header)
            }
        }
        return EntryWithColor(
            id: try reader.required(id, field: "id"), title: try reader.required(title, field: "title"),
            color: try reader.required(color, field: "color"))
    }
}

/// Fields a newer version of the app added travel through a replica of an older version
/// untouched: it merges them without decoding them, keeps them across its own typed writes, and
/// sends only the fields it changed.
@Suite struct UnknownFieldSyncTests {
    static let newer = SyncLedger(models: [EntryWithColor.self])
    static let older = SyncLedger(models: [EntryV1.self])

    /// Sends `from`'s pending changes to `to` (through `ledger`, the receiver's), merged there,
    /// and acknowledges them on `from`; returns what was sent.
    static func send(from: Database, _ fromLedger: SyncLedger, to: Database, _ toLedger: SyncLedger) throws -> [PendingChange] {
        let changes = try from.read { tx in try fromLedger.pending(in: tx) }
        try to.write { tx in
            for change in changes {
                try toLedger.merge(change.changes, collection: change.collection, key: change.key, in: tx)
            }
        }
        if let last = changes.last {
            try from.write { tx in try fromLedger.acknowledge(through: last.sequence, in: tx) }
        }
        return changes
    }

    @Test func aNewerAppsFieldTravelsThroughAnOlderReplicaUntouched() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let new = try Database(path: "\(folder)/new.trove", extensions: [Self.newer.databaseExtension])
        let old = try Database(path: "\(folder)/old.trove", extensions: [Self.older.databaseExtension])

        try new.write { tx in try tx.write(EntryWithColor(id: "n", title: "first", color: "red")) }
        _ = try Self.send(from: new, Self.newer, to: old, Self.older)
        // The older app reads the note (skipping `color`) and changes its title.
        try old.write { tx in
            var note = try #require(try tx.read(EntryV1.self, key: "n"))
            note.title = "second"
            try tx.write(note)
        }
        let sent = try Self.send(from: old, Self.older, to: new, Self.newer)
        #expect(sent.count == 1)
        #expect(sent.first?.changes.fields.keys.sorted() == [FieldNumber.of("title")], "the older replica sent more than the title")
        let back = try new.read { tx in try tx.read(EntryWithColor.self, key: "n") }
        #expect(back == EntryWithColor(id: "n", title: "second", color: "red"))
        // And the older replica still holds the color, for the next newer one.
        let kept = try old.read { tx in try tx.data(forKey: "n", in: EntryV1.collection) }
        #expect(SyncWorkload.fields(of: Array(try #require(kept)))[FieldNumber.of("color")] != nil)
    }
}
