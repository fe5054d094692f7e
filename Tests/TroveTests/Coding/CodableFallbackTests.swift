import Foundation
import Testing
@_spi(TroveGenerated) import Trove

private struct Preferences: BinaryMessage, Equatable {
    var owner: String
    var settings: LegacySettings
    var backup: LegacySettings?

    static func encodeMessage(_ value: Preferences, to writer: inout BinaryWriter) throws {
        try writer.encode(value.owner, field: FieldNumber.of("owner"))
        try writer.encode(value.settings, field: FieldNumber.of("settings"))
        try writer.encodeIfPresent(value.backup, field: FieldNumber.of("backup"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> Preferences {
        var owner: String?
        var settings: LegacySettings?
        var backup: LegacySettings?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("owner"): owner = try reader.decode(String.self, from: header, field: "owner")
            case FieldNumber.of("settings"):
                settings = try reader.decode(LegacySettings.self, from: header, field: "settings")
            case FieldNumber.of("backup"): backup = try reader.decode(LegacySettings.self, from: header, field: "backup")
            default: try reader.skip(header)
            }
        }
        return Preferences(
            owner: try reader.required(owner, field: "owner"),
            settings: try reader.required(settings, field: "settings"), backup: backup)
    }
}

private struct CodableNote: Codable, Equatable {
    var id: String
    var text: String
    var created: Date
}

private struct Unencodable: Codable {
    var value: Double
}

struct CodableFallbackTests {
    private let settings = LegacySettings(theme: "dark", fontSize: 12.5, flags: ["b": false, "a": true])

    @Test func codableFieldInsideAMessage() throws {
        let value = Preferences(owner: "ada", settings: settings, backup: nil)
        #expect(try decodedMessage(Preferences.self, from: encodedMessage(value)) == value)
        let withBackup = Preferences(owner: "ada", settings: settings, backup: settings)
        #expect(try decodedMessage(Preferences.self, from: encodedMessage(withBackup)) == withBackup)
    }

    @Test func codableFieldIsLengthDelimitedJSONWithSortedKeys() throws {
        var writer = BinaryWriter()
        try writer.encode(settings, field: 5)
        try writer.bytes.withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            let header = try #require(try reader.nextField())
            #expect(header == FieldHeader(number: 5, wireType: .lengthDelimited))
            let json = try reader.readString()
            #expect(json == #"{"flags":{"a":true,"b":false},"fontSize":12.5,"theme":"dark"}"#)
        }
    }

    @Test func corruptCodableFieldNamesTheField() throws {
        var writer = BinaryWriter()
        try writer.encode("ada", field: FieldNumber.of("owner"))
        try writer.encode(#"{"theme":1}"#, field: FieldNumber.of("settings"))
        let error = expectTroveError { _ = try decodedMessage(Preferences.self, from: writer.bytes) }
        #expect(error?.field == "settings")
        #expect(error?.underlyingError is DecodingError)
    }

    @Test func codableCoderRoundTrips() throws {
        let note = CodableNote(id: "n1", text: "héllo", created: Date(timeIntervalSinceReferenceDate: 12.25))
        var writer = BinaryWriter()
        try CodableCoder<CodableNote>.encode(note, to: &writer)
        #expect(writer.bytes.first == UInt8(ascii: "{"))
        let decoded = try writer.bytes.withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            let value = try CodableCoder<CodableNote>.decode(from: &reader)
            #expect(reader.isAtEnd)
            return value
        }
        #expect(decoded == note)
    }

    @Test func codableCoderReportsCorruptJSON() throws {
        for bytes: [UInt8] in [[], Array("{".utf8), Array(#"{"id":"x"}"#.utf8), [0xFF, 0xFE]] {
            let error = expectTroveError {
                _ = try bytes.withUnsafeBytes { (buffer) throws in
                    var reader = BinaryReader(buffer)
                    return try CodableCoder<CodableNote>.decode(from: &reader)
                }
            }
            #expect(error?.underlyingError != nil)
        }
    }

    @Test func encodingFailureIsEncodingFailed() throws {
        var writer = BinaryWriter()
        let error = expectTroveError(.encodingFailed) {
            try CodableCoder<Unencodable>.encode(Unencodable(value: .nan), to: &writer)
        }
        #expect(error?.underlyingError is EncodingError)
        expectTroveError(.encodingFailed) { try writer.encode(Unencodable(value: .infinity), field: 1) }
    }
}
