import Foundation
@_spi(TroveGenerated) import Trove

// Hand-written BinaryMessage conformances, shaped like the code trove-gen emits.

enum Color: Int, BinaryCodable, Equatable {
    case red = 1
    case green = 2
}

enum Mood: String, BinaryCodable, Equatable {
    case happy
    case grumpy
}

/// A message whose fields are all required.
struct Address: BinaryMessage, Equatable {
    var street: String
    var city: String
    var zip: Int32

    static func encodeMessage(_ value: Address, to writer: inout BinaryWriter) throws {
        try writer.encode(value.street, field: FieldNumber.of("street"))
        try writer.encode(value.city, field: FieldNumber.of("city"))
        try writer.encode(value.zip, field: FieldNumber.of("zip"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> Address {
        var street: String?
        var city: String?
        var zip: Int32?
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("street"): street = try reader.decode(String.self, from: header, field: "street")
            case FieldNumber.of("city"): city = try reader.decode(String.self, from: header, field: "city")
            case FieldNumber.of("zip"): zip = try reader.decode(Int32.self, from: header, field: "zip")
            default: try reader.skip(header)
            }
        }
        return Address(
            street: try reader.required(street, field: "street"),
            city: try reader.required(city, field: "city"),
            zip: try reader.required(zip, field: "zip"))
    }
}

/// An enumeration with associated values, encoded as generated code does: the case is a field
/// whose value is a nested message of the associated values.
enum Shape: BinaryMessage, Equatable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case empty

    static func encodeMessage(_ value: Shape, to writer: inout BinaryWriter) throws {
        switch value {
        case .circle(let radius):
            try writer.encodeMessage(field: FieldNumber.of("circle")) { writer in
                try writer.encode(radius, field: FieldNumber.of("radius"))
            }
        case .rectangle(let width, let height):
            try writer.encodeMessage(field: FieldNumber.of("rectangle")) { writer in
                try writer.encode(width, field: FieldNumber.of("width"))
                try writer.encode(height, field: FieldNumber.of("height"))
            }
        case .empty:
            try writer.encodeMessage(field: FieldNumber.of("empty")) { _ in }
        }
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> Shape {
        var shape: Shape?
        while let header = try reader.nextField() {
            switch header.number {
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
                    while let header = try reader.nextField() {
                        switch header.number {
                        case FieldNumber.of("width"): width = try reader.decode(Double.self, from: header, field: "width")
                        case FieldNumber.of("height"):
                            height = try reader.decode(Double.self, from: header, field: "height")
                        default: try reader.skip(header)
                        }
                    }
                    return .rectangle(
                        width: try reader.required(width, field: "width"),
                        height: try reader.required(height, field: "height"))
                }
            case FieldNumber.of("empty"):
                shape = try reader.decodeMessage(from: header, field: "empty") { reader in
                    while let header = try reader.nextField() { try reader.skip(header) }
                    return .empty
                }
            default: try reader.skip(header)
            }
        }
        return try reader.required(shape, field: "case")
    }
}

/// A recursive message, to build nesting as deep as wanted.
struct Node: BinaryMessage, Equatable {
    var label: String
    var children: [Node]

    static func chain(depth: Int) -> Node {
        var node = Node(label: "leaf", children: [])
        for level in 0..<depth {
            node = Node(label: "level \(level)", children: [node])
        }
        return node
    }

    static func encodeMessage(_ value: Node, to writer: inout BinaryWriter) throws {
        try writer.encode(value.label, field: FieldNumber.of("label"))
        try writer.encode(value.children, field: FieldNumber.of("children"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> Node {
        var label: String?
        var children: [Node] = []
        while let header = try reader.nextField() {
            switch header.number {
            case FieldNumber.of("label"): label = try reader.decode(String.self, from: header, field: "label")
            case FieldNumber.of("children"):
                children = try reader.decode([Node].self, from: header, field: "children")
            default: try reader.skip(header)
            }
        }
        return Node(label: try reader.required(label, field: "label"), children: children)
    }
}

/// A type with no binary coder: stored through the `Codable` fallback.
struct LegacySettings: Codable, Equatable {
    var theme: String
    var fontSize: Double
    var flags: [String: Bool]
}

/// A message with a field of every kind.
struct Everything: BinaryMessage, Equatable {
    var bool = true
    var int = Int.min
    var int8 = Int8.min
    var int16 = Int16.max
    var int32 = Int32(-123_456)
    var int64 = Int64.max
    var uint = UInt.max
    var uint8 = UInt8.max
    var uint16 = UInt16(40_000)
    var uint32 = UInt32.max
    var uint64 = UInt64.max
    var float = Float(-1.5)
    var double = Double.pi
    var string = "grüße, 世界 🌍"
    var data = Data([0, 1, 2, 255])
    var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
    var date = Date(timeIntervalSinceReferenceDate: 123_456_789.123_456)
    var url = URL(string: "https://example.com/a%20b?q=1#frag") ?? URL(fileURLWithPath: "/")
    var decimal = Decimal(string: "-12345678901234567890.0001") ?? 0
    var optionals: [Int?] = [1, nil, -3]
    var matrix: [[Double]] = [[1, 2], [], [3]]
    var tags: Set<String> = ["a", "b"]
    var scores: [String: Int] = ["ada": 36, "alan": 41]
    var color = Color.green
    var mood = Mood.grumpy
    var address = Address(street: "1 Infinite Loop", city: "Cupertino", zip: 95_014)
    var shapes: [Shape] = [.circle(radius: 2), .rectangle(width: 3, height: 4), .empty]
    var nickname: String? = "Ace"
    var missing: String? = nil
    var settings = LegacySettings(theme: "dark", fontSize: 13, flags: ["beta": true])

    static let requiredFields = [
        "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float",
        "double", "string", "data", "uuid", "date", "url", "decimal", "optionals", "matrix", "tags", "scores",
        "color", "mood", "address", "shapes", "settings",
    ]

    static func encodeMessage(_ value: Everything, to writer: inout BinaryWriter) throws {
        try writer.encode(value.bool, field: FieldNumber.of("bool"))
        try writer.encode(value.int, field: FieldNumber.of("int"))
        try writer.encode(value.int8, field: FieldNumber.of("int8"))
        try writer.encode(value.int16, field: FieldNumber.of("int16"))
        try writer.encode(value.int32, field: FieldNumber.of("int32"))
        try writer.encode(value.int64, field: FieldNumber.of("int64"))
        try writer.encode(value.uint, field: FieldNumber.of("uint"))
        try writer.encode(value.uint8, field: FieldNumber.of("uint8"))
        try writer.encode(value.uint16, field: FieldNumber.of("uint16"))
        try writer.encode(value.uint32, field: FieldNumber.of("uint32"))
        try writer.encode(value.uint64, field: FieldNumber.of("uint64"))
        try writer.encode(value.float, field: FieldNumber.of("float"))
        try writer.encode(value.double, field: FieldNumber.of("double"))
        try writer.encode(value.string, field: FieldNumber.of("string"))
        try writer.encode(value.data, field: FieldNumber.of("data"))
        try writer.encode(value.uuid, field: FieldNumber.of("uuid"))
        try writer.encode(value.date, field: FieldNumber.of("date"))
        try writer.encode(value.url, field: FieldNumber.of("url"))
        try writer.encode(value.decimal, field: FieldNumber.of("decimal"))
        try writer.encode(value.optionals, field: FieldNumber.of("optionals"))
        try writer.encode(value.matrix, field: FieldNumber.of("matrix"))
        try writer.encode(value.tags, field: FieldNumber.of("tags"))
        try writer.encode(value.scores, field: FieldNumber.of("scores"))
        try writer.encode(value.color, field: FieldNumber.of("color"))
        try writer.encode(value.mood, field: FieldNumber.of("mood"))
        try writer.encode(value.address, field: FieldNumber.of("address"))
        try writer.encode(value.shapes, field: FieldNumber.of("shapes"))
        try writer.encodeIfPresent(value.nickname, field: FieldNumber.of("nickname"))
        try writer.encodeIfPresent(value.missing, field: FieldNumber.of("missing"))
        try writer.encode(value.settings, field: FieldNumber.of("settings"))
    }

    static func decodeMessage(from reader: inout BinaryReader) throws -> Everything {
        var value = Everything()
        value.nickname = nil
        var seen = Set<UInt32>()
        while let header = try reader.nextField() {
            seen.insert(header.number)
            switch header.number {
            case FieldNumber.of("bool"): value.bool = try reader.decode(Bool.self, from: header, field: "bool")
            case FieldNumber.of("int"): value.int = try reader.decode(Int.self, from: header, field: "int")
            case FieldNumber.of("int8"): value.int8 = try reader.decode(Int8.self, from: header, field: "int8")
            case FieldNumber.of("int16"): value.int16 = try reader.decode(Int16.self, from: header, field: "int16")
            case FieldNumber.of("int32"): value.int32 = try reader.decode(Int32.self, from: header, field: "int32")
            case FieldNumber.of("int64"): value.int64 = try reader.decode(Int64.self, from: header, field: "int64")
            case FieldNumber.of("uint"): value.uint = try reader.decode(UInt.self, from: header, field: "uint")
            case FieldNumber.of("uint8"): value.uint8 = try reader.decode(UInt8.self, from: header, field: "uint8")
            case FieldNumber.of("uint16"): value.uint16 = try reader.decode(UInt16.self, from: header, field: "uint16")
            case FieldNumber.of("uint32"): value.uint32 = try reader.decode(UInt32.self, from: header, field: "uint32")
            case FieldNumber.of("uint64"): value.uint64 = try reader.decode(UInt64.self, from: header, field: "uint64")
            case FieldNumber.of("float"): value.float = try reader.decode(Float.self, from: header, field: "float")
            case FieldNumber.of("double"): value.double = try reader.decode(Double.self, from: header, field: "double")
            case FieldNumber.of("string"): value.string = try reader.decode(String.self, from: header, field: "string")
            case FieldNumber.of("data"): value.data = try reader.decode(Data.self, from: header, field: "data")
            case FieldNumber.of("uuid"): value.uuid = try reader.decode(UUID.self, from: header, field: "uuid")
            case FieldNumber.of("date"): value.date = try reader.decode(Date.self, from: header, field: "date")
            case FieldNumber.of("url"): value.url = try reader.decode(URL.self, from: header, field: "url")
            case FieldNumber.of("decimal"):
                value.decimal = try reader.decode(Decimal.self, from: header, field: "decimal")
            case FieldNumber.of("optionals"):
                value.optionals = try reader.decode([Int?].self, from: header, field: "optionals")
            case FieldNumber.of("matrix"):
                value.matrix = try reader.decode([[Double]].self, from: header, field: "matrix")
            case FieldNumber.of("tags"): value.tags = try reader.decode(Set<String>.self, from: header, field: "tags")
            case FieldNumber.of("scores"):
                value.scores = try reader.decode([String: Int].self, from: header, field: "scores")
            case FieldNumber.of("color"): value.color = try reader.decode(Color.self, from: header, field: "color")
            case FieldNumber.of("mood"): value.mood = try reader.decode(Mood.self, from: header, field: "mood")
            case FieldNumber.of("address"):
                value.address = try reader.decode(Address.self, from: header, field: "address")
            case FieldNumber.of("shapes"): value.shapes = try reader.decode([Shape].self, from: header, field: "shapes")
            case FieldNumber.of("nickname"):
                value.nickname = try reader.decode(String.self, from: header, field: "nickname")
            case FieldNumber.of("missing"):
                value.missing = try reader.decode(String.self, from: header, field: "missing")
            case FieldNumber.of("settings"):
                value.settings = try reader.decode(LegacySettings.self, from: header, field: "settings")
            default: try reader.skip(header)
            }
        }
        // Every non-optional field is required here, so that the fuzz tests can count on a
        // truncated message throwing.
        for name in requiredFields where !seen.contains(FieldNumber.of(name)) {
            throw TroveError.corruptData("required field is missing", field: name)
        }
        return value
    }
}
