import Foundation
@_spi(TroveGenerated) import Trove

/// A node of the graph that `trove-crash-writer cascade` removes in one cascade.
///
/// The graph is a spine `s0 … s<n-1>`, each spine node with `fanout` leaves. A leaf goes with
/// its spine node (`parent`, `.deleteSourceWhenDestinationDeleted`); a spine node hears that the
/// one before it went (`previous`, `.notifySourceWhenDestinationDeleted`) and removes itself,
/// which removes its leaves in turn. So removing `s0` removes the whole graph in one transaction,
/// a step at a time, and the child reports each step before the commit.
struct CascadeNode: Persistable, Equatable {
    typealias Coder = MessageCoder<CascadeNode>
    static let collection = "cascade"

    var id: String
    var parent: String?
    var previous: String?
    var payload: Data

    /// The relationships of the graph.
    static let edges = Relationships<CascadeNode>(
        "cascade_edges",
        edges: [
            .to("parent", CascadeNode.self, rules: .deleteSourceWhenDestinationDeleted, key: { $0.parent }),
            .to("previous", CascadeNode.self, rules: .notifySourceWhenDestinationDeleted, key: { $0.previous }),
        ])

    /// Writes the graph.
    static func build(spines: Int, fanout: Int, in tx: ReadWriteTransaction) throws {
        let payload = Data(repeating: 0x5A, count: 200)
        for spine in 0..<spines {
            try tx.write(
                CascadeNode(
                    id: "s\(spine)", parent: nil, previous: spine == 0 ? nil : "s\(spine - 1)", payload: payload))
            for leaf in 0..<fanout {
                try tx.write(CascadeNode(id: "s\(spine)-\(leaf)", parent: "s\(spine)", previous: nil, payload: payload))
            }
        }
    }
}

extension CascadeNode: RelationshipNotifiable {
    /// The spine node before this one went: this one goes too, and says how far the cascade got.
    func relatedItemRemoved(_ notice: RelationshipNotice) throws -> RelationshipReaction<CascadeNode> {
        if let number = Int(id.dropFirst()), number % 50 == 0 {
            CrashWriter.say("cascade \(number)")
        }
        return .remove
    }
}

extension CascadeNode: BinaryMessage {
    static func encodeMessage(_ value: CascadeNode, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encodeIfPresent(value.parent, field: FieldNumber.of("parent"))
        try writer.encodeIfPresent(value.previous, field: FieldNumber.of("previous"))
        try writer.encode(value.payload, field: FieldNumber.of("payload"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> CascadeNode {
        var id: String?
        var parent: String?
        var previous: String?
        var payload: Data?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("parent"): parent = try reader.decode(String.self, from: header, field: "parent")
            case FieldNumber.of("previous"): previous = try reader.decode(String.self, from: header, field: "previous")
            case FieldNumber.of("payload"): payload = try reader.decode(Data.self, from: header, field: "payload")
            default: try reader.skip(header)
            }
        }
        return CascadeNode(
            id: try reader.required(id, field: "id"), parent: parent, previous: previous,
            payload: try reader.required(payload, field: "payload"))
    }
}
