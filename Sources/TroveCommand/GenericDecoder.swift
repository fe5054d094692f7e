import Foundation
// The generic decoder reads Trove's tagged format field by field, as generated decoders do.
@_spi(TroveGenerated) import Trove

/// Why a stored value could not be read with its schema: the path of the field that failed and
/// what was wrong.
struct DecodingProblem: Error, Equatable {
    /// The field, as a path from the top of the item (`address.city`, `tags[2]`).
    var field: String
    /// What was wrong.
    var reason: String
}

/// Reads stored items and metadata without the app's code, with the schemas the file recorded:
/// fields by name where a schema knows them, by number with their wire type where none does.
///
/// A model is read with the newest version of its schema (the last one the file recorded), and
/// a field that only an older version knows keeps the name that version gave it. Items whose
/// schema says they are JSON (``CodableCoder``) are read as JSON, and so are items without a
/// schema whose bytes start with `{` or `[`: a binary message never does (see
/// ``isJSON(_:format:)``).
struct GenericDecoder {
    /// The schemas of messages, by type name (qualified and last component), versions merged.
    private var types: [String: ModelSchema] = [:]
    /// The item schemas of each collection, oldest version first.
    private var collections: [String: [ModelSchema]] = [:]

    /// Reads with `schemas`, in the order the file recorded them (oldest first, see
    /// `Database.recordedSchemas()`).
    init(schemas: [ModelSchema]) {
        for schema in schemas {
            if let collection = schema.collection {
                collections[collection, default: []].append(schema)
            }
            for type in [schema] + schema.types {
                // A later version is newer: its names win, the older ones fill in.
                types[type.typeName] = types[type.typeName].map { Self.merged(type, $0) } ?? type
            }
        }
        for (name, type) in types {
            if let last = name.split(separator: ".").last, types[String(last)] == nil {
                types[String(last)] = type
            }
        }
    }

    /// The recorded schema of `collection`'s items: its newest version, with the fields of older
    /// versions that the newest lacks (a removed field of an item written before keeps its name).
    func schema(ofCollection collection: String) -> ModelSchema? {
        guard let versions = collections[collection], let newest = versions.last else { return nil }
        return versions.dropLast().reversed().reduce(newest, Self.merged)
    }

    /// The recorded schema of the coded type `name` (every recorded version merged, the newest
    /// first), or `nil`.
    func schema(ofType name: String) -> ModelSchema? {
        types[name]
    }

    /// `base` with the fields and cases of `other` that it lacks.
    private static func merged(_ base: ModelSchema, _ other: ModelSchema) -> ModelSchema {
        var result = base
        let numbers = Set(base.fields.map(\.number))
        result.fields += other.fields.filter { !numbers.contains($0.number) }
        let caseNumbers = Set(base.cases.map(\.number))
        result.cases += other.cases.filter { !caseNumbers.contains($0.number) }
        result.metadataType = base.metadataType ?? other.metadataType
        return result
    }

    /// Decodes the data of an item of `collection`.
    func decodeItem(_ data: Data, collection: String) throws(DecodingProblem) -> JSONValue {
        let schema = schema(ofCollection: collection)
        if Self.isJSON(data, format: schema?.format) {
            return try Self.decodeJSON(data, path: "(item)")
        }
        return try decodeTopLevel(data, schema: schema, path: "")
    }

    /// Decodes the metadata of an item of `collection`.
    func decodeMetadata(_ data: Data, collection: String) throws(DecodingProblem) -> JSONValue {
        let itemSchema = self.schema(ofCollection: collection)
        if Self.isJSON(data, format: itemSchema?.metadataFormat) {
            return try Self.decodeJSON(data, path: "metadata")
        }
        let schema = itemSchema.flatMap { $0.metadataType }.flatMap { types[$0] }
        return try decodeTopLevel(data, schema: schema, path: "metadata")
    }

    /// Whether a stored item or metadata is JSON: its schema says so (`format` is `json`), or it
    /// says nothing and the bytes start with `{` or `[`.
    ///
    /// The bytes decide only where no schema does, in files whose schemas do not say (recorded by
    /// earlier versions of Trove, or for a hand-written model that does not describe itself). The
    /// rule cannot mistake a binary message: each of its fields starts with a tag whose low three
    /// bits are its wire type (0, 1, 2 or 5), and both `{` (0x7B) and `[` (0x5B) carry 3.
    static func isJSON(_ data: Data, format: String?) -> Bool {
        if format == "json" { return true }
        guard format == nil, let first = data.first else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The JSON in `data`, or a problem at `path` when it is not JSON.
    private static func decodeJSON(_ data: Data, path: String) throws(DecodingProblem) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw DecodingProblem(field: path, reason: "the bytes are not valid JSON")
        }
    }

    private func decodeTopLevel(_ data: Data, schema: ModelSchema?, path: String) throws(DecodingProblem) -> JSONValue {
        let result: Result<JSONValue, DecodingProblem> = data.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            do throws(DecodingProblem) {
                return .success(try decodeFields(&reader, schema: schema, path: path))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Messages

    private func decodeFields(
        _ reader: inout BinaryReader, schema: ModelSchema?, path: String
    ) throws(DecodingProblem) -> JSONValue {
        if let schema, !schema.cases.isEmpty {
            return try decodeCases(&reader, schema: schema, path: path)
        }
        var members: [(String, JSONValue)] = []
        while true {
            let header: FieldHeader
            do {
                guard let next = try reader.nextField() else { break }
                header = next
            } catch {
                throw DecodingProblem(field: path.isEmpty ? "(message)" : path, reason: Self.reason(error))
            }
            if let field = schema?.fields.first(where: { $0.number == header.number }) {
                let fieldPath = path.isEmpty ? field.name : path + "." + field.name
                members.append((field.name, try decodeField(&reader, header, field: field, path: fieldPath)))
            } else {
                let name = "#" + FieldNumber.literal(header.number)
                let fieldPath = (path.isEmpty ? "" : path + ".") + name
                members.append((name, try decodeUnknown(&reader, header, path: fieldPath)))
            }
        }
        return .object(members)
    }

    private func decodeCases(
        _ reader: inout BinaryReader, schema: ModelSchema, path: String
    ) throws(DecodingProblem) -> JSONValue {
        var members: [(String, JSONValue)] = []
        while true {
            let header: FieldHeader
            do {
                guard let next = try reader.nextField() else { break }
                header = next
            } catch {
                throw DecodingProblem(field: path.isEmpty ? "(message)" : path, reason: Self.reason(error))
            }
            guard let enumCase = schema.cases.first(where: { $0.number == header.number }) else {
                let name = "#" + FieldNumber.literal(header.number)
                members.append((name, try decodeUnknown(&reader, header, path: path + "." + name)))
                continue
            }
            let casePath = path.isEmpty ? enumCase.name : path + "." + enumCase.name
            try expect(header, .lengthDelimited, path: casePath)
            let values = try withNested(&reader, path: casePath) { (nested: inout BinaryReader) throws(DecodingProblem) in
                try decodeFields(
                    &nested, schema: ModelSchema(typeName: enumCase.name, fields: enumCase.fields), path: casePath)
            }
            members.append(("case", .string(enumCase.name)))
            if case .object(let fields) = values, !fields.isEmpty {
                members.append(("values", values))
            }
        }
        return .object(members)
    }

    private func decodeField(
        _ reader: inout BinaryReader, _ header: FieldHeader, field: ModelSchema.Field, path: String
    ) throws(DecodingProblem) -> JSONValue {
        if field.format == "json" {
            // A `Codable` type without binary coding: its JSON, length-delimited.
            try expect(header, .lengthDelimited, path: path)
            let bytes = Data(try read(path) { try reader.readLengthDelimited() })
            return try Self.decodeJSON(bytes, path: path)
        }
        // What the written type resolves to, when it is a typealias (`Project.ID` is `String`).
        let shape = TypeShape(field.resolvedType ?? field.type)
        guard let wireType = wireType(of: shape) else {
            // A type the runtime stores as JSON (a `Codable` fallback), or one without a schema.
            return try decodeUnknown(&reader, header, path: path)
        }
        try expect(header, wireType, path: path)
        return try decodeValue(&reader, shape: shape, path: path)
    }

    // MARK: Values

    /// The wire type of a value form of `shape`, or `nil` when the schema does not say.
    private func wireType(of shape: TypeShape) -> WireType? {
        switch shape {
        case .optional, .array, .set, .dictionary: return .lengthDelimited
        case .named(let name):
            switch name {
            case "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
                return .varint
            case "Float": return .fixed32
            case "Double", "Date": return .fixed64
            case "String", "Data", "UUID", "URL", "Decimal": return .lengthDelimited
            default:
                guard let schema = types[name] else { return nil }
                if let raw = schema.rawValueType { return wireType(of: TypeShape(raw)) }
                return .lengthDelimited
            }
        }
    }

    private func decodeValue(
        _ reader: inout BinaryReader, shape: TypeShape, path: String
    ) throws(DecodingProblem) -> JSONValue {
        do {
            switch shape {
            case .optional(let wrapped):
                return try withNested(&reader, path: path) { (nested: inout BinaryReader) throws(DecodingProblem) in
                    let marker = try read(path) { try nested.readVarint() }
                    switch marker {
                    case 0: return .null
                    case 1: return try decodeValue(&nested, shape: wrapped, path: path)
                    default: throw DecodingProblem(field: path, reason: "invalid optional marker \(marker)")
                    }
                }
            case .array(let element), .set(let element):
                return try withNested(&reader, path: path) { (nested: inout BinaryReader) throws(DecodingProblem) in
                    let count = try read(path) { try nested.readCount() }
                    var values: [JSONValue] = []
                    for index in 0..<count {
                        values.append(try decodeValue(&nested, shape: element, path: path + "[\(index)]"))
                    }
                    return .array(values)
                }
            case .dictionary(let key, let value):
                return try withNested(&reader, path: path) { (nested: inout BinaryReader) throws(DecodingProblem) in
                    let count = try read(path) { try nested.readCount() }
                    var members: [(String, JSONValue)] = []
                    for index in 0..<count {
                        let keyValue = try decodeValue(&nested, shape: key, path: path + "[\(index)]")
                        let name: String
                        switch keyValue {
                        case .string(let text): name = text
                        default: name = keyValue.rendered(pretty: false)
                        }
                        members.append((name, try decodeValue(&nested, shape: value, path: path + "[\(name)]")))
                    }
                    return .object(members)
                }
            case .named(let name):
                return try decodeNamed(&reader, name: name, path: path)
            }
        }
    }

    private func decodeNamed(_ reader: inout BinaryReader, name: String, path: String) throws(DecodingProblem) -> JSONValue {
        switch name {
        case "Bool":
            let value = try read(path) { try reader.readVarint() }
            guard value <= 1 else { throw DecodingProblem(field: path, reason: "invalid Bool \(value)") }
            return .bool(value == 1)
        case "Int", "Int8", "Int16", "Int32", "Int64":
            return .integer(try read(path) { try reader.readZigZag() })
        case "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
            return .unsigned(try read(path) { try reader.readVarint() })
        case "Float":
            return .number(Double(Float(bitPattern: try read(path) { try reader.readFixed32() })))
        case "Double":
            return .number(Double(bitPattern: try read(path) { try reader.readFixed64() }))
        case "Date":
            let seconds = Double(bitPattern: try read(path) { try reader.readFixed64() })
            return .string(Date(timeIntervalSinceReferenceDate: seconds).formatted(Self.dateStyle))
        case "String", "URL", "Decimal":
            return .string(try read(path) { try reader.readString() })
        case "Data":
            return .string(Data(try read(path) { try reader.readLengthDelimited() }).base64EncodedString())
        case "UUID":
            let bytes = Array(try read(path) { try reader.readLengthDelimited() })
            guard bytes.count == 16 else { throw DecodingProblem(field: path, reason: "a UUID of \(bytes.count) bytes") }
            let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            return .string(uuid.uuidString)
        default:
            guard let schema = types[name] else {
                return .string(Data(try read(path) { try reader.readLengthDelimited() }).base64EncodedString())
            }
            if let raw = schema.rawValueType {
                return try decodeValue(&reader, shape: TypeShape(raw), path: path)
            }
            return try withNested(&reader, path: path) { (nested: inout BinaryReader) throws(DecodingProblem) in
                try decodeFields(&nested, schema: schema, path: path)
            }
        }
    }

    /// A field no schema describes: its value by wire type (length-delimited bytes as base64, or
    /// as JSON when they are JSON).
    private func decodeUnknown(
        _ reader: inout BinaryReader, _ header: FieldHeader, path: String
    ) throws(DecodingProblem) -> JSONValue {
        let value: JSONValue
        let wire: String
        switch header.wireType {
        case .varint:
            wire = "varint"
            value = .unsigned(try read(path) { try reader.readVarint() })
        case .fixed32:
            wire = "fixed32"
            value = .unsigned(UInt64(try read(path) { try reader.readFixed32() }))
        case .fixed64:
            wire = "fixed64"
            value = .unsigned(try read(path) { try reader.readFixed64() })
        case .lengthDelimited:
            let bytes = Data(try read(path) { try reader.readLengthDelimited() })
            if let json = try? JSONDecoder().decode(JSONValue.self, from: bytes), bytes.first == UInt8(ascii: "{") {
                wire = "json"
                value = json
            } else {
                wire = "lengthDelimited"
                value = .string(bytes.base64EncodedString())
            }
        }
        return .object([("wireType", .string(wire)), ("value", value)])
    }

    // MARK: Helpers

    private func expect(_ header: FieldHeader, _ wireType: WireType, path: String) throws(DecodingProblem) {
        guard header.wireType == wireType else {
            throw DecodingProblem(field: path, reason: "wire type \(header.wireType) where \(wireType) was expected")
        }
    }

    private func withNested(
        _ reader: inout BinaryReader, path: String, _ body: (inout BinaryReader) throws(DecodingProblem) -> JSONValue
    ) throws(DecodingProblem) -> JSONValue {
        let bytes = try read(path) { try reader.readLengthDelimited() }
        var nested = BinaryReader(bytes)
        let value = try body(&nested)
        guard nested.isAtEnd else {
            throw DecodingProblem(field: path, reason: "\(nested.remainingCount) bytes left after the value")
        }
        return value
    }

    private func read<T>(_ path: String, _ body: () throws -> T) throws(DecodingProblem) -> T {
        do {
            return try body()
        } catch {
            throw DecodingProblem(field: path, reason: Self.reason(error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? TroveError { return error.message }
        return "\(error)"
    }

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

/// The shape of a Swift type as a schema writes it: `[T]`, `[K: V]`, `Set<T>`, `T?`, or a name.
indirect enum TypeShape: Equatable {
    case optional(TypeShape)
    case array(TypeShape)
    case set(TypeShape)
    case dictionary(TypeShape, TypeShape)
    case named(String)

    init(_ text: String) {
        let type = text.trimmingCharacters(in: .whitespaces)
        if type.hasSuffix("?") {
            self = .optional(TypeShape(String(type.dropLast())))
        } else if type.hasPrefix("[") && type.hasSuffix("]") {
            let inner = String(type.dropFirst().dropLast())
            if let colon = TypeShape.topLevelSplit(inner, ":") {
                self = .dictionary(TypeShape(colon.0), TypeShape(colon.1))
            } else {
                self = .array(TypeShape(inner))
            }
        } else if let generic = TypeShape.generic(type) {
            switch generic.name {
            case "Set", "Swift.Set": self = .set(TypeShape(generic.arguments))
            case "Array", "Swift.Array": self = .array(TypeShape(generic.arguments))
            case "Optional", "Swift.Optional": self = .optional(TypeShape(generic.arguments))
            case "Dictionary", "Swift.Dictionary":
                let parts = TypeShape.topLevelSplit(generic.arguments, ",") ?? (generic.arguments, "")
                self = .dictionary(TypeShape(parts.0), TypeShape(parts.1))
            default: self = .named(type)
            }
        } else {
            let name = type.hasPrefix("Swift.") || type.hasPrefix("Foundation.")
                ? String(type.split(separator: ".", maxSplits: 1)[1]) : type
            self = .named(name)
        }
    }

    private static func generic(_ type: String) -> (name: String, arguments: String)? {
        guard type.hasSuffix(">"), let open = type.firstIndex(of: "<") else { return nil }
        return (String(type[..<open]), String(type[type.index(after: open)..<type.index(before: type.endIndex)]))
    }

    /// Splits `text` at the first `separator` outside brackets.
    private static func topLevelSplit(_ text: String, _ separator: Character) -> (String, String)? {
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "[", "<", "(": depth += 1
            case "]", ">", ")": depth -= 1
            case separator where depth == 0:
                return (String(text[..<index]), String(text[text.index(after: index)...]))
            default: break
            }
        }
        return nil
    }
}
