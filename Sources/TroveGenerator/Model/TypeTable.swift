/// What one parsed input tells the other inputs: the names it declares and the facts about its
/// annotated types that validation and code generation of other files look up.
///
/// It is computed from the file alone (no other file), so an incremental run keeps it for every
/// unchanged file instead of parsing the file again.
package struct FileFacts: Sendable, Hashable {
    /// The dotted name of every type the file declares, annotated or not.
    package var declaredTypes: [String]
    /// The annotated types, in source order.
    package var annotatedTypes: [AnnotatedTypeFacts]

    /// Creates the facts of a file.
    ///
    /// - Parameters:
    ///   - declaredTypes: Every declared type's dotted name.
    ///   - annotatedTypes: The annotated types.
    package init(declaredTypes: [String], annotatedTypes: [AnnotatedTypeFacts]) {
        self.declaredTypes = declaredTypes
        self.annotatedTypes = annotatedTypes
    }

    /// The facts of a parsed file.
    init(_ file: ParsedFile) {
        declaredTypes = file.declaredTypes
        annotatedTypes = file.types.map { type in
            let rawType = ModelBuilder.rawValueType(of: type)
            var metadataTypes: [String] = []
            if type.annotations.contains(where: { $0.name == AnnotationName.persistable.rawValue }) {
                for property in type.properties where !property.isStatic
                    && property.annotations.contains(where: { $0.name == AnnotationName.metadata.rawValue })
                {
                    if case .optional(let wrapped) = property.shape { metadataTypes.append(wrapped) }
                }
            }
            return AnnotatedTypeFacts(
                name: type.qualifiedName,
                hasMessageCoder: type.kind != .enum || rawType == nil,
                isIndexableEnum: rawType.map(IndexableTypes.rawValueTypes.contains) ?? false,
                metadataTypes: metadataTypes,
                relationshipQueries: ModelBuilder.relationshipQueryClaims(of: type))
        }
    }
}

/// What other files may look up about one annotated type.
package struct AnnotatedTypeFacts: Sendable, Hashable {
    /// The dotted name.
    package var name: String
    /// Whether trove-gen generates a message coder for it (every annotated type but a raw-value enum).
    package var hasMessageCoder: Bool
    /// Whether it is a raw-value enum whose values an index can store.
    package var isIndexableEnum: Bool
    /// For a `@persistable` type, the wrapped types of its `@metadata` properties as written.
    package var metadataTypes: [String]
    /// For a `@persistable` type, the queries its `@relationship` fields generate, in source order.
    package var relationshipQueries: [RelationshipQueryClaim]

    /// Creates the facts of an annotated type.
    ///
    /// - Parameters:
    ///   - name: The dotted name.
    ///   - hasMessageCoder: Whether it gets a generated message coder.
    ///   - isIndexableEnum: Whether it is a raw-value enum an index can store.
    ///   - metadataTypes: The wrapped types of its `@metadata` properties, as written.
    ///   - relationshipQueries: The queries its `@relationship` fields generate.
    package init(
        name: String, hasMessageCoder: Bool, isIndexableEnum: Bool, metadataTypes: [String],
        relationshipQueries: [RelationshipQueryClaim]
    ) {
        self.name = name
        self.hasMessageCoder = hasMessageCoder
        self.isIndexableEnum = isIndexableEnum
        self.metadataTypes = metadataTypes
        self.relationshipQueries = relationshipQueries
    }
}

/// A query that a `@relationship` field generates on a type: the edge's own query on the type
/// that holds it, or its inverse on the destination. Two of one name on one type are an error,
/// also when they come from different inputs.
package struct RelationshipQueryClaim: Sendable, Hashable {
    /// The type the query is generated on: a dotted name as declared, or as written in `to:`
    /// (resolved against the declared types by ``TypeTable``) when ``ownerIsWritten``.
    package var owner: String
    /// Whether ``owner`` is written in `to:` of a field of the claiming type, not yet resolved.
    package var ownerIsWritten: Bool
    /// The query's name.
    package var name: String
    /// How a message names what generates the query.
    package var claimant: String

    /// Creates a claim.
    ///
    /// - Parameters:
    ///   - owner: The type the query is generated on.
    ///   - isWritten: Whether `owner` is as written in `to:`.
    ///   - name: The query's name.
    ///   - claimant: How a message names what generates the query.
    package init(owner: String, isWritten: Bool, name: String, claimant: String) {
        self.owner = owner
        self.ownerIsWritten = isWritten
        self.name = name
        self.claimant = claimant
    }
}

/// One question the model builder asked about the other inputs while describing a file, with
/// the answer it got.
///
/// A file's generated code depends on the other inputs only through these answers: an
/// incremental run reuses a file's output when the file is unchanged and every answer it
/// recorded is still the same (see ``TypeTable/answer(_:_:_:)``).
package struct Lookup: Sendable, Hashable {
    /// The kinds of question.
    package enum Kind: UInt8, Sendable, Hashable {
        /// `qualify(argument, in: owner)`: a type name as written, qualified for a file-scope extension.
        case qualify = 0
        /// Whether `argument` (or a type whose name ends with `.argument`) gets a generated message coder.
        case hasMessageCoder = 1
        /// Whether `argument` is the `@metadata` type of a `@persistable` type.
        case isMetadataType = 2
        /// Whether `argument` is a raw-value enum an index can store.
        case isIndexableEnum = 3
        /// The path of the input declaring the annotated type `argument` names, or `""`. The
        /// builder then reads the type's declaration there (a ``declarationDigest`` lookup).
        case declaringFile = 4
        /// The path of the input declaring the annotated type named exactly `argument`, or `""`;
        /// the declaration is read as for ``declaringFile``.
        case annotatedTypeFile = 5
        /// What generates each relationship query `argument` (`Type.name`), across all inputs in
        /// input order, one per line.
        case queryClaimants = 6
        /// Not a question for the table: the declaration of the annotated type `argument` that the
        /// builder read from the input at `owner`, as a digest of that input's text up to the end
        /// of the declaration (``Lookup/digest(of:)``). When that input changes, the lookup still
        /// holds if that text is the same: an edit below the declaration (a function, an extension,
        /// a comment) does not regenerate the files that read the type.
        case declarationDigest = 7
    }

    /// The answer of a ``Kind/declarationDigest`` lookup: the type's ``ParsedType/sourceDigest``,
    /// or `"-"` when the input does not declare it.
    static func digest(of type: ParsedType?) -> String {
        type?.sourceDigest ?? "-"
    }

    /// The kind of question.
    package var kind: Kind
    /// The name asked about.
    package var argument: String
    /// The enclosing type, for ``Kind/qualify``; `""` otherwise.
    package var owner: String
    /// The answer: a name or path, or `"1"` / `"0"` for a yes-or-no question.
    package var answer: String

    /// Creates a lookup.
    ///
    /// - Parameters:
    ///   - kind: The kind of question.
    ///   - argument: The name asked about.
    ///   - owner: The enclosing type, for ``Kind/qualify``.
    ///   - answer: The answer.
    package init(kind: Kind, argument: String, owner: String, answer: String) {
        self.kind = kind
        self.argument = argument
        self.owner = owner
        self.answer = answer
    }
}

/// Every input's ``FileFacts`` gathered for lookups in constant time.
///
/// All inputs are validated together, because a `@persistable` type's metadata may be a
/// `@coded` type of another file: the builder asks this table, and every question goes through
/// ``answer(_:_:_:)``, so that an incremental run can ask it again.
struct TypeTable {
    /// Every declared dotted name.
    private var declared: Set<String> = []
    /// Every dotted name that has a declared type nested in it (`A` and `A.B` for `A.B.C`).
    private var owners: Set<String> = []
    /// The annotated types with a generated message coder.
    private var messageTypes: Set<String> = []
    /// Every part of a ``messageTypes`` name after one of its dots (`B.C` and `C` for `A.B.C`).
    private var messageTypeSuffixes: Set<String> = []
    /// The qualified `@metadata` types of `@persistable` types.
    private var metadataTypes: Set<String> = []
    /// Every part of a ``metadataTypes`` name after one of its dots.
    private var metadataTypeSuffixes: Set<String> = []
    /// The raw-value enums an index can store.
    private var indexableEnums: Set<String> = []
    /// The input declaring each annotated type, the first one for a name declared twice.
    private var declaringFiles: [String: String] = [:]
    /// What generates each relationship query, by `Type.name`, in input order.
    private var queryClaimants: [String: [String]] = [:]

    /// Gathers the facts of every input that may contain annotations, in input order.
    ///
    /// - Parameter files: Each input's path and facts.
    init(_ files: [(path: String, facts: FileFacts)]) {
        for (_, facts) in files {
            for name in facts.declaredTypes {
                declared.insert(name)
                for prefix in Self.prefixes(of: name) { owners.insert(prefix) }
            }
        }
        for (path, facts) in files {
            for type in facts.annotatedTypes {
                if declaringFiles[type.name] == nil { declaringFiles[type.name] = path }
                if type.hasMessageCoder {
                    messageTypes.insert(type.name)
                    messageTypeSuffixes.formUnion(Self.suffixes(of: type.name))
                }
                if type.isIndexableEnum { indexableEnums.insert(type.name) }
                for written in type.metadataTypes {
                    let name = qualify(written, in: type.name)
                    metadataTypes.insert(name)
                    metadataTypeSuffixes.formUnion(Self.suffixes(of: name))
                }
            }
        }
        for (_, facts) in files {
            for type in facts.annotatedTypes {
                for claim in type.relationshipQueries {
                    var owner = claim.owner
                    if claim.ownerIsWritten {
                        // As the builder resolves `to:`: qualified in the claiming type, else as written.
                        let qualified = qualify(claim.owner, in: type.name)
                        owner = declaringFiles[qualified] != nil || declaringFiles[claim.owner] == nil ? qualified : claim.owner
                    }
                    queryClaimants[owner + "." + claim.name, default: []].append(claim.claimant)
                }
            }
        }
    }

    /// The answer to a question of ``Lookup``.
    ///
    /// - Parameters:
    ///   - kind: The kind of question.
    ///   - argument: The name asked about.
    ///   - owner: The enclosing type, for ``Lookup/Kind/qualify``.
    /// - Returns: The answer, as ``Lookup/answer`` holds it.
    func answer(_ kind: Lookup.Kind, _ argument: String, _ owner: String) -> String {
        switch kind {
        case .qualify: qualify(argument, in: owner)
        case .hasMessageCoder:
            messageTypes.contains(argument) || messageTypeSuffixes.contains(argument) ? "1" : "0"
        case .isMetadataType:
            metadataTypes.contains(argument) || metadataTypeSuffixes.contains(argument) ? "1" : "0"
        case .isIndexableEnum: indexableEnums.contains(argument) ? "1" : "0"
        case .declaringFile: declaringType(of: argument).map { declaringFiles[$0] ?? "" } ?? ""
        case .annotatedTypeFile: declaringFiles[argument] ?? ""
        case .queryClaimants: queryClaimants[argument]?.joined(separator: "\n") ?? ""
        case .declarationDigest: preconditionFailure("a declaration's digest is not the table's to answer")
        }
    }

    /// The annotated type that `typeName`, as written in a `@metadata` property, names: the type of
    /// that name, or else the one whose name is the longest part of `typeName` after a dot.
    func declaringType(of typeName: String) -> String? {
        if declaringFiles[typeName] != nil { return typeName }
        return Self.suffixes(of: typeName).first { declaringFiles[$0] != nil }
    }

    /// The path of the input declaring the annotated type `name` (exactly as declared), if any.
    func declaringFile(ofType name: String) -> String? {
        declaringFiles[name]
    }

    /// `typeName` as written inside `owner`, with every name that refers to a type nested in an
    /// enclosing scope qualified, so that it also resolves in a file-scope extension:
    /// `Author` inside `Library.Book` becomes `Library.Author` when `Library.Author` exists.
    func qualify(_ typeName: String, in owner: String) -> String {
        let scopes = owner.split(separator: ".").map(String.init)
        guard scopes.count > 1 || owners.contains(owner) else { return typeName }
        var result = ""
        var identifier = ""
        var previous: Character = " "
        func flush() {
            guard !identifier.isEmpty else { return }
            var replacement = identifier
            if previous != "." {
                for depth in stride(from: scopes.count, through: 1, by: -1) {
                    let candidate = scopes[0..<depth].joined(separator: ".") + "." + identifier
                    if declared.contains(candidate) {
                        replacement = candidate
                        break
                    }
                }
            }
            result += replacement
            identifier = ""
        }
        for character in typeName {
            if character.isLetter || character.isNumber || character == "_" {
                if identifier.isEmpty { previous = result.last ?? " " }
                identifier.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    /// The parts of `name` before each of its dots: `A` and `A.B` for `A.B.C`.
    private static func prefixes(of name: String) -> [String] {
        dots(in: name).map { String(decoding: name.utf8.prefix($0), as: UTF8.self) }
    }

    /// The parts of `name` after each of its dots, longest first: `B.C` and `C` for `A.B.C`.
    private static func suffixes(of name: String) -> [String] {
        dots(in: name).map { String(decoding: name.utf8.dropFirst($0 + 1), as: UTF8.self) }
    }

    /// The UTF-8 offsets of the dots of `name`, in order.
    ///
    /// A scan of bytes: the table asks this of every name of every input, and walking the name's
    /// characters cost a debug build of the tool (the build plugin's, in a debug build) several
    /// milliseconds per 1,000 inputs. (A dot is never part of a larger character in a type name.)
    private static func dots(in name: String) -> [Int] {
        var name = name
        return name.withUTF8 { bytes in
            var offsets: [Int] = []
            for offset in 0..<bytes.count where bytes[offset] == UInt8(ascii: ".") { offsets.append(offset) }
            return offsets
        }
    }
}
