import Foundation
@_spi(TroveGenerated) import Trove

// The models of the load tests, with coders written the way trove-gen writes them.

/// An account: transfers move money between accounts, so the total never changes. `version` is
/// the sequence number of the transaction that last wrote the account.
struct LoadAccount: Persistable, Equatable {
    typealias Coder = MessageCoder<LoadAccount>
    typealias MetadataCoder = MessageCoder<LoadStamp>
    static let collection = "load-accounts"
    var id: Int
    var balance: Int
    var version: Int
    var metadata: LoadStamp?
}

/// The metadata of an account: its version again, written in the same statement, so that a
/// reader can check the metadata cache against the item cache.
struct LoadStamp: Sendable, Equatable {
    var version: Int
}

/// The ledger, rewritten by every transfer: the sequence number of the last transfer and the
/// version each account must have in the same snapshot.
struct LoadLedger: Persistable, Equatable {
    typealias Coder = MessageCoder<LoadLedger>
    static let collection = "load-ledger"
    static let key = "ledger"
    var id: String
    var sequence: Int
    var versions: [Int]
}

extension LoadAccount: BinaryMessage {
    static func encodeMessage(_ value: LoadAccount, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.balance, field: FieldNumber.of("balance"))
        try writer.encode(value.version, field: FieldNumber.of("version"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> LoadAccount {
        var id: Int?
        var balance: Int?
        var version: Int?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(Int.self, from: header, field: "id")
            case FieldNumber.of("balance"): balance = try reader.decode(Int.self, from: header, field: "balance")
            case FieldNumber.of("version"): version = try reader.decode(Int.self, from: header, field: "version")
            default: try reader.skip(header)
            }
        }
        return LoadAccount(
            id: try reader.required(id, field: "id"), balance: try reader.required(balance, field: "balance"),
            version: try reader.required(version, field: "version"))
    }
}

extension LoadStamp: BinaryMessage {
    static func encodeMessage(_ value: LoadStamp, to writer: inout BinaryWriter) throws {
        try writer.encode(value.version, field: FieldNumber.of("version"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> LoadStamp {
        var version: Int?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("version"): version = try reader.decode(Int.self, from: header, field: "version")
            default: try reader.skip(header)
            }
        }
        return LoadStamp(version: try reader.required(version, field: "version"))
    }
}

extension LoadLedger: BinaryMessage {
    static func encodeMessage(_ value: LoadLedger, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.sequence, field: FieldNumber.of("sequence"))
        try writer.encode(value.versions, field: FieldNumber.of("versions"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> LoadLedger {
        var id: String?
        var sequence: Int?
        var versions: [Int]?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("sequence"): sequence = try reader.decode(Int.self, from: header, field: "sequence")
            case FieldNumber.of("versions"): versions = try reader.decode([Int].self, from: header, field: "versions")
            default: try reader.skip(header)
            }
        }
        return LoadLedger(
            id: try reader.required(id, field: "id"), sequence: try reader.required(sequence, field: "sequence"),
            versions: try reader.required(versions, field: "versions"))
    }
}
