import Foundation
@_spi(TroveGenerated) import Trove

// The models of the bad-bytes tests and of trove-fuzz: every kind of field the binary format has, with coders
// written the way trove-gen writes them.

/// An item with one field of every kind: integers of every width, floating point, Bool, String,
/// Data, Date, UUID, URL, Decimal, optionals, arrays, sets, dictionaries, nested messages,
/// raw-value enumerations, an enumeration with associated values, and a `Codable` fallback.
public struct Profile: Persistable, Equatable {
    /// The coder of items, written the way trove-gen writes it.
    public typealias Coder = MessageCoder<Profile>
    /// The coder of the metadata.
    public typealias MetadataCoder = MessageCoder<ProfileStats>
    /// The collection of the items.
    public static let collection = "fuzz-profiles"

    /// The key of the item.
    public var id: UUID
    /// A field of type `String`.
    public var name: String
    /// A field of type `Int`.
    public var age: Int
    /// A field of type `Double`.
    public var score: Double
    /// A field of type `Float`.
    public var ratio: Float
    /// A field of type `Int8`.
    public var tiny: Int8
    /// A field of type `UInt16`.
    public var flags: UInt16
    /// A field of type `UInt64`.
    public var big: UInt64
    /// A field of type `Bool`.
    public var active: Bool
    /// A field of type `Data`.
    public var avatar: Data
    /// A field of type `Date`.
    public var joined: Date
    /// A field of type `URL?`.
    public var homepage: URL?
    /// A field of type `Decimal`.
    public var balance: Decimal
    /// A field of type `String?`.
    public var nickname: String?
    /// A field of type `[String]`.
    public var tags: [String]
    /// A field of type `Set<Int32>`.
    public var lucky: Set<Int32>
    /// A field of type `[String: Double]`.
    public var scores: [String: Double]
    /// A field of type `PostalAddress`.
    public var address: PostalAddress
    /// A field of type `[PostalAddress]`.
    public var previous: [PostalAddress]
    /// A field of type `Access`.
    public var role: Access
    /// A field of type `Tier`.
    public var level: Tier
    /// A field of type `Outline`.
    public var shape: Outline
    /// A field of type `Extra`.
    public var extra: Extra
    /// The metadata, stored in its own column.
    public var metadata: ProfileStats?
}

/// The metadata of a ``Profile``.
public struct ProfileStats: Sendable, Equatable {
    /// A field of type `Int`.
    public var visits: Int
    /// A field of type `[Int64]`.
    public var history: [Int64]
    /// A field of type `Date?`.
    public var last: Date?

    /// Creates a value from its fields.
    public init(visits: Int, history: [Int64], last: Date?) {
        self.visits = visits
        self.history = history
        self.last = last
    }
}

/// A nested message: a field of ``Profile``, and an element of an array.
public struct PostalAddress: Sendable, Equatable {
    /// A field of type `String`.
    public var street: String
    /// A field of type `String`.
    public var city: String
    /// A field of type `UInt32?`.
    public var zip: UInt32?
}

/// A raw-value enumeration with `String` raw values.
public enum Access: String, Sendable, BinaryCodable {
    case reader, writer, admin
}

/// A raw-value enumeration with `Int` raw values.
public enum Tier: Int, Sendable, BinaryCodable {
    case low = 1, middle = 5, high = 9
}

/// An enumeration with associated values: one field per case, holding the case's values as a
/// nested message.
public enum Outline: Sendable, Equatable {
    case empty
    case circle(radius: Double)
    case rectangle(width: Double, height: Double, label: String?)
}

/// A field type that is only `Codable`: stored through the JSON fallback.
public struct Extra: Codable, Sendable, Equatable {
    /// A field of type `String`.
    public var note: String
    /// A field of type `[Double]`.
    public var weights: [Double]
}

/// An item coded entirely through `CodableCoder`.
public struct Memo: Persistable, Codable, Equatable {
    /// The coder of items, written the way trove-gen writes it.
    public typealias Coder = CodableCoder<Memo>
    /// The collection of the items.
    public static let collection = "fuzz-memos"
    /// The key of the item.
    public var id: Int
    /// A field of type `[String]`.
    public var lines: [String]
    /// A field of type `Bool`.
    public var pinned: Bool

    /// Creates a value from its fields.
    public init(id: Int, lines: [String], pinned: Bool) {
        self.id = id
        self.lines = lines
        self.pinned = pinned
    }
}

// MARK: Coders

extension Profile: BinaryMessage {
    /// Writes the fields of `value`, the way trove-gen writes them.
    public static func encodeMessage(_ value: Profile, to writer: inout BinaryWriter) throws {
        try writer.encode(value.id, field: FieldNumber.of("id"))
        try writer.encode(value.name, field: FieldNumber.of("name"))
        try writer.encode(value.age, field: FieldNumber.of("age"))
        try writer.encode(value.score, field: FieldNumber.of("score"))
        try writer.encode(value.ratio, field: FieldNumber.of("ratio"))
        try writer.encode(value.tiny, field: FieldNumber.of("tiny"))
        try writer.encode(value.flags, field: FieldNumber.of("flags"))
        try writer.encode(value.big, field: FieldNumber.of("big"))
        try writer.encode(value.active, field: FieldNumber.of("active"))
        try writer.encode(value.avatar, field: FieldNumber.of("avatar"))
        try writer.encode(value.joined, field: FieldNumber.of("joined"))
        try writer.encodeIfPresent(value.homepage, field: FieldNumber.of("homepage"))
        try writer.encode(value.balance, field: FieldNumber.of("balance"))
        try writer.encodeIfPresent(value.nickname, field: FieldNumber.of("nickname"))
        try writer.encode(value.tags, field: FieldNumber.of("tags"))
        try writer.encode(value.lucky, field: FieldNumber.of("lucky"))
        try writer.encode(value.scores, field: FieldNumber.of("scores"))
        try writer.encode(value.address, field: FieldNumber.of("address"))
        try writer.encode(value.previous, field: FieldNumber.of("previous"))
        try writer.encode(value.role, field: FieldNumber.of("role"))
        try writer.encode(value.level, field: FieldNumber.of("level"))
        try writer.encode(value.shape, field: FieldNumber.of("shape"))
        try writer.encode(value.extra, field: FieldNumber.of("extra"))
    }

    /// Reads the fields of a value, the way trove-gen reads them.
    public static func decodeMessage(from reader: inout BinaryReader) throws -> Profile {
        var id: UUID?
        var name: String?
        var age: Int?
        var score: Double?
        var ratio: Float?
        var tiny: Int8?
        var flags: UInt16?
        var big: UInt64?
        var active: Bool?
        var avatar: Data?
        var joined: Date?
        var homepage: URL?
        var balance: Decimal?
        var nickname: String?
        var tags: [String]?
        var lucky: Set<Int32>?
        var scores: [String: Double]?
        var address: PostalAddress?
        var previous: [PostalAddress]?
        var role: Access?
        var level: Tier?
        var shape: Outline?
        var extra: Extra?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("id"): id = try reader.decode(UUID.self, from: header, field: "id")
            case FieldNumber.of("name"): name = try reader.decode(String.self, from: header, field: "name")
            case FieldNumber.of("age"): age = try reader.decode(Int.self, from: header, field: "age")
            case FieldNumber.of("score"): score = try reader.decode(Double.self, from: header, field: "score")
            case FieldNumber.of("ratio"): ratio = try reader.decode(Float.self, from: header, field: "ratio")
            case FieldNumber.of("tiny"): tiny = try reader.decode(Int8.self, from: header, field: "tiny")
            case FieldNumber.of("flags"): flags = try reader.decode(UInt16.self, from: header, field: "flags")
            case FieldNumber.of("big"): big = try reader.decode(UInt64.self, from: header, field: "big")
            case FieldNumber.of("active"): active = try reader.decode(Bool.self, from: header, field: "active")
            case FieldNumber.of("avatar"): avatar = try reader.decode(Data.self, from: header, field: "avatar")
            case FieldNumber.of("joined"): joined = try reader.decode(Date.self, from: header, field: "joined")
            case FieldNumber.of("homepage"): homepage = try reader.decode(URL.self, from: header, field: "homepage")
            case FieldNumber.of("balance"): balance = try reader.decode(Decimal.self, from: header, field: "balance")
            case FieldNumber.of("nickname"): nickname = try reader.decode(String.self, from: header, field: "nickname")
            case FieldNumber.of("tags"): tags = try reader.decode([String].self, from: header, field: "tags")
            case FieldNumber.of("lucky"): lucky = try reader.decode(Set<Int32>.self, from: header, field: "lucky")
            case FieldNumber.of("scores"):
                scores = try reader.decode([String: Double].self, from: header, field: "scores")
            case FieldNumber.of("address"):
                address = try reader.decode(PostalAddress.self, from: header, field: "address")
            case FieldNumber.of("previous"):
                previous = try reader.decode([PostalAddress].self, from: header, field: "previous")
            case FieldNumber.of("role"): role = try reader.decode(Access.self, from: header, field: "role")
            case FieldNumber.of("level"): level = try reader.decode(Tier.self, from: header, field: "level")
            case FieldNumber.of("shape"): shape = try reader.decode(Outline.self, from: header, field: "shape")
            case FieldNumber.of("extra"): extra = try reader.decode(Extra.self, from: header, field: "extra")
            default: try reader.skip(header)
            }
        }
        return Profile(
            id: try reader.required(id, field: "id"), name: try reader.required(name, field: "name"),
            age: try reader.required(age, field: "age"), score: try reader.required(score, field: "score"),
            ratio: try reader.required(ratio, field: "ratio"), tiny: try reader.required(tiny, field: "tiny"),
            flags: try reader.required(flags, field: "flags"), big: try reader.required(big, field: "big"),
            active: try reader.required(active, field: "active"), avatar: try reader.required(avatar, field: "avatar"),
            joined: try reader.required(joined, field: "joined"), homepage: homepage,
            balance: try reader.required(balance, field: "balance"), nickname: nickname, tags: tags ?? [],
            lucky: lucky ?? [], scores: scores ?? [:], address: try reader.required(address, field: "address"),
            previous: previous ?? [], role: role ?? .reader, level: try reader.required(level, field: "level"),
            shape: try reader.required(shape, field: "shape"), extra: try reader.required(extra, field: "extra"),
            metadata: nil)
    }
}

extension ProfileStats: BinaryMessage {
    /// Writes the fields of `value`, the way trove-gen writes them.
    public static func encodeMessage(_ value: ProfileStats, to writer: inout BinaryWriter) throws {
        try writer.encode(value.visits, field: FieldNumber.of("visits"))
        try writer.encode(value.history, field: FieldNumber.of("history"))
        try writer.encodeIfPresent(value.last, field: FieldNumber.of("last"))
    }

    /// Reads the fields of a value, the way trove-gen reads them.
    public static func decodeMessage(from reader: inout BinaryReader) throws -> ProfileStats {
        var visits: Int?
        var history: [Int64]?
        var last: Date?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("visits"): visits = try reader.decode(Int.self, from: header, field: "visits")
            case FieldNumber.of("history"): history = try reader.decode([Int64].self, from: header, field: "history")
            case FieldNumber.of("last"): last = try reader.decode(Date.self, from: header, field: "last")
            default: try reader.skip(header)
            }
        }
        return ProfileStats(visits: visits ?? 0, history: history ?? [], last: last)
    }
}

extension PostalAddress: BinaryMessage {
    /// Writes the fields of `value`, the way trove-gen writes them.
    public static func encodeMessage(_ value: PostalAddress, to writer: inout BinaryWriter) throws {
        try writer.encode(value.street, field: FieldNumber.of("street"))
        try writer.encode(value.city, field: FieldNumber.of("city"))
        try writer.encodeIfPresent(value.zip, field: FieldNumber.of("zip"))
    }

    /// Reads the fields of a value, the way trove-gen reads them.
    public static func decodeMessage(from reader: inout BinaryReader) throws -> PostalAddress {
        var street: String?
        var city: String?
        var zip: UInt32?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("street"): street = try reader.decode(String.self, from: header, field: "street")
            case FieldNumber.of("city"): city = try reader.decode(String.self, from: header, field: "city")
            case FieldNumber.of("zip"): zip = try reader.decode(UInt32.self, from: header, field: "zip")
            default: try reader.skip(header)
            }
        }
        return PostalAddress(
            street: try reader.required(street, field: "street"), city: try reader.required(city, field: "city"),
            zip: zip)
    }
}

extension Outline: BinaryMessage {
    /// Writes the fields of `value`, the way trove-gen writes them.
    public static func encodeMessage(_ value: Outline, to writer: inout BinaryWriter) throws {
        switch value {
        case .empty:
            try writer.encodeMessage(field: FieldNumber.of("empty")) { _ in }
        case .circle(let radius):
            try writer.encodeMessage(field: FieldNumber.of("circle")) { writer in
                try writer.encode(radius, field: FieldNumber.of("radius"))
            }
        case .rectangle(let width, let height, let label):
            try writer.encodeMessage(field: FieldNumber.of("rectangle")) { writer in
                try writer.encode(width, field: FieldNumber.of("width"))
                try writer.encode(height, field: FieldNumber.of("height"))
                try writer.encodeIfPresent(label, field: FieldNumber.of("label"))
            }
        }
    }

    /// Reads the fields of a value, the way trove-gen reads them.
    public static func decodeMessage(from reader: inout BinaryReader) throws -> Outline {
        var shape: Outline?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("empty"):
                shape = try reader.decodeMessage(from: header, field: "empty") { reader in
                    while let header = try reader.nextField() { try reader.skip(header) }
                    return .empty
                }
            case FieldNumber.of("circle"):
                shape = try reader.decodeMessage(from: header, field: "circle") { reader in
                    var radius: Double?
                    while let header = try reader.nextField() {
                        switch header.number {
                        case FieldNumber.of("radius"):
                            radius = try reader.decode(Double.self, from: header, field: "radius")
                        default: try reader.skip(header)
                        }
                    }
                    return .circle(radius: try reader.required(radius, field: "radius"))
                }
            case FieldNumber.of("rectangle"):
                shape = try reader.decodeMessage(from: header, field: "rectangle") { reader in
                    var width: Double?
                    var height: Double?
                    var label: String?
                    while let header = try reader.nextField() {
                        switch header.number {
                        case FieldNumber.of("width"):
                            width = try reader.decode(Double.self, from: header, field: "width")
                        case FieldNumber.of("height"):
                            height = try reader.decode(Double.self, from: header, field: "height")
                        case FieldNumber.of("label"):
                            label = try reader.decode(String.self, from: header, field: "label")
                        default: try reader.skip(header)
                        }
                    }
                    return .rectangle(
                        width: try reader.required(width, field: "width"),
                        height: try reader.required(height, field: "height"),
                        label: label)
                }
            default: try reader.skip(header)
            }
        }
        return try reader.required(shape, field: "case")
    }
}

// MARK: Samples

extension Profile {
    /// A profile with contents drawn from `random`: empty, small and large collections, odd
    /// strings, extreme numbers.
    public static func sample(_ random: inout SeededGenerator) -> Profile {
        func string(_ random: inout SeededGenerator) -> String {
            let pieces = ["", "a", "é", "日本", "🦊", "\u{0}", "tab\tnew\nline", String(repeating: "x", count: 300)]
            return (0..<Int(random.next() % 4)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        }
        let count = Int(random.next() % 6)
        let shapes: [Outline] = [
            .empty, .circle(radius: Double(random.next() % 100) / 3),
            .rectangle(width: 2, height: -0.5, label: random.next() % 2 == 0 ? nil : "box"),
        ]
        return Profile(
            id: UUID(),
            name: string(&random),
            age: Int(truncatingIfNeeded: random.next()) >> Int(random.next() % 64),
            score: [0, -0.0, .pi, -1e300, .infinity, .leastNonzeroMagnitude][Int(random.next() % 6)],
            ratio: Float(random.next() % 1000) / 7,
            tiny: Int8(truncatingIfNeeded: random.next()),
            flags: UInt16(truncatingIfNeeded: random.next()),
            big: random.next(),
            active: random.next() % 2 == 0,
            avatar: Data((0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }),
            joined: Date(timeIntervalSince1970: Double(random.next() % 4_000_000_000)),
            homepage: random.next() % 2 == 0 ? URL(string: "https://example.com/\(random.next() % 1000)?q=1") : nil,
            balance: Decimal(string: "\(random.next() % 100_000).\(random.next() % 100)")!,
            nickname: random.next() % 2 == 0 ? string(&random) : nil,
            tags: (0..<count).map { _ in string(&random) },
            lucky: Set((0..<count).map { _ in Int32(truncatingIfNeeded: random.next()) }),
            scores: Dictionary(
                (0..<count).map { ("k\($0)", Double(random.next() % 100)) }, uniquingKeysWith: { a, _ in a }),
            address: PostalAddress(street: string(&random), city: "Lyon", zip: random.next() % 2 == 0 ? 69_001 : nil),
            previous: (0..<count).map { _ in PostalAddress(street: "s", city: string(&random), zip: nil) },
            role: [Access.reader, .writer, .admin][Int(random.next() % 3)],
            level: [Tier.low, .middle, .high][Int(random.next() % 3)],
            shape: shapes[Int(random.next() % 3)],
            extra: Extra(note: string(&random), weights: (0..<count).map { Double($0) / 2 }),
            metadata: random.next() % 3 == 0
                ? nil
                : ProfileStats(
                    visits: Int(random.next() % 1000),
                    history: (0..<count).map { _ in Int64(truncatingIfNeeded: random.next()) },
                    last: random.next() % 2 == 0 ? Date(timeIntervalSince1970: 1e9) : nil))
    }
}
