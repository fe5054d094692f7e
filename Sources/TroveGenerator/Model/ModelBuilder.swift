/// Validates the parsed declarations of every input and builds the ``ModelDescription``.
///
/// All inputs are validated together, because a `@persistable` type's metadata may be a
/// `@coded` type of another file. Every problem becomes a ``Diagnostic``; the builder never
/// stops at the first one.
struct ModelBuilder {
    private var diagnostics: [Diagnostic] = []
    /// Every input's facts: the only way to what other files declare.
    private let table: TypeTable
    /// The parsed input at a path, for the inputs that ``table`` names as declaring a type.
    private let parsedFile: (String) -> ParsedFile?
    /// Every question asked of ``table``, with its answer, in the order first asked.
    private(set) var lookups: [Lookup] = []
    private var askedLookups: Set<Lookup> = []

    /// Builds the model of `files` (every input that may contain annotations).
    ///
    /// - Parameter files: The parsed inputs.
    /// - Returns: The model (meaningful only without errors) and the diagnostics.
    static func build(_ files: [ParsedFile]) -> (ModelDescription, [Diagnostic]) {
        let table = TypeTable(files.map { ($0.path, FileFacts($0)) })
        let byPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var descriptions: [FileDescription] = []
        var diagnostics: [Diagnostic] = []
        for file in files {
            let described = describe(file, table: table) { path in byPath[path] }
            diagnostics += described.diagnostics
            if let description = described.description { descriptions.append(description) }
        }
        return (ModelDescription(files: descriptions), diagnostics)
    }

    /// Describes the annotated types of one input.
    ///
    /// What the description depends on besides `file` is exactly the ``lookups`` returned: asked
    /// again of another table, the same answers give the same description and diagnostics.
    ///
    /// - Parameters:
    ///   - file: The parsed input.
    ///   - table: The facts of every input of the run.
    ///   - parsedFile: The parsed input at a path, for the inputs that ``TypeTable`` names as
    ///     declaring a type.
    /// - Returns: The description (`nil` when the file describes no type), its diagnostics, and
    ///   every question asked of `table` with its answer.
    static func describe(_ file: ParsedFile, table: TypeTable, parsedFile: @escaping (String) -> ParsedFile?)
        -> (description: FileDescription?, diagnostics: [Diagnostic], lookups: [Lookup])
    {
        var builder = ModelBuilder(table: table, parsedFile: parsedFile)
        let types = file.types.compactMap { builder.describe($0, in: file) }
        let description =
            types.isEmpty ? nil : FileDescription(sourcePath: file.path, types: types.sorted { $0.name < $1.name })
        return (description, builder.diagnostics, builder.lookups)
    }

    private init(table: TypeTable, parsedFile: @escaping (String) -> ParsedFile?) {
        self.table = table
        self.parsedFile = parsedFile
    }

    /// Asks `table`, recording the question and its answer.
    private mutating func ask(_ kind: Lookup.Kind, _ argument: String, _ owner: String = "") -> String {
        let answer = table.answer(kind, argument, owner)
        record(Lookup(kind: kind, argument: argument, owner: owner, answer: answer))
        return answer
    }

    private mutating func record(_ lookup: Lookup) {
        if askedLookups.insert(lookup).inserted { lookups.append(lookup) }
    }

    /// The annotated type `name` of the input at `path`, recording what was read
    /// (``Lookup/Kind/declarationDigest``).
    private mutating func read(_ name: String, from path: String) -> ParsedType? {
        let type = parsedFile(path)?.type(named: name)
        record(Lookup(kind: .declarationDigest, argument: name, owner: path, answer: Lookup.digest(of: type)))
        return type
    }

    /// `typeName` as written inside `owner`, with every name that refers to a type nested in an
    /// enclosing scope qualified (see ``TypeTable/qualify(_:in:)``).
    mutating func qualify(_ typeName: String, in owner: String) -> String {
        ask(.qualify, typeName, owner)
    }

    /// Whether `typeName`, as written in a `@metadata` property, has a generated message coder.
    mutating func hasMessageCoder(_ typeName: String) -> Bool {
        ask(.hasMessageCoder, typeName) == "1"
    }

    /// Whether `typeName` is the `@metadata` type of a `@persistable` type of this run.
    mutating func isMetadataType(_ typeName: String) -> Bool {
        ask(.isMetadataType, typeName) == "1"
    }

    /// Whether `typeName` is a raw-value enum of this run whose values an index can store.
    mutating func isIndexableEnum(_ typeName: String) -> Bool {
        ask(.isIndexableEnum, typeName) == "1"
    }

    /// The annotated type named `typeName` as written in a `@metadata` property, if any.
    mutating func parsedType(named typeName: String) -> ParsedType? {
        let path = ask(.declaringFile, typeName)
        guard !path.isEmpty, let name = table.declaringType(of: typeName) else { return nil }
        return read(name, from: path)
    }

    /// The annotated type whose dotted name is exactly `name`, if any input declares one.
    mutating func annotatedType(exactly name: String) -> ParsedType? {
        let path = ask(.annotatedTypeFile, name)
        guard !path.isEmpty else { return nil }
        return read(name, from: path)
    }

    /// Every generator of a relationship query named `name` on the type `owner`, across all
    /// inputs, in input order: the first one keeps the name, each other one is an error.
    mutating func relationshipQueryClaimants(on owner: String, named name: String) -> [String] {
        ask(.queryClaimants, owner + "." + name).split(separator: "\n").map(String.init)
    }

    mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    // MARK: Types

    private mutating func describe(_ type: ParsedType, in file: ParsedFile) -> TypeDescription? {
        let errorCount = diagnostics.count
        let annotations = validatedTypeAnnotations(type)
        let persistableAnnotation = annotations.first { $0.name == AnnotationName.persistable.rawValue }
        let role = persistableAnnotation == nil ? "@coded" : "@persistable"

        let kind: TypeDescription.Kind
        switch type.kind {
        case .struct: kind = .struct
        case .enum: kind = .enum
        case .class:
            kind = .finalClass
            if !type.isFinal {
                error(
                    "class '\(type.qualifiedName)' must be 'final' to be \(role): the generated decoder creates "
                        + "instances with its initializer, which a subclass would not override",
                    at: type.location)
            }
        case .actor, .protocol:
            error("'\(role)' applies to a struct, final class or enum, not to \(type.kind.rawValue) "
                + "'\(type.qualifiedName)'", at: type.location)
            return nil
        }
        if type.isGeneric {
            error("generic type '\(type.qualifiedName)' cannot be \(role): trove-gen generates one coder per "
                + "concrete type", at: type.location)
        }
        if type.access <= .fileprivate {
            error("type '\(type.qualifiedName)' is private or fileprivate: the generated extension in another "
                + "file cannot reach it", at: type.location)
        }

        var coding: TypeDescription.Coding
        var persisted: [ParsedProperty] = []
        if kind == .enum {
            if let rawType = Self.rawValueType(of: type) {
                if persistableAnnotation != nil {
                    error("raw-value enum '\(type.qualifiedName)' cannot be @persistable: annotate it '@coded' and "
                        + "store it in a field", at: type.location)
                }
                coding = .rawValue(type: rawType)
            } else {
                coding = .cases(describeCases(of: type))
            }
            for property in type.properties where !property.isStatic && !property.isComputed {
                error("enum '\(type.qualifiedName)' cannot have stored property '\(property.name)'",
                    at: property.location)
            }
        } else {
            persisted = persistedProperties(of: type, isPersistable: persistableAnnotation != nil)
            // Earlier names in declaration order: the first is the field's identity on disk.
            let renames = persisted.map { property in
                property.annotations.filter { $0.name == "renamed" }.compactMap { annotation in
                    if let argument = annotation.argument("from"), case .string(let old) = argument.value {
                        (name: old, location: argument.location)
                    } else {
                        nil
                    }
                }
            }
            let fields = zip(persisted, renames).map { property, renames in
                let (storedType, isOptional) = Self.storedType(of: property)
                return FieldDescription(
                    name: property.name, type: qualify(storedType, in: type.qualifiedName), isOptional: isOptional,
                    defaultValue: property.defaultValue, previousNames: renames.map(\.name))
            }
            checkCollisions(
                fields, persisted.map(\.location), renameLocations: renames.map { $0.map(\.location) },
                in: type.qualifiedName)
            checkInitializer(of: type, kind: kind, persisted: persisted, in: file)
            coding = .message(fields: fields)
        }

        var persistable: PersistableDescription?
        if let persistableAnnotation {
            var collection = type.qualifiedName
            if let argument = persistableAnnotation.argument("collection"), case .string(let name) = argument.value {
                collection = name
                if name.isEmpty { error("the collection name must not be empty", at: argument.location) }
            }
            persistable = describePersistable(type, collection: collection, annotation: persistableAnnotation)
        }

        guard diagnostics.count == errorCount else { return nil }
        return TypeDescription(
            name: type.qualifiedName,
            kind: kind,
            accessModifier: type.access >= .public ? "public" : type.access == .package ? "package" : "",
            persistable: persistable,
            coding: coding)
    }

    /// Checks the type's own annotations and returns the known, well-formed ones.
    private mutating func validatedTypeAnnotations(_ type: ParsedType) -> [Annotation] {
        var seen: Set<String> = []
        var result: [Annotation] = []
        for annotation in type.annotations {
            guard let name = AnnotationName(rawValue: annotation.name) else {
                unknownAnnotation(annotation)
                continue
            }
            guard name.appliesToTypes else {
                error("'@\(name.rawValue)' applies to a stored property, not to a type", at: annotation.location)
                continue
            }
            guard seen.insert(name.rawValue).inserted else {
                error("duplicate '@\(name.rawValue)' annotation", at: annotation.location)
                continue
            }
            if validateArguments(annotation, name) { result.append(annotation) }
        }
        return result
    }

    private mutating func unknownAnnotation(_ annotation: Annotation) {
        var message = "unknown annotation '@\(annotation.name)'"
        if let suggestion = DeclarationCollector.suggestion(for: annotation.name) {
            message += "; did you mean '@\(suggestion)'?"
        } else {
            message += "; trove-gen knows "
                + AnnotationName.allCases.map { "@\($0.rawValue)" }.joined(separator: ", ")
        }
        error(message, at: annotation.location)
    }

    /// Checks the arguments of a known annotation; returns whether they are valid.
    private mutating func validateArguments(_ annotation: Annotation, _ name: AnnotationName) -> Bool {
        var isValid = true
        var seen: Set<String> = []
        for argument in annotation.arguments {
            guard let parameter = name.parameters.first(where: { $0.label == argument.label }) else {
                let expected =
                    name.parameters.isEmpty
                    ? "it takes no arguments"
                    : "expected " + name.parameters.map { "'\($0.label)'" }.joined(separator: " or ")
                error("unknown argument '\(argument.label)' of '@\(name.rawValue)'; \(expected)", at: argument.location)
                isValid = false
                continue
            }
            if !seen.insert(argument.label).inserted {
                error("duplicate argument '\(argument.label)' of '@\(name.rawValue)'", at: argument.location)
                isValid = false
            }
            if argument.value.kind != parameter.kind {
                error("'\(argument.label)' of '@\(name.rawValue)' must be \(parameter.kind.description)",
                    at: argument.location)
                isValid = false
            }
        }
        for parameter in name.parameters where parameter.isRequired && !seen.contains(parameter.label) {
            error("'@\(name.rawValue)' needs the argument '\(parameter.label):'", at: annotation.location)
            isValid = false
        }
        return isValid
    }

    // MARK: Properties

    /// The validated property annotations of `property`, by name.
    private mutating func validatedAnnotations(of property: ParsedProperty) -> [AnnotationName: Annotation] {
        var result: [AnnotationName: Annotation] = [:]
        for annotation in property.annotations {
            guard let name = AnnotationName(rawValue: annotation.name) else {
                unknownAnnotation(annotation)
                continue
            }
            if name.appliesToTypes {
                error("'@\(name.rawValue)' applies to a type, not to a property", at: annotation.location)
                continue
            }
            if name != .renamed, result[name] != nil {
                error("duplicate '@\(name.rawValue)' annotation", at: annotation.location)
                continue
            }
            if validateArguments(annotation, name) { result[name] = annotation }
        }
        return result
    }

    /// The stored properties that are fields of the message, after checking every property.
    private mutating func persistedProperties(of type: ParsedType, isPersistable: Bool) -> [ParsedProperty] {
        var persisted: [ParsedProperty] = []
        var metadata: ParsedProperty?
        for property in type.properties where !property.isStatic {
            let annotations = validatedAnnotations(of: property)
            let isStored = !property.isComputed && !property.isLazy
            if !isStored {
                let allowed: Set<AnnotationName> = [.key]
                for (name, annotation) in annotations where !allowed.contains(name) {
                    error("'@\(name.rawValue)' applies to a stored property; '\(property.name)' is "
                        + (property.isLazy ? "lazy" : "computed"), at: annotation.location)
                }
                continue
            }
            if !isPersistable {
                for name in [AnnotationName.key, .metadata, .indexed, .searchable, .relationship]
                where (name != .indexed && name != .searchable) || !isMetadataType(type.qualifiedName) {
                    if let annotation = annotations[name] {
                        if name == .indexed || name == .searchable {
                            error("'@\(name.rawValue)' applies to properties of a @persistable type or of its "
                                + "@metadata type; '\(type.qualifiedName)' is @coded and not the metadata of a "
                                + "@persistable type", at: annotation.location)
                            continue
                        }
                        error("'@\(name.rawValue)' applies to properties of a @persistable type; "
                            + "'\(type.qualifiedName)' is @coded", at: annotation.location)
                    }
                }
            }
            if let annotation = annotations[.transient] {
                for other in [AnnotationName.key, .metadata, .indexed, .searchable, .relationship, .renamed] {
                    if annotations[other] != nil {
                        error("'@transient' property '\(property.name)' cannot also be '@\(other.rawValue)'",
                            at: annotation.location)
                    }
                }
                let hasImplicitDefault = !property.isLet && property.shape.map(Self.isOptional) == true
                if property.defaultValue == nil && !hasImplicitDefault {
                    error("'@transient' property '\(property.name)' needs a default value: decoding restores it "
                        + "to its default", at: property.location)
                }
                continue
            }
            // A `let` with an initial value is a constant: it is not a parameter of the
            // memberwise initializer, so it cannot be decoded, and is not stored.
            if property.isLet && property.defaultValue != nil {
                for (name, annotation) in annotations where name != .key {
                    error("'\(property.name)' is a constant ('let' with a value), so it cannot be "
                        + "'@\(name.rawValue)'", at: annotation.location)
                }
                continue
            }
            guard let shape = property.shape, let typeName = property.typeName else {
                error("stored property '\(property.name)' needs an explicit type: trove-gen reads declarations, "
                    + "it does not infer types", at: property.location)
                continue
            }
            if case .unsupported(let reason) = shape {
                error("property '\(property.name)' of type '\(typeName)' cannot be stored: \(reason)",
                    at: property.location)
                continue
            }
            if let access = property.access, access <= .fileprivate {
                error("stored property '\(property.name)' is \(access == .private ? "private" : "fileprivate"): "
                    + "the generated coder in another file cannot read it; make it internal, or mark it "
                    + "'@transient'", at: property.location)
                continue
            }
            if let annotation = annotations[.metadata] {
                if let indexed = annotations[.indexed] {
                    error("'@indexed' cannot be on the '@metadata' property '\(property.name)': annotate the fields "
                        + "of its type instead", at: indexed.location)
                }
                if let relationship = annotations[.relationship] {
                    error("'@relationship' cannot be on the '@metadata' property '\(property.name)': an edge is "
                        + "held by a stored field of the item", at: relationship.location)
                }
                if let first = metadata {
                    error("'\(type.qualifiedName)' already has '@metadata' property '\(first.name)'",
                        at: annotation.location)
                } else if !Self.isOptional(shape) {
                    error("'@metadata' property '\(property.name)' must be optional: an item may have no metadata",
                        at: property.location)
                } else if property.isLet {
                    error("'@metadata' property '\(property.name)' must be a 'var': reads set it",
                        at: property.location)
                } else {
                    metadata = property
                }
                continue
            }
            if let annotation = annotations[.searchable], isPersistable || isMetadataType(type.qualifiedName) {
                checkSearchable(property, shape: shape, annotation: annotation)
            }
            if let annotation = annotations[.indexed], isPersistable || isMetadataType(type.qualifiedName) {
                checkIndexedType(of: property, shape: shape, annotation: annotation, in: type.qualifiedName)
            }
            persisted.append(property)
        }
        return persisted
    }

    private static func isOptional(_ shape: TypeShape) -> Bool {
        if case .optional = shape { return true }
        return false
    }

    private static func storedType(of property: ParsedProperty) -> (String, Bool) {
        switch property.shape {
        case .optional(let wrapped): (wrapped, true)
        case .value(let type): (type, false)
        case .unsupported, nil: (property.typeName ?? "", false)
        }
    }

    /// Reports two names of one message whose field numbers are equal.
    ///
    /// Every name a field has had is read as that field, and its first name is the number it is
    /// written under (its identity): two fields sharing any of these numbers would read each
    /// other's data. A collision is reported where the second name is written: the property for
    /// its current name, the `from:` argument of its `@renamed` for an earlier one.
    private mutating func checkCollisions(
        _ fields: [FieldDescription], _ locations: [SourceLocation], renameLocations: [[SourceLocation]] = [],
        in owner: String
    ) {
        var seen: [UInt32: String] = [:]
        for (index, (field, location)) in zip(fields, locations).enumerated() {
            let earlier = index < renameLocations.count ? renameLocations[index] : []
            var names = field.previousNames.enumerated().map { position, previous in
                let role = position == 0 ? "the stored name" : "an earlier name"
                return (
                    name: previous.name, number: previous.number, role: " (\(role) of '\(field.name)')",
                    location: position < earlier.count ? earlier[position] : location
                )
            }
            names.append((name: field.name, number: FieldNumber.of(field.name), role: "", location: location))
            for name in names {
                guard let other = seen[name.number] else {
                    seen[name.number] = name.name
                    continue
                }
                let detail = other == name.name ? "is used twice" : "collides with the field number of '\(other)'"
                let advice =
                    name.role.isEmpty
                    ? "rename one of them"
                    : "the names a field had must differ from every other name of the type, past or present"
                error(
                    "the field number \(FieldNumber.literal(name.number)) of '\(name.name)'\(name.role) \(detail) in "
                        + "'\(owner)'; \(advice)", at: name.location)
            }
        }
    }

    /// Checks that the decoder's initializer call will compile.
    private mutating func checkInitializer(
        of type: ParsedType, kind: TypeDescription.Kind, persisted: [ParsedProperty], in file: ParsedFile
    ) {
        let labels = persisted.map(\.name)
        let call = "init(" + labels.map { "\($0):" }.joined() + ")"
        switch kind {
        case .struct:
            guard !type.initializers.isEmpty else {
                // The memberwise initializer is private when a stored property is. A private
                // persisted property is reported already; a private transient one is not.
                for property in type.properties where !property.isStatic && !property.isComputed
                    && property.annotations.contains(where: { $0.name == AnnotationName.transient.rawValue })
                {
                    if let access = property.access, access <= .fileprivate {
                        error("stored property '\(property.name)' makes the memberwise initializer of "
                            + "'\(type.qualifiedName)' \(access == .private ? "private" : "fileprivate"), so the "
                            + "generated decoder cannot call it; give it internal access or declare '\(call)'",
                            at: property.location)
                    }
                }
                return
            }
            if !type.initializers.contains(labels) {
                error("struct '\(type.qualifiedName)' declares an initializer in its body, so Swift does not "
                    + "synthesize the memberwise initializer the generated decoder calls; move the initializer "
                    + "into an extension, or declare '\(call)'", at: type.location)
            }
        case .finalClass:
            let candidates = type.initializers + (file.extensionInitializers[type.qualifiedName] ?? [])
            if !candidates.contains(labels) {
                error("final class '\(type.qualifiedName)' needs an initializer '\(call)' taking every stored "
                    + "property by name, in declaration order: the generated decoder calls it", at: type.location)
            }
        case .enum:
            break
        }
    }

    // MARK: Enums

    private static let rawValueTypes: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Bool",
    ]

    /// The raw type of an enum that has one, read from the first inherited type.
    static func rawValueType(of type: ParsedType) -> String? {
        guard type.kind == .enum, let first = type.inheritedTypes.first,
            rawValueTypes.contains(first) || type.cases.contains(where: \.hasRawValue)
        else { return nil }
        return first
    }

    private mutating func describeCases(of type: ParsedType) -> [CaseDescription] {
        if type.cases.isEmpty {
            error("enum '\(type.qualifiedName)' has no cases to store", at: type.location)
        }
        let cases = type.cases.map { enumCase in
            let parameters = enumCase.parameters.enumerated().map { index, parameter in
                var storedType = parameter.typeName
                var isOptional = false
                switch parameter.shape {
                case .unsupported(let reason):
                    error("associated value of case '\(enumCase.name)' of type '\(parameter.typeName)' cannot be "
                        + "stored: \(reason)", at: parameter.location)
                case .optional(let wrapped):
                    storedType = wrapped
                    isOptional = true
                case .value:
                    break
                }
                return FieldDescription(
                    name: parameter.label ?? "_\(index)", isLabeled: parameter.label != nil,
                    type: qualify(storedType, in: type.qualifiedName),
                    isOptional: isOptional, defaultValue: parameter.defaultValue)
            }
            checkCollisions(parameters, enumCase.parameters.map(\.location), in: "\(type.qualifiedName).\(enumCase.name)")
            return CaseDescription(name: enumCase.name, parameters: parameters)
        }
        var seen: [UInt32: String] = [:]
        for (description, parsed) in zip(cases, type.cases) {
            if let other = seen[description.number] {
                error("the field number \(FieldNumber.literal(description.number)) of case '\(description.name)' "
                    + "collides with the field number of case '\(other)' in '\(type.qualifiedName)'; rename one of "
                    + "them", at: parsed.location)
            }
            seen[description.number] = description.name
        }
        return cases
    }

    // MARK: Persistable

    private mutating func describePersistable(
        _ type: ParsedType, collection: String, annotation persistableAnnotation: Annotation
    ) -> PersistableDescription? {
        var key: (property: ParsedProperty, annotation: Annotation)?
        var metadata: MetadataDescription?
        var indexes: [IndexDescription] = []
        for property in type.properties where !property.isStatic {
            // Diagnostics for these annotations were reported by `persistedProperties`.
            let annotations = Dictionary(
                property.annotations.compactMap { annotation in
                    AnnotationName(rawValue: annotation.name).map { ($0, annotation) }
                }, uniquingKeysWith: { first, _ in first })
            if let annotation = annotations[.key] {
                if let existing = key {
                    error("'\(type.qualifiedName)' already has '@key' property '\(existing.property.name)'; an item "
                        + "has one key", at: annotation.location)
                } else {
                    key = (property, annotation)
                }
            }
            if annotations[.metadata] != nil, metadata == nil, case .optional(let written) = property.shape {
                let wrapped = qualify(written, in: type.qualifiedName)
                let hasGeneratedCoder = hasMessageCoder(wrapped)
                metadata = MetadataDescription(property: property.name, type: wrapped, hasGeneratedCoder: hasGeneratedCoder)
            }
            if let annotation = annotations[.indexed] {
                let isUnique = if case .bool(true) = annotation.argument("unique")?.value { true } else { false }
                indexes.append(IndexDescription(property: property.name, kind: isUnique ? .unique : .indexed))
            }
            if annotations[.searchable] != nil {
                indexes.append(IndexDescription(property: property.name, kind: .searchable))
            }
        }
        let idProperty = type.properties.first { $0.name == "id" && !$0.isStatic }
        let keyProperty: ParsedProperty
        if let key {
            keyProperty = key.property
            if keyProperty.name != "id", let idProperty {
                error("'\(type.qualifiedName)' declares 'id', but its key is '\(keyProperty.name)': the generated "
                    + "'id' returns the key; remove '@key' or rename 'id'", at: idProperty.location)
            }
        } else if let idProperty {
            keyProperty = idProperty
        } else {
            error("'\(type.qualifiedName)' has no key: annotate the property that identifies an item with "
                + "'// @key', or name it 'id'", at: type.location)
            return nil
        }
        guard let typeName = keyProperty.typeName else { return nil }  // reported as untyped
        switch keyProperty.shape {
        case .optional:
            error("key '\(keyProperty.name)' must not be optional: every item has a key", at: keyProperty.location)
            return nil
        case .value(let keyType) where keyType.hasPrefix("[") || keyType.hasPrefix("Set<"):
            error("key '\(keyProperty.name)' of type '\(keyType)' is not a key type: use String, UUID, an integer, "
                + "or a LosslessStringConvertible type", at: keyProperty.location)
            return nil
        default:
            break
        }
        return PersistableDescription(
            collection: collection,
            key: KeyDescription(property: keyProperty.name, type: qualify(typeName, in: type.qualifiedName)),
            metadata: metadata, indexes: indexes,
            secondaryIndex: describeSecondaryIndex(of: type, metadata: metadata),
            fullTextSearch: describeFullTextSearch(of: type, metadata: metadata, annotation: persistableAnnotation),
            relationships: describeRelationships(of: type))
    }
}
