// The templates' engine: the part of Mustache that the templates of `Templates/` use, compiled
// once per run into a tree and rendered from typed values.
//
// It replaced swift-mustache, whose lookups cast every value it meets to several protocols and
// reflect structs: on a cold run over 1,000 annotated files that was half of the tool's time.
// What it accepts is exactly what the templates use, and anything else is refused when the
// template is compiled rather than rendered differently:
//
// - `{{name}}` and `{{a.b}}` insert text, found in the innermost enclosing value that has the
//   first name (Mustache's context stack); `{{.}}` inserts the current value. Nothing is escaped
//   (the templates declare `{{% CONTENT_TYPE: TEXT}}`). A name found nowhere inserts nothing.
// - `{{#name}}…{{/name}}` renders its body once for `true`, once per element of a list (with the
//   element innermost), once for text or an object (innermost), and not at all for `false`, an
//   empty list or a missing name. `{{^name}}…{{/name}}` renders its body exactly in those last
//   three cases.
// - `{{! comment}}` and the content-type pragma render nothing. A line holding nothing but one
//   such tag or a section tag, and spaces, renders nothing at all, its line break included
//   (Mustache's standalone lines). A section that opens alone on its line closes alone on its
//   line, and one that opens within a line closes within a line.
//
// Templates only substitute and loop: every decision (what to call, which literal, which default)
// is made in Swift, in the renderer's contexts.
//
// A differential test renders random templates of this grammar with swift-mustache and with this
// engine, and compares the text.

/// A value that a template reads: the text it inserts, a flag or list that a section tests and
/// loops over, or an object whose names the template looks up.
///
/// A context is written as a dictionary literal; an entry whose value is `nil` is left out, so
/// that the template finds that name in an enclosing value instead (as Mustache does for `nil`).
enum TemplateValue: Sendable, Equatable {
    /// Text, inserted as it is.
    case text(String)
    /// A flag: a section renders for `true` only, an inverted section for `false` only.
    case flag(Bool)
    /// A list: a section renders once per element.
    case list([TemplateValue])
    /// Named values.
    case object([String: TemplateValue])
}

extension TemplateValue: ExpressibleByDictionaryLiteral {
    /// An object of the entries whose value is not `nil`.
    init(dictionaryLiteral elements: (String, TemplateValue?)...) {
        var fields: [String: TemplateValue] = [:]
        fields.reserveCapacity(elements.count)
        for (name, value) in elements {
            guard let value else { continue }
            precondition(fields.updateValue(value, forKey: name) == nil, "a template context names \(name) twice")
        }
        self = .object(fields)
    }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    /// Text.
    init(stringLiteral value: String) { self = .text(value) }

    /// A flag.
    init(booleanLiteral value: Bool) { self = .flag(value) }
}

extension TemplateValue {
    /// Text of a number, in decimal.
    static func number(_ value: some BinaryInteger) -> TemplateValue { .text(String(value)) }

    /// A list of texts.
    static func texts(_ values: [String]) -> TemplateValue { .list(values.map(TemplateValue.text)) }
}

/// A template that failed to compile: what is wrong and on which line.
struct TemplateError: Error, CustomStringConvertible, Equatable {
    /// The template's name.
    var template: String
    /// The line, counted from 1.
    var line: Int
    /// What is wrong.
    var message: String

    var description: String { "template \(template), line \(line): \(message)" }
}

/// A compiled template.
struct Template: Sendable {
    /// One part of a template.
    indirect enum Node: Sendable, Equatable {
        /// Text copied to the output.
        case text(String)
        /// A value inserted by name; an empty path is `{{.}}`.
        case variable(path: [String])
        /// A section, or an inverted section, and its body.
        case section(path: [String], inverted: Bool, body: [Node])
    }

    /// The template's name, for errors.
    let name: String
    /// The compiled parts, in order.
    let nodes: [Node]

    /// Compiles `text`.
    ///
    /// - Throws: ``TemplateError`` for a tag this engine does not render (partials, unescaped
    ///   variables, delimiter changes, another pragma), a tag left open or not closed on its
    ///   line, or sections that do not nest.
    init(_ text: String, named name: String) throws(TemplateError) {
        self.name = name
        var parser = TemplateParser(template: name)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            try parser.add(line: line.element, number: line.offset + 1)
        }
        nodes = try parser.finish()
    }

    /// The text of the template with `context` as its outermost value.
    func render(_ context: TemplateValue) -> String {
        var output = ""
        var stack = [context]
        Self.render(nodes, stack: &stack, into: &output)
        return output
    }

    private static func render(_ nodes: [Node], stack: inout [TemplateValue], into output: inout String) {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let path):
                switch lookUp(path, in: stack) {
                case .text(let text): output += text
                case .flag(let flag): output += flag ? "true" : "false"
                case .list, .object: preconditionFailure("a template inserts \(path.joined(separator: ".")), not text")
                case nil: break
                }
            case .section(let path, let inverted, let body):
                let value = lookUp(path, in: stack)
                if inverted {
                    switch value {
                    case nil, .flag(false): render(body, stack: &stack, into: &output)
                    case .list(let elements) where elements.isEmpty: render(body, stack: &stack, into: &output)
                    default: break
                    }
                    continue
                }
                switch value {
                case nil, .flag(false): break
                case .flag(true): render(body, stack: &stack, into: &output)
                case .list(let elements):
                    for element in elements {
                        stack.append(element)
                        render(body, stack: &stack, into: &output)
                        stack.removeLast()
                    }
                case .some(let value):
                    stack.append(value)
                    render(body, stack: &stack, into: &output)
                    stack.removeLast()
                }
            }
        }
    }

    /// The value that `path` names: its first name in the innermost value that has it, the rest
    /// inside that; the innermost value for an empty path.
    private static func lookUp(_ path: [String], in stack: [TemplateValue]) -> TemplateValue? {
        guard let first = path.first else { return stack.last }
        for value in stack.reversed() {
            guard case .object(let fields) = value, var found = fields[first] else { continue }
            for name in path.dropFirst() {
                guard case .object(let inner) = found, let next = inner[name] else { return nil }
                found = next
            }
            return found
        }
        return nil
    }
}

/// Turns a template's lines into nodes: finds the tags of each line, drops standalone lines, and
/// nests sections.
private struct TemplateParser {
    /// One tag, as written.
    private enum Tag {
        case variable([String])
        case open([String], inverted: Bool)
        case close([String])
        case silent

        var isVariable: Bool {
            if case .variable = self { true } else { false }
        }
    }

    /// A piece of a line: text, or a tag.
    private enum Piece {
        case text(Substring)
        case tag(Tag)
    }

    /// A section being read: its name, its line, whether inverted, whether its tag is alone on
    /// its line, and its body so far.
    private struct OpenSection {
        var path: [String]
        var line: Int
        var inverted: Bool
        var standalone: Bool
        var body: [Template.Node]
    }

    let template: String
    private var sections: [OpenSection] = []
    private var nodes: [Template.Node] = []
    /// Whether the previous line's line break is still to be written: it is not for the first
    /// line, nor after a standalone line.
    private var breakPending = false

    init(template: String) {
        self.template = template
    }

    /// Adds one line, without its line break (every line but the last had one).
    mutating func add(line: Substring, number: Int) throws(TemplateError) {
        let pieces = try self.pieces(of: line, number: number)
        let tags = pieces.compactMap { piece -> Tag? in if case .tag(let tag) = piece { tag } else { nil } }
        let onlySpaces = pieces.allSatisfy { piece in
            if case .text(let text) = piece { text.allSatisfy { $0 == " " || $0 == "\t" } } else { true }
        }
        if tags.count == 1, onlySpaces, !tags[0].isVariable {
            // A standalone line: the tag only, without the line's spaces or its line break.
            if breakPending { append(text: "\n") }
            breakPending = false
            try handle(tags[0], number: number, standalone: true)
            return
        }
        if breakPending { append(text: "\n") }
        breakPending = true
        for piece in pieces {
            switch piece {
            case .text(let text): append(text: String(text))
            case .tag(let tag): try handle(tag, number: number, standalone: false)
            }
        }
    }

    /// The nodes, once every line is added.
    mutating func finish() throws(TemplateError) -> [Template.Node] {
        if let open = sections.last {
            throw TemplateError(
                template: template, line: open.line,
                message: "section \(open.path.joined(separator: ".")) is never closed")
        }
        return nodes
    }

    private mutating func append(text: String) {
        if sections.isEmpty {
            Self.append(text, to: &nodes)
        } else {
            Self.append(text, to: &sections[sections.count - 1].body)
        }
    }

    private static func append(_ text: String, to nodes: inout [Template.Node]) {
        guard !text.isEmpty else { return }
        if case .text(let previous) = nodes.last {
            nodes[nodes.count - 1] = .text(previous + text)
        } else {
            nodes.append(.text(text))
        }
    }

    private mutating func handle(_ tag: Tag, number: Int, standalone: Bool) throws(TemplateError) {
        switch tag {
        case .silent:
            break
        case .variable(let path):
            if sections.isEmpty {
                nodes.append(.variable(path: path))
            } else {
                sections[sections.count - 1].body.append(.variable(path: path))
            }
        case .open(let path, let inverted):
            sections.append(OpenSection(path: path, line: number, inverted: inverted, standalone: standalone, body: []))
        case .close(let path):
            guard let open = sections.popLast() else {
                throw error("closes section \(path.joined(separator: ".")), which is not open", number)
            }
            guard open.path == path else {
                throw error(
                    "closes section \(path.joined(separator: ".")) inside section "
                        + "\(open.path.joined(separator: ".")) of line \(open.line)", number)
            }
            guard open.standalone == standalone else {
                // Mustache engines disagree on the lines around such a section (swift-mustache
                // treats the rest of the closing line as the start of a line), so it is refused.
                let opened = open.standalone ? "alone on its line" : "within a line"
                throw error(
                    "section \(path.joined(separator: ".")) opens \(opened) (line \(open.line)) and must close so too",
                    number)
            }
            let node = Template.Node.section(path: open.path, inverted: open.inverted, body: open.body)
            if sections.isEmpty { nodes.append(node) } else { sections[sections.count - 1].body.append(node) }
        }
    }

    private func pieces(of line: Substring, number: Int) throws(TemplateError) -> [Piece] {
        var pieces: [Piece] = []
        var rest = line[...]
        while let open = rest.firstRange(of: "{{") {
            if open.lowerBound > rest.startIndex { pieces.append(.text(rest[..<open.lowerBound])) }
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                throw error("a tag is not closed on its line", number)
            }
            pieces.append(.tag(try tag(rest[open.upperBound..<close.lowerBound], number: number)))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(rest)) }
        return pieces
    }

    private func tag(_ content: Substring, number: Int) throws(TemplateError) -> Tag {
        let content = content.trimmingSpaces
        switch content.first {
        case "#": return .open(try path(content.dropFirst(), number: number), inverted: false)
        case "^": return .open(try path(content.dropFirst(), number: number), inverted: true)
        case "/": return .close(try path(content.dropFirst(), number: number))
        case "!": return .silent
        case "%":
            guard content.dropFirst().trimmingSpaces == "CONTENT_TYPE: TEXT" else {
                throw error("only the pragma {{% CONTENT_TYPE: TEXT}} is supported, not {{\(content)}}", number)
            }
            return .silent
        case "{", "&", ">", "<", "$", "=":
            throw error(
                "{{\(content)}}: partials, blocks, unescaped variables and delimiter changes are not supported", number)
        default:
            return .variable(try path(content, number: number))
        }
    }

    private func path(_ name: Substring, number: Int) throws(TemplateError) -> [String] {
        let name = name.trimmingSpaces
        if name == "." { return [] }
        let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard path.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }) else {
            throw error("\"\(name)\" is not a name", number)
        }
        return path
    }

    private func error(_ message: String, _ line: Int) -> TemplateError {
        TemplateError(template: template, line: line, message: message)
    }
}

extension Substring {
    /// The text without the spaces at either end.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
