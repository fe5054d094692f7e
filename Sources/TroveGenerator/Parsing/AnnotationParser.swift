/// Reads an annotation out of the text of one line comment.
///
/// The parser works on the comment text alone; the caller gives the location of the comment's
/// first character so that diagnostics point at the exact column.
struct AnnotationParser {
    /// What a comment turned out to be.
    enum Outcome: Sendable, Equatable {
        /// An ordinary comment.
        case notAnAnnotation
        /// A well-formed annotation (its name may still be unknown).
        case annotation(Annotation)
        /// Something that is meant as an annotation but is malformed.
        case malformed(Diagnostic)
    }

    /// Parses `text`, the full text of a `//` comment starting at `start`.
    ///
    /// - Parameters:
    ///   - text: The comment, including the leading `//`.
    ///   - start: The location of the first `/`.
    /// - Returns: What the comment is.
    static func parse(_ text: String, at start: SourceLocation) -> Outcome {
        let bytes = Array(text.utf8)
        // A `///` doc comment is never an annotation.
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "/"), bytes[1] == UInt8(ascii: "/"),
            bytes[2] != UInt8(ascii: "/")
        else { return .notAnAnnotation }
        var index = 2
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "@") else { return .notAnAnnotation }
        let atIndex = index
        index += 1
        let nameStart = index
        while index < bytes.count, isIdentifierByte(bytes[index], first: index == nameStart) {
            index += 1
        }
        guard index > nameStart else { return .notAnAnnotation }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        func location(_ offset: Int) -> SourceLocation {
            SourceLocation(path: start.path, line: start.line, column: start.column + offset)
        }
        let isKnown = AnnotationName(rawValue: name) != nil
        var cursor = Cursor(bytes: bytes, index: index)
        cursor.skipSpaces()
        if cursor.isAtEnd {
            return .annotation(Annotation(name: name, arguments: [], location: location(atIndex)))
        }
        guard cursor.peek == UInt8(ascii: "(") else {
            // `// @unchecked because ...` is prose; `// @key the user ID` is a mistake.
            guard isKnown else { return .notAnAnnotation }
            return .malformed(
                .error(
                    "unexpected text after '@\(name)'; put explanations on a comment line of their own",
                    at: location(cursor.index)))
        }
        cursor.index += 1
        var arguments: [Annotation.Argument] = []
        cursor.skipSpaces()
        if cursor.peek == UInt8(ascii: ")") {
            cursor.index += 1
        } else {
            while true {
                cursor.skipSpaces()
                let labelStart = cursor.index
                while let byte = cursor.peek, isIdentifierByte(byte, first: cursor.index == labelStart) {
                    cursor.index += 1
                }
                guard cursor.index > labelStart else {
                    return .malformed(.error("expected an argument label in '@\(name)'", at: location(cursor.index)))
                }
                let label = String(decoding: bytes[labelStart..<cursor.index], as: UTF8.self)
                cursor.skipSpaces()
                guard cursor.peek == UInt8(ascii: ":") else {
                    return .malformed(.error("expected ':' after '\(label)'", at: location(cursor.index)))
                }
                cursor.index += 1
                cursor.skipSpaces()
                let valueStart = cursor.index
                guard let value = cursor.readValue() else {
                    return .malformed(
                        .error(
                            "the value of '\(label)' must be a string literal, a number, true, false, a type "
                                + "reference such as 'User.self', or rules such as '.deleteSource' or '[.deleteSource]'",
                            at: location(valueStart)))
                }
                arguments.append(.init(label: label, value: value, location: location(labelStart)))
                cursor.skipSpaces()
                if cursor.peek == UInt8(ascii: ",") {
                    cursor.index += 1
                    continue
                }
                guard cursor.peek == UInt8(ascii: ")") else {
                    return .malformed(.error("expected ',' or ')' in '@\(name)'", at: location(cursor.index)))
                }
                cursor.index += 1
                break
            }
        }
        cursor.skipSpaces()
        guard cursor.isAtEnd else {
            return .malformed(
                .error(
                    "unexpected text after '@\(name)(...)'; put explanations on a comment line of their own",
                    at: location(cursor.index)))
        }
        return .annotation(Annotation(name: name, arguments: arguments, location: location(atIndex)))
    }

    private static func isIdentifierByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"): !first
        default: false
        }
    }

    /// A position in the bytes of a comment.
    private struct Cursor {
        let bytes: [UInt8]
        var index: Int

        var isAtEnd: Bool { index >= bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpaces() {
            while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
            }
        }

        mutating func readValue() -> Annotation.Value? {
            if peek == UInt8(ascii: ".") {
                return readMember().map { .members([$0]) }
            }
            if peek == UInt8(ascii: "[") {
                return readMemberList()
            }
            if let byte = peek, AnnotationParser.isIdentifierByte(byte, first: true), let type = readTypeReference() {
                return .type(type)
            }
            if peek == UInt8(ascii: "\"") {
                index += 1
                var string: [UInt8] = []
                while let byte = peek {
                    index += 1
                    if byte == UInt8(ascii: "\"") { return .string(String(decoding: string, as: UTF8.self)) }
                    if byte == UInt8(ascii: "\\") {
                        guard let escaped = peek else { return nil }
                        index += 1
                        switch escaped {
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"): string.append(escaped)
                        default: return nil
                        }
                    } else {
                        string.append(byte)
                    }
                }
                return nil
            }
            if let byte = peek, byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
                return readNumber()
            }
            for (word, value) in [("true", true), ("false", false)] {
                let wordBytes = Array(word.utf8)
                if index + wordBytes.count <= bytes.count, Array(bytes[index..<index + wordBytes.count]) == wordBytes {
                    let after = index + wordBytes.count
                    if after == bytes.count || !AnnotationParser.isIdentifierByte(bytes[after], first: false) {
                        index = after
                        return .bool(value)
                    }
                }
            }
            return nil
        }

        /// Reads `.name`, returning `name`.
        mutating func readMember() -> String? {
            guard peek == UInt8(ascii: ".") else { return nil }
            index += 1
            return readIdentifier()
        }

        /// Reads `[.a, .b]` (or `[]`).
        mutating func readMemberList() -> Annotation.Value? {
            guard peek == UInt8(ascii: "[") else { return nil }
            index += 1
            var names: [String] = []
            skipSpaces()
            if peek == UInt8(ascii: "]") {
                index += 1
                return .members(names)
            }
            while true {
                skipSpaces()
                guard let name = readMember() else { return nil }
                names.append(name)
                skipSpaces()
                if peek == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard peek == UInt8(ascii: "]") else { return nil }
                index += 1
                return .members(names)
            }
        }

        /// Reads `Name.self` or `Outer.Inner.self`, returning the dotted name; leaves the cursor
        /// where it was and returns `nil` for anything else (`true`, `false`).
        mutating func readTypeReference() -> String? {
            let start = index
            var components: [String] = []
            while let identifier = readIdentifier() {
                components.append(identifier)
                guard peek == UInt8(ascii: ".") else { break }
                index += 1
            }
            guard components.count >= 2, components.last == "self" else {
                index = start
                return nil
            }
            return components.dropLast().joined(separator: ".")
        }

        /// Reads an identifier, or returns `nil` without moving.
        mutating func readIdentifier() -> String? {
            let start = index
            while let byte = peek, AnnotationParser.isIdentifierByte(byte, first: index == start) {
                index += 1
            }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        /// Reads a number literal: an optional `-`, digits, and an optional `.` with digits.
        mutating func readNumber() -> Annotation.Value? {
            let start = index
            if peek == UInt8(ascii: "-") { index += 1 }
            func digits() -> Int {
                let first = index
                while let byte = peek, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { index += 1 }
                return index - first
            }
            guard digits() > 0 else { return nil }
            if peek == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
            }
            if let byte = peek, AnnotationParser.isIdentifierByte(byte, first: false) || byte == UInt8(ascii: ".") {
                return nil
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }
    }
}
