import Testing
@_spi(TroveGenerated) import Trove

// Two versions of one model, hand-written the way trove-gen writes them.
//
// V1 -> V2: `email` added with a default; `legacyScore` removed; `age` widened from Int32 to
// Int; `nickname` went from optional to non-optional with a default; fields written in another
// order.

private struct ProfileV1: BinaryMessage, Equatable {
    var id: String
    var nickname: String?
    var age: Int32
    var legacyScore: Int = 0

    static func encodeMessage(_ value: ProfileV1, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encodeIfPresent(value.nickname, field: FieldNumber.of("nickname"))
        try writer.encode(value.age, field: FieldNumber.of("age"))
        try writer.encode(value.legacyScore, field: FieldNumber.of("legacyScore"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> ProfileV1 {
        var id: String?
        var nickname: String?
        var age: Int32?
        var legacyScore = 0
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            case FieldNumber.of("nickname"): nickname = try reader.decode(String.self, from: header, field: "nickname")
            case FieldNumber.of("age"): age = try reader.decode(Int32.self, from: header, field: "age")
            case FieldNumber.of("legacyScore"):
                legacyScore = try reader.decode(Int.self, from: header, field: "legacyScore")
            default: try reader.skip(header)
            }
        }
        return ProfileV1(
            id: try reader.required(id, field: "id"), nickname: nickname,
            age: try reader.required(age, field: "age"), legacyScore: legacyScore)
    }
}

private struct ProfileV2: BinaryMessage, Equatable {
    var email: String = "unknown"
    var age: Int
    var nickname: String = "anonymous"
    var id: String

    static func encodeMessage(_ value: ProfileV2, to writer: inout BinaryWriter) throws {
        try writer.encode(value.email, field: FieldNumber.of("email"))
        try writer.encode(value.age, field: FieldNumber.of("age"))
        try writer.encode(value.nickname, field: FieldNumber.of("nickname"))
        try writer.encode(value.id, field: FieldNumber.of("id"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> ProfileV2 {
        var email = "unknown"
        var age: Int?
        var nickname = "anonymous"
        var id: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("email"): email = try reader.decode(String.self, from: header, field: "email")
            case FieldNumber.of("age"): age = try reader.decode(Int.self, from: header, field: "age")
            case FieldNumber.of("nickname"): nickname = try reader.decode(String.self, from: header, field: "nickname")
            case FieldNumber.of("id"): id = try reader.decode(String.self, from: header, field: "id")
            default: try reader.skip(header)
            }
        }
        return ProfileV2(
            email: email, age: try reader.required(age, field: "age"), nickname: nickname,
            id: try reader.required(id, field: "id"))
    }
}

// A rename: V2 calls `title` `heading` and, as `@renamed(from: "title")` generates, accepts both
// numbers when decoding and writes the new one.

private struct NoteV1: BinaryMessage, Equatable {
    var title: String

    static func encodeMessage(_ value: NoteV1, to writer: inout BinaryWriter) throws {
        try writer.encode(value.title, field: FieldNumber.of("title"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> NoteV1 {
        var title: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("title"): title = try reader.decode(String.self, from: header, field: "title")
            default: try reader.skip(header)
            }
        }
        return NoteV1(title: try reader.required(title, field: "title"))
    }
}

private struct NoteV2: BinaryMessage, Equatable {
    var heading: String

    static func encodeMessage(_ value: NoteV2, to writer: inout BinaryWriter) throws {
        try writer.encode(value.heading, field: FieldNumber.of("heading"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> NoteV2 {
        var heading: String?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("heading"), FieldNumber.of("title"):
                heading = try reader.decode(String.self, from: header, field: "heading")
            default: try reader.skip(header)
            }
        }
        return NoteV2(heading: try reader.required(heading, field: "heading"))
    }
}

struct SchemaEvolutionTests {
    @Test func newVersionReadsOldData() throws {
        let old = ProfileV1(id: "u1", nickname: "Ace", age: -42, legacyScore: 99)
        let new = try decodedMessage(ProfileV2.self, from: encodedMessage(old))
        #expect(new == ProfileV2(email: "unknown", age: -42, nickname: "Ace", id: "u1"))
    }

    @Test func optionalBecomesDefaultWhenAbsent() throws {
        let old = ProfileV1(id: "u2", nickname: nil, age: 7)
        let new = try decodedMessage(ProfileV2.self, from: encodedMessage(old))
        #expect(new.nickname == "anonymous")
    }

    @Test func oldVersionReadsNewData() throws {
        let new = ProfileV2(email: "a@b.c", age: 30, nickname: "Bee", id: "u3")
        let old = try decodedMessage(ProfileV1.self, from: encodedMessage(new))
        #expect(old == ProfileV1(id: "u3", nickname: "Bee", age: 30, legacyScore: 0))
    }

    @Test func oldVersionRejectsAWidenedValueThatDoesNotFit() throws {
        let new = ProfileV2(age: Int(Int32.max) + 1, id: "u4")
        let error = expectTroveError { _ = try decodedMessage(ProfileV1.self, from: encodedMessage(new)) }
        #expect(error?.field == "age")
    }

    @Test func renamedFieldReadsDataWrittenUnderTheOldName() throws {
        let new = try decodedMessage(NoteV2.self, from: encodedMessage(NoteV1(title: "Groceries")))
        #expect(new == NoteV2(heading: "Groceries"))
        #expect(try decodedMessage(NoteV2.self, from: encodedMessage(new)) == new)
    }

    @Test func oldVersionReportsARenamedRequiredFieldAsMissing() throws {
        let error = expectTroveError { _ = try decodedMessage(NoteV1.self, from: encodedMessage(NoteV2(heading: "x"))) }
        #expect(error?.field == "title")
        #expect(error?.message.contains("required field is missing") == true)
    }

    @Test func unknownFieldsOfEveryWireTypeAreSkipped() throws {
        var writer = BinaryWriter()
        try writer.encode(UInt64.max, field: FieldNumber.of("futureVarint"))
        try writer.encode(Float(1), field: FieldNumber.of("futureFixed32"))
        try writer.encode(Double(2), field: FieldNumber.of("futureFixed64"))
        try writer.encode(["nested": [1, 2]], field: FieldNumber.of("futureBytes"))
        try writer.encode("Groceries", field: FieldNumber.of("title"))
        try writer.encodeMessage(field: FieldNumber.of("futureMessage")) { writer in
            try writer.encode(Shape.circle(radius: 1), field: 1)
        }
        #expect(try decodedMessage(NoteV1.self, from: writer.bytes) == NoteV1(title: "Groceries"))
    }

    @Test func fieldOrderDoesNotMatter() throws {
        let forward = try encodedMessage(Address(street: "s", city: "c", zip: 1))
        var writer = BinaryWriter()
        try writer.encode(Int32(1), field: FieldNumber.of("zip"))
        try writer.encode("c", field: FieldNumber.of("city"))
        try writer.encode("s", field: FieldNumber.of("street"))
        #expect(try decodedMessage(Address.self, from: writer.bytes) == decodedMessage(Address.self, from: forward))
    }
}
