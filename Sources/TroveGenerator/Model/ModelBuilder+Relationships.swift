/// The relationships generated from `@relationship` fields: which fields may hold edges, and the
/// description of each `@persistable` type's relationships.
extension ModelBuilder {
    /// The relationships of `type`: one edge per `@relationship` stored field; `nil` without any.
    /// Annotations on fields that cannot hold edges (computed, `@transient`, `@metadata`,
    /// constants) were reported where the fields were checked.
    ///
    /// - Parameter type: The `@persistable` type.
    mutating func describeRelationships(of type: ParsedType) -> RelationshipsDescription? {
        var edges: [RelationshipEdgeDescription] = []
        var names: Set<String> = []
        for (property, annotation) in Self.storedFields(of: type, annotated: .relationship) {
            guard let edge = describeEdge(property, annotation, in: type) else { continue }
            guard names.insert(edge.name).inserted else {
                error("'\(type.qualifiedName)' already has a relationship named '\(edge.name)'; give "
                    + "'\(property.name)' another one with 'name:'", at: annotation.location)
                continue
            }
            edges.append(edge)
        }
        guard !edges.isEmpty else { return nil }
        // An edge to files generates no query: it claims no name on any type.
        for edge in edges where !edge.isFile {
            let location = locationOfRelationship(edge.property, in: type)
            claimQuery(edge.name, on: type.qualifiedName, by: Self.edgeClaimant(edge.property, of: type.qualifiedName),
                at: location, argument: "name")
            claimQuery(edge.inverse, on: edge.destination,
                by: Self.inverseClaimant(edge.property, of: type.qualifiedName), at: location, argument: "inverse")
        }
        let name = IndexableTypes.sanitized(String(type.qualifiedName.map { $0 == "." ? "_" : $0 }) + "_relationships")
        return RelationshipsDescription(name: name, edges: edges)
    }

    private func locationOfRelationship(_ property: String, in type: ParsedType) -> SourceLocation {
        let annotations = type.properties.first { $0.name == property }?.annotations ?? []
        return annotations.first { $0.name == AnnotationName.relationship.rawValue }?.location ?? type.location
    }

    /// Reports a query named `name` on `owner` that another relationship, of any input, generated
    /// first (see ``TypeTable``, which gathers every input's claims, so that an incremental run
    /// sees a clash with a file it did not describe again).
    private mutating func claimQuery(
        _ name: String, on owner: String, by claimant: String, at location: SourceLocation, argument: String
    ) {
        let claimants = relationshipQueryClaimants(on: owner, named: name)
        if let first = claimants.first, first != claimant {
            error("'\(owner)' would get two relationship queries named '\(name)': one for \(first), one for \(claimant); "
                + "name one of them with '\(argument):'", at: location)
        }
    }

    /// How a message names the query of the edge `property` of `type`.
    static func edgeClaimant(_ property: String, of type: String) -> String {
        "the relationship '\(property)' of '\(type)'"
    }

    /// How a message names the inverse query of the edge `property` of `type`.
    static func inverseClaimant(_ property: String, of type: String) -> String {
        "the inverse of the relationship '\(property)' of '\(type)'"
    }

    /// The queries the `@relationship` fields of `type` generate, read from its declaration alone:
    /// the edge's name on `type`, and its inverse on the destination as written in `to:`. An edge to
    /// files (`toFiles:`) generates none, so it claims nothing.
    ///
    /// What ``TypeTable`` gathers from every input to find two queries of one name on one type.
    static func relationshipQueryClaims(of type: ParsedType) -> [RelationshipQueryClaim] {
        guard type.annotations.contains(where: { $0.name == AnnotationName.persistable.rawValue }) else { return [] }
        var claims: [RelationshipQueryClaim] = []
        var names: Set<String> = []
        for (property, annotation) in storedFields(of: type, annotated: .relationship) {
            guard case .type(let written)? = annotation.argument("to")?.value else { continue }
            let (name, inverse) = queryNames(of: property, annotation, in: type)
            guard names.insert(name).inserted else { continue }
            claims.append(
                RelationshipQueryClaim(
                    owner: type.qualifiedName, isWritten: false, name: name,
                    claimant: edgeClaimant(property.name, of: type.qualifiedName)))
            claims.append(
                RelationshipQueryClaim(
                    owner: written, isWritten: true, name: inverse,
                    claimant: inverseClaimant(property.name, of: type.qualifiedName)))
        }
        return claims
    }

    /// The edge of one `@relationship` property, or `nil` after reporting why it cannot be one.
    private mutating func describeEdge(_ property: ParsedProperty, _ annotation: Annotation, in type: ParsedType)
        -> RelationshipEdgeDescription?
    {
        let toArgument: Annotation.Argument
        switch (annotation.argument("to"), annotation.argument("toFiles")) {
        case (nil, nil):
            error("'@relationship' needs the argument 'to:' (an edge to the items of a type) or 'toFiles:' (an edge "
                + "to files in a folder)", at: annotation.location)
            return nil
        case (.some, .some):
            error("'@relationship' takes 'to:' (an edge to the items of a type) or 'toFiles:' (an edge to files in a "
                + "folder), not both", at: annotation.location)
            return nil
        case (nil, .some(let folderArgument)):
            // A mistyped `toFiles:` was reported with the annotation's arguments.
            guard case .string(let folder) = folderArgument.value else { return nil }
            return describeFileEdge(property, annotation, folder: folder, at: folderArgument.location)
        case (.some(let argument), nil):
            toArgument = argument
        }
        // A mistyped `to:` was reported with the annotation's arguments.
        guard case .type(let written) = toArgument.value else { return nil }
        let destinationName = qualify(written, in: type.qualifiedName)
        let declared = annotatedType(exactly: destinationName) ?? annotatedType(exactly: written)
        guard let destination = declared,
            destination.annotations.contains(where: { $0.name == AnnotationName.persistable.rawValue })
        else {
            let what = declared == nil ? "not declared" : "@coded"
            error("'@relationship' of '\(property.name)' points to '\(written)', which is \(what) in the inputs of "
                + "trove-gen; an edge points to the items of a @persistable type of the same target",
                at: toArgument.location)
            return nil
        }
        let destinationKey = keyType(of: destination)
        guard let shape = edgeShape(of: property, destination: destination, written: written, key: destinationKey,
            owner: type.qualifiedName)
        else {
            let keyNote = destinationKey.map { " ('\(destination.qualifiedName).ID' is '\($0)')" } ?? ""
            error("'@relationship' property '\(property.name)' has type '\(property.typeName ?? "unknown")'; it must "
                + "hold the key of '\(destination.qualifiedName)'\(keyNote): '\(written).ID', an optional of it, or "
                + "an array or set of it", at: annotation.location)
            return nil
        }
        let rules = deleteRules(of: annotation)
        let (name, inverse) = Self.queryNames(of: property, annotation, in: type)
        for (label, value) in [("name", name), ("inverse", inverse)] where !Self.isIdentifier(value) {
            error("the '\(label)' of '@relationship' must be a Swift identifier: it names a generated query; "
                + "'\(value)' is not", at: annotation.argument(label)?.location ?? annotation.location)
        }
        let access = min(type.access, destination.access)
        return RelationshipEdgeDescription(
            name: name, property: property.name, destination: destination.qualifiedName, shape: shape,
            rules: rules.map(\.runtimeName), inverse: inverse,
            inverseAccessModifier: access >= .public ? "public" : access == .package ? "package" : "")
    }

    /// The rules of `onDelete:`, in the runtime's order of `RelationshipRule.allCases`, after
    /// reporting each unknown or repeated one.
    private mutating func deleteRules(of annotation: Annotation) -> [RelationshipRule] {
        var rules: Set<RelationshipRule> = []
        if let argument = annotation.argument("onDelete"), case .members(let names) = argument.value {
            for name in names {
                guard let rule = RelationshipRule(rawValue: name) else {
                    var message = "unknown delete rule '.\(name)' of '@relationship'"
                    if let rule = RelationshipRule.allCases.first(where: { $0.runtimeName == name }) {
                        message += "; in an annotation it is written '.\(rule.rawValue)'"
                    } else {
                        message += "; expected " + RelationshipRule.allCases.map { "'.\($0.rawValue)'" }
                            .joined(separator: ", ")
                    }
                    error(message, at: argument.location)
                    continue
                }
                if !rules.insert(rule).inserted {
                    error("the delete rule '.\(name)' is listed twice", at: argument.location)
                }
            }
        }
        return RelationshipRule.allCases.filter(rules.contains)
    }

    /// The edge to files of one `@relationship(toFiles:)` property, or `nil` after reporting why
    /// it cannot be one. Its name is `name:`, or the property's name as written (an edge to files
    /// generates no query, so no suffix is dropped).
    private mutating func describeFileEdge(
        _ property: ParsedProperty, _ annotation: Annotation, folder: String, at folderLocation: SourceLocation
    ) -> RelationshipEdgeDescription? {
        var isValid = true
        if folder.isEmpty {
            error("'toFiles:' of '@relationship' names the folder of the files (relative to the database file's "
                + "folder, or absolute); it cannot be empty", at: folderLocation)
            isValid = false
        }
        if let inverse = annotation.argument("inverse") {
            error("'inverse:' does not apply to an edge to files: a file has no type to put the query of its "
                + "sources on", at: inverse.location)
            isValid = false
        }
        let shape = pathShape(of: property)
        if shape == nil {
            error("'@relationship' property '\(property.name)' has type '\(property.typeName ?? "unknown")'; an edge "
                + "to files holds paths: 'String', 'String?', '[String]', 'Set<String>', or an optional array or "
                + "set of them", at: annotation.location)
            isValid = false
        }
        let rules = deleteRules(of: annotation)
        let fileRules = RelationshipRule.fileRules
        if let argument = annotation.argument("onDelete") {
            for rule in rules where !fileRules.contains(rule) {
                error("the delete rule '.\(rule.rawValue)' does not apply to files: an edge to files takes only "
                    + fileRules.map { "'.\($0.rawValue)'" }.joined(separator: " and ") + ", which remove a file with "
                    + "its source or with its last source", at: argument.location)
                isValid = false
            }
        }
        var name = property.name
        if let argument = annotation.argument("name"), case .string(let written) = argument.value {
            name = written
            if written.isEmpty {
                error("the 'name' of '@relationship' cannot be empty", at: argument.location)
                isValid = false
            }
        }
        guard isValid, let shape else { return nil }
        return RelationshipEdgeDescription(
            name: name, property: property.name, folder: folder, shape: shape, rules: rules.map(\.runtimeName))
    }

    /// How `property` holds paths: a `String`, an optional one, or an array or set of them, or
    /// an optional array or set; `nil` for any other type.
    private func pathShape(of property: ParsedProperty) -> RelationshipEdgeDescription.Shape? {
        Self.shape(of: property) { element in element == "String" || element == "Swift.String" }
    }

    /// The names of the queries an edge generates: its own on the source (`name:`, or the
    /// property's name without `ID`), and its inverse on the destination (`inverse:`, or the
    /// source type's name in the plural). The one rule for the edge and for ``TypeTable``'s claims.
    private static func queryNames(of property: ParsedProperty, _ annotation: Annotation, in type: ParsedType)
        -> (name: String, inverse: String)
    {
        func string(_ label: String) -> String? {
            if case .string(let value) = annotation.argument(label)?.value { value } else { nil }
        }
        return (
            string("name") ?? edgeName(of: property.name), string("inverse") ?? pluralQueryName(of: type.qualifiedName)
        )
    }

    /// The key type of a `@persistable` type, qualified: its `@key` property's, or its `id`'s.
    private mutating func keyType(of type: ParsedType) -> String? {
        let key =
            type.properties.first { !$0.isStatic && $0.annotations.contains { $0.name == AnnotationName.key.rawValue } }
            ?? type.properties.first { !$0.isStatic && $0.name == "id" }
        guard case .value(let written)? = key?.shape else { return nil }
        return qualify(written, in: type.qualifiedName)
    }

    /// How `property` holds keys of `destination`, or `nil` when its type holds none.
    private mutating func edgeShape(
        of property: ParsedProperty, destination: ParsedType, written: String, key: String?, owner: String
    ) -> RelationshipEdgeDescription.Shape? {
        Self.shape(of: property) { element in
            if element == written + ".ID" || element == destination.qualifiedName + ".ID" { return true }
            if element.hasSuffix(".ID"), qualify(String(element.dropLast(3)), in: owner) == destination.qualifiedName {
                return true
            }
            return key != nil && qualify(element, in: owner) == key
        }
    }

    /// How `property` holds values of which `isElement` says yes (keys or paths): one, an optional
    /// one, an array or set of them, or an optional array or set; `nil` for any other type.
    /// `isElement` gets the type as written, without the spaces around it.
    private static func shape(
        of property: ParsedProperty, isElement: (String) -> Bool
    ) -> RelationshipEdgeDescription.Shape? {
        let (type, isOptional): (String, Bool)
        switch property.shape {
        case .value(let value): (type, isOptional) = (value, false)
        case .optional(let wrapped): (type, isOptional) = (wrapped, true)
        case .unsupported, nil: return nil
        }
        func isKey(_ element: String) -> Bool { isElement(element.trimmingSpaces) }
        if isKey(type) { return isOptional ? .optionalKey : .key }
        var element: Substring?
        var isSet = false
        if type.hasPrefix("["), type.hasSuffix("]"), !type.contains(":") {
            element = type.dropFirst().dropLast()
        } else if type.hasPrefix("Array<"), type.hasSuffix(">") {
            element = type.dropFirst(6).dropLast()
        } else if type.hasPrefix("Set<"), type.hasSuffix(">") {
            element = type.dropFirst(4).dropLast()
            isSet = true
        }
        guard let element, isKey(String(element)) else { return nil }
        switch (isSet, isOptional) {
        case (false, false): return .array
        case (true, false): return .set
        case (false, true): return .optionalArray
        case (true, true): return .optionalSet
        }
    }

    /// The default name of an edge: the property's, without a trailing `ID`, `IDs`, `Key` or
    /// `Keys` (`authorID` gives `author`, `tagIDs` gives `tags`).
    static func edgeName(of property: String) -> String {
        for (suffix, isPlural) in [("IDs", true), ("Ids", true), ("Keys", true), ("ID", false), ("Id", false), ("Key", false)]
        where property.hasSuffix(suffix) && property.count > suffix.count {
            let base = String(property.dropLast(suffix.count))
            return isPlural ? plural(of: base) : base
        }
        return property
    }

    /// The default name of the query of the sources on the destination: the source type's
    /// name in the plural, lower camel case (`Post` gives `posts`, `Library.Category` gives
    /// `categories`).
    static func pluralQueryName(of typeName: String) -> String {
        let last = typeName.split(separator: ".").last.map(String.init) ?? typeName
        return plural(of: last.prefix(1).lowercased() + last.dropFirst())
    }

    /// `word` in the plural: `categories`, `boxes`, `posts`.
    private static func plural(of lowered: String) -> String {
        if lowered.hasSuffix("y"), let before = lowered.dropLast().last, !"aeiou".contains(before) {
            return lowered.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: lowered.hasSuffix) { return lowered + "es" }
        return lowered + "s"
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
