/// One comment annotation, such as `// @persistable(collection: "users")`, as written.
///
/// Annotations are line comments shaped like a Swift attribute: `//`, then `@name`, then an
/// optional argument list of `label: value` pairs whose values are string literals, number
/// literals, `true`/`false`, type references (`User.self`) or rules (`.deleteSource`,
/// `[.deleteSource, .notifyDestination]`). A comment that starts like an annotation but goes on with prose
/// (`// @unchecked because ...`) is an ordinary comment.
struct Annotation: Sendable, Hashable {
    /// A value of an annotation argument.
    enum Value: Sendable, Hashable {
        /// A string literal, unescaped.
        case string(String)
        /// `true` or `false`.
        case bool(Bool)
        /// A number literal (`10`, `2.5`), as written.
        case number(String)
        /// A type reference, `User.self` or `Library.Book.self`: the dotted name without `.self`.
        case type(String)
        /// One member (`.deleteSource`) or a list of members (`[.deleteSource, .notifySource]`,
        /// possibly empty): the names without their dots, in source order.
        case members([String])

        /// How the value is spelled in a message.
        var spelling: String {
            switch self {
            case .string(let string): "\"\(string)\""
            case .bool(let bool): "\(bool)"
            case .number(let number): number
            case .type(let name): name + ".self"
            case .members(let names) where names.count == 1: "." + names[0]
            case .members(let names): "[" + names.map { "." + $0 }.joined(separator: ", ") + "]"
            }
        }

        /// What kind of value this is, as a parameter expects it.
        var kind: ValueKind {
            switch self {
            case .string: .string
            case .bool: .bool
            case .number: .number
            case .type: .type
            case .members: .members
            }
        }
    }

    /// The kinds of values an argument can take.
    enum ValueKind: Sendable, Hashable {
        case string, bool, number, type, members

        /// How a message names values of this kind.
        var description: String {
            switch self {
            case .string: "a string literal"
            case .bool: "true or false"
            case .number: "a number"
            case .type: "a type reference such as 'User.self'"
            case .members: "a rule such as '.deleteSource', or a list of them such as '[.deleteSource, .notifySource]'"
            }
        }
    }

    /// One `label: value` argument.
    struct Argument: Sendable, Hashable {
        /// The label.
        var label: String
        /// The value.
        var value: Value
        /// Where the label starts.
        var location: SourceLocation
    }

    /// The name, without `@`.
    var name: String
    /// The arguments, in source order; empty without parentheses.
    var arguments: [Argument]
    /// Where the `@` is.
    var location: SourceLocation

    /// The argument with `label`, if any.
    func argument(_ label: String) -> Argument? {
        arguments.first { $0.label == label }
    }
}

/// The annotations Trove understands.
enum AnnotationName: String, CaseIterable, Sendable {
    case persistable
    case coded
    case key
    case metadata
    case indexed
    case searchable
    case relationship
    case transient
    case renamed

    /// The argument labels this annotation accepts, whether each is required, and the kind of
    /// value each takes.
    var parameters: [(label: String, isRequired: Bool, kind: Annotation.ValueKind)] {
        switch self {
        case .persistable: [("collection", false, .string), ("searchTokenizer", false, .string)]
        case .indexed: [("unique", false, .bool)]
        case .searchable: [("weight", false, .number)]
        case .relationship:
            // Exactly one of `to:` (an edge to items) and `toFiles:` (an edge to files): checked with the edge.
            [
                ("to", false, .type), ("toFiles", false, .string), ("onDelete", false, .members),
                ("name", false, .string), ("inverse", false, .string),
            ]
        case .renamed: [("from", true, .string)]
        case .coded, .key, .metadata, .transient: []
        }
    }

    /// Whether the annotation applies to a type declaration (rather than a property).
    var appliesToTypes: Bool { self == .persistable || self == .coded }
}
