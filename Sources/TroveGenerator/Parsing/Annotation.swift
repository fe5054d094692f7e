/// One comment annotation, such as `// @persistable(collection: "users")`, as written.
///
/// Annotations are line comments shaped like a Swift attribute: `//`, then `@name`, then an
/// optional argument list of `label: value` pairs whose values are string literals or
/// `true`/`false`. A comment that starts like an annotation but goes on with prose
/// (`// @unchecked because ...`) is an ordinary comment.
struct Annotation: Sendable, Hashable {
    /// A value of an annotation argument.
    enum Value: Sendable, Hashable {
        /// A string literal, unescaped.
        case string(String)
        /// `true` or `false`.
        case bool(Bool)

        /// How the value is spelled in a message.
        var spelling: String {
            switch self {
            case .string(let string): "\"\(string)\""
            case .bool(let bool): "\(bool)"
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
    case transient
    case renamed

    /// The argument labels this annotation accepts, and whether each is required.
    var parameters: [(label: String, isRequired: Bool, isString: Bool)] {
        switch self {
        case .persistable: [("collection", false, true)]
        case .indexed: [("unique", false, false)]
        case .renamed: [("from", true, true)]
        case .coded, .key, .metadata, .searchable, .transient: []
        }
    }

    /// Whether the annotation applies to a type declaration (rather than a property).
    var appliesToTypes: Bool { self == .persistable || self == .coded }
}
