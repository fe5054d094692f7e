import Mustache
import Testing
import TroveTemplates
import TroveTestSupport

@testable import TroveGenerator

/// The generator's template engine against swift-mustache, the engine it replaced: random
/// templates of the grammar it accepts, random contexts, the same text.
@Suite struct TemplateTests {
    @Test func rendersAsSwiftMustacheDoes() throws {
        var random = SeededGenerator(seed: 0x5eed_7e3a)
        for round in 0..<3_000 {
            var generator = TemplateGenerator(random: random)
            var text = "{{% CONTENT_TYPE: TEXT}}\n" + generator.template()
            // (Not after a line of spaces: swift-mustache drops such a last line, which the shipped
            // templates, all ending with a line break, never have.)
            let lastLine = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
            if generator.dropsLastLineBreak(), !lastLine.allSatisfy({ $0 == " " || $0 == "\t" }) { text.removeLast() }
            let context = generator.object(depth: 0)
            random = generator.random
            let ours = try Template(text, named: "T").render(context)
            let theirs = try MustacheTemplate(string: text).render(context.mustacheValue)
            if ours != theirs {
                Issue.record("round \(round): the engines differ\n--- template\n\(text)\n--- context\n\(context)")
                #expect(ours == theirs)
                return
            }
        }
    }

    /// Every template the generator ships, rendered by both engines with a context that holds
    /// each name it uses: true flags and one-element lists, so that every section renders.
    @Test(arguments: TroveTemplates.all.keys.sorted())
    func everyShippedTemplateRendersAsSwiftMustacheDoes(_ name: String) throws {
        let text = try #require(TroveTemplates.all[name])
        let template = try Template(text, named: name)
        for variant in [true, false] {
            let context = Self.context(for: template.nodes, filled: variant)
            let theirs = try MustacheTemplate(string: text).render(context.mustacheValue)
            #expect(template.render(context) == theirs, "\(name), sections \(variant ? "on" : "off")")
        }
    }

    @Test func refusesWhatItDoesNotRender() {
        let cases: [(String, String)] = [
            ("a\n{{#a}}\nb", "line 2: section a is never closed"),
            ("{{/a}}", "line 1: closes section a, which is not open"),
            ("{{#a}}{{#b}}{{/a}}{{/b}}", "line 1: closes section a inside section b of line 1"),
            ("x {{a", "line 1: a tag is not closed on its line"),
            ("{{> partial}}", "line 1: {{> partial}}: partials, blocks, unescaped variables"),
            ("{{{a}}}", "line 1: {{{a}}: partials"),
            ("{{& a}}", "line 1: {{& a}}: partials"),
            ("{{=<% %>=}}", "line 1: {{=<% %>=}}: partials"),
            ("{{% CONTENT_TYPE: HTML}}", "line 1: only the pragma {{% CONTENT_TYPE: TEXT}} is supported"),
            ("ok\n{{a..b}}", "line 2: \"a..b\" is not a name"),
            ("{{a-b}}", "line 1: \"a-b\" is not a name"),
            ("{{#a}}\nx{{/a}}", "line 2: section a opens alone on its line (line 1) and must close so too"),
            ("x{{#a}}\n{{/a}}", "line 2: section a opens within a line (line 1) and must close so too"),
        ]
        for (text, expected) in cases {
            do {
                _ = try Template(text, named: "T")
                Issue.record("\(text) compiled")
            } catch {
                #expect(error.description.hasPrefix("template T, " + expected), "\(text): \(error.description)")
            }
        }
    }

    /// A context for `nodes` with every name they use: sections get `true` flags, or lists of one
    /// object holding the names inside, when `filled`; `false` and empty lists otherwise.
    private static func context(for nodes: [Template.Node], filled: Bool) -> TemplateValue {
        var fields: [String: TemplateValue] = [:]
        for node in nodes {
            switch node {
            case .text:
                break
            case .variable(let path):
                if let first = path.first { fields[first] = fields[first] ?? .text("<\(path.joined(separator: "."))>") }
            case .section(let path, _, let body):
                guard let first = path.first else { continue }
                let inner = context(for: body, filled: filled)
                if body.contains(.variable(path: [])) {
                    fields[first] = .list(filled ? [.text("<element of \(first)>")] : [])
                } else if case .object(let innerFields) = inner, innerFields.isEmpty {
                    fields[first] = .flag(filled)
                } else {
                    fields[first] = .list(filled ? [inner] : [])
                }
            }
        }
        return .object(fields)
    }
}

extension TemplateValue {
    /// The same value as swift-mustache reads it: strings, booleans, arrays and dictionaries.
    var mustacheValue: Any {
        switch self {
        case .text(let text): text
        case .flag(let flag): flag
        case .list(let elements): elements.map(\.mustacheValue)
        case .object(let fields): fields.mapValues(\.mustacheValue)
        }
    }
}

/// Random templates and contexts whose names have fixed kinds, so that a template inserts only
/// text: `t…` are texts, `f…` flags, `l…` lists of objects, `s…` lists of texts, `o…` objects.
/// Objects hold a random subset of the names, so that lookups often fall through to an
/// enclosing value.
private struct TemplateGenerator {
    var random: SeededGenerator

    private static let texts = ["t1", "t2"]
    private static let flags = ["f1", "f2"]
    private static let lists = ["l1", "l2"]
    private static let textLists = ["s1"]
    private static let objects = ["o1"]
    private static let allNames = texts + flags + lists + textLists + objects

    /// Whether to end the template without its last line break.
    mutating func dropsLastLineBreak() -> Bool { chance(20) }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }

    /// A template of a few lines, each ending with a line break (a section that opens alone on its
    /// line closes alone on its line); `innermostIsText` says whether `{{.}}` is text here.
    mutating func template(depth: Int = 0, innermostIsText: Bool = false) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            text += line(depth: depth, innermostIsText: innermostIsText)
        }
        return text
    }

    private mutating func line(depth: Int, innermostIsText: Bool) -> String {
        let indent = String(repeating: " ", count: Int.random(in: 0...2, using: &random))
        if depth < 3, chance(30) {
            // A section whose open and close tags are standalone lines, or inline ones.
            let (name, inverted, bodyIsText) = section(innermostIsText: innermostIsText)
            let open = "{{\(inverted ? "^" : "#")\(name)}}"
            let close = "{{/\(name)}}"
            let body = template(depth: depth + 1, innermostIsText: bodyIsText)
            if chance(60) {
                return indent + open + "\n" + body + indent + close + "\n"
            }
            return indent + "x" + open + body.replacingNewlines + close + "y\n"
        }
        if chance(10) { return indent + "{{! a comment }}\n" }
        var text = indent
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            text += piece(innermostIsText: innermostIsText)
        }
        return text + "\n"
    }

    private mutating func piece(innermostIsText: Bool) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: return pick(["a", "b c", ", ", "(", ")", "  ", "\t", "}", "-"])
        case 4..<7: return "{{\(pick(Self.texts))}}"
        case 7: return innermostIsText ? "{{.}}" : "{{\(pick(Self.objects)).\(pick(Self.texts))}}"
        case 8: return "{{ \(pick(Self.texts)) }}"
        default: return "{{\(pick(Self.flags))}}"
        }
    }

    /// A section's name, whether inverted, and whether `{{.}}` is text inside it.
    private mutating func section(innermostIsText: Bool) -> (String, Bool, Bool) {
        let inverted = chance(30)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return (pick(Self.texts), inverted, inverted ? innermostIsText : true)
        case 1: return (pick(Self.flags), inverted, innermostIsText)
        // (An inverted section of an empty list: swift-mustache makes the list innermost, the
        // Mustache specification does not; the shipped templates never insert `{{.}}` there.)
        case 2: return (pick(Self.lists), inverted, false)
        case 3: return (pick(Self.textLists), inverted, !inverted)
        default: return (pick(Self.objects), inverted, inverted ? innermostIsText : false)
        }
    }

    /// A random object holding some of the names.
    mutating func object(depth: Int) -> TemplateValue {
        var fields: [String: TemplateValue] = [:]
        for name in Self.allNames where chance(depth == 0 ? 80 : 40) {
            switch name.first {
            case "t": fields[name] = .text(pick(["", "v", "w w", "{{x}}", "\n"]))
            case "f": fields[name] = .flag(chance(50))
            case "l":
                let count = depth < 2 ? Int.random(in: 0...2, using: &random) : 0
                fields[name] = .list((0..<count).map { _ in object(depth: depth + 1) })
            case "s": fields[name] = .texts((0..<Int.random(in: 0...3, using: &random)).map { "e\($0)" })
            default: fields[name] = depth < 2 ? object(depth: depth + 1) : .object([:])
            }
        }
        return .object(fields)
    }
}

extension String {
    /// The text on one line: line breaks become spaces.
    fileprivate var replacingNewlines: String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
