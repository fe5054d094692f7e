/// What the parser read from one file: the types that carry annotations, with the members the
/// generator needs, before any validation. Strings are the trimmed source text.
struct ParsedFile: Sendable {
    /// The path of the file.
    var path: String
    /// The annotated types, in source order.
    var types: [ParsedType]
    /// The argument labels of every initializer declared in an extension of a type, by the
    /// extended type's name as written.
    var extensionInitializers: [String: [[String]]]
    /// The dotted name of every type declared in the file, annotated or not, so that names
    /// written inside nested types can be qualified in generated extensions.
    var declaredTypes: [String]
    /// Diagnostics found while parsing (malformed or stray annotations).
    var diagnostics: [Diagnostic]
}

extension ParsedFile {
    /// The annotated type whose dotted name is `qualifiedName`, if the file declares one.
    func type(named qualifiedName: String) -> ParsedType? {
        types.first { $0.qualifiedName == qualifiedName }
    }
}

/// A declared type with at least one annotation.
struct ParsedType: Sendable {
    /// The kind of declaration.
    enum Kind: String, Sendable {
        case `struct`, `class`, `enum`, actor, `protocol`
    }

    /// The dotted name, including enclosing types (`Outer.Inner`).
    var qualifiedName: String
    /// The kind of declaration.
    var kind: Kind
    /// Whether a class is `final`.
    var isFinal: Bool
    /// The effective access level: the most restrictive of the type and its enclosing types.
    var access: AccessLevel
    /// Whether the type declares generic parameters.
    var isGeneric: Bool
    /// The inherited types as written.
    var inheritedTypes: [String]
    /// The annotations on the type.
    var annotations: [Annotation]
    /// The location of the type's name.
    var location: SourceLocation
    /// The instance and static properties, in declaration order.
    var properties: [ParsedProperty]
    /// The enum cases, in declaration order.
    var cases: [ParsedCase]
    /// The argument labels of the initializers declared in the type's body.
    var initializers: [[String]]
    /// A digest of the file's text from its start to the end of this declaration: everything
    /// that decides what is parsed of it (its members and annotations, its enclosing declarations,
    /// its lines). An input that reads this type from another file is generated again only when
    /// this changes (``Lookup/Kind/declarationDigest``).
    var sourceDigest: String
}

/// A property of an annotated type.
struct ParsedProperty: Sendable {
    /// The name, without backticks.
    var name: String
    /// The type as written, if the declaration has one.
    var typeName: String?
    /// The shape of the type, checked for what Trove can store.
    var shape: TypeShape?
    /// The initial value as written.
    var defaultValue: String?
    /// `let` rather than `var`.
    var isLet: Bool
    /// `static` or `class`.
    var isStatic: Bool
    /// Has a getter (not only observers).
    var isComputed: Bool
    /// `lazy`.
    var isLazy: Bool
    /// The declared access level of the getter, if any.
    var access: AccessLevel?
    /// The annotations on the declaration.
    var annotations: [Annotation]
    /// The location of the name.
    var location: SourceLocation
}

/// An enum case with its associated values.
struct ParsedCase: Sendable {
    /// The name, without backticks.
    var name: String
    /// The associated values; empty for a case without them.
    var parameters: [ParsedParameter]
    /// Whether the case has a raw value written (`case red = "r"`).
    var hasRawValue: Bool
    /// The location of the name.
    var location: SourceLocation
}

/// An associated value of an enum case.
struct ParsedParameter: Sendable {
    /// The label, or `nil` for an unlabeled value.
    var label: String?
    /// The type as written.
    var typeName: String
    /// The checked shape of the type.
    var shape: TypeShape
    /// The default value as written.
    var defaultValue: String?
    /// The location of the value.
    var location: SourceLocation
}

/// Swift access levels, ordered from the most restrictive.
enum AccessLevel: Int, Sendable, Comparable, Codable {
    case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

    init?(keyword: String) {
        switch keyword {
        case "private": self = .private
        case "fileprivate": self = .fileprivate
        case "internal": self = .internal
        case "package": self = .package
        case "public": self = .public
        case "open": self = .open
        default: return nil
        }
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
