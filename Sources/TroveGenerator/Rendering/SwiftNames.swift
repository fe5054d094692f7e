/// Spelling names in generated Swift.
enum SwiftNames {
    /// Words that must be backticked to be used as identifiers.
    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws",
        "true", "try", "package", "consume", "borrowing", "consuming", "discard", "_",
    ]

    /// Names the generated coders use for their own variables.
    private static let reservedLocals: Set<String> = ["reader", "writer", "header", "value", "result", "newValue"]

    /// `name`, backticked if it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The name of the local variable that holds a field while decoding: the field name, unless
    /// it would shadow a variable of the generated code.
    static func local(_ name: String) -> String {
        reservedLocals.contains(name) ? "\(name)Field" : identifier(name)
    }

    /// `text` as a Swift string literal.
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
