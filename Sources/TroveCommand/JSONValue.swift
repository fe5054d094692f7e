import Foundation

/// A JSON value whose objects keep the order of their members, so that output is deterministic.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.rendered(pretty: false) == rhs.rendered(pretty: false)
    }

    /// The JSON text: on one line, or indented by two spaces.
    func rendered(pretty: Bool) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .unsigned(let value): output += String(value)
        case .number(let value):
            if value.isFinite {
                output += value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) + ".0" : "\(value)"
            } else {
                output += JSONValue.quoted("\(value)")
            }
        case .string(let value): output += JSONValue.quoted(value)
        case .array(let values):
            guard !values.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (offset, value) in values.enumerated() {
                if offset > 0 { output += pretty ? "," : ", " }
                if pretty { output += "\n" + String(repeating: " ", count: indent + 2) }
                value.write(to: &output, pretty: pretty, indent: indent + 2)
            }
            if pretty { output += "\n" + String(repeating: " ", count: indent) }
            output += "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { output += pretty ? "," : ", " }
                if pretty { output += "\n" + String(repeating: " ", count: indent + 2) }
                output += JSONValue.quoted(member.0) + ": "
                member.1.write(to: &output, pretty: pretty, indent: indent + 2)
            }
            if pretty { output += "\n" + String(repeating: " ", count: indent) }
            output += "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let scalar where scalar.value < 0x20:
                output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

}

extension JSONValue: Decodable {
    /// Reads any JSON (for fields stored as JSON); object members come out sorted by name.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            let object = try container.decode([String: JSONValue].self)
            self = .object(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }
}
