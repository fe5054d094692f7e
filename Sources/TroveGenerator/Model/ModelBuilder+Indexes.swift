/// The secondary index generated from `@indexed` fields: which fields may be indexed, and the
/// description of each `@persistable` type's index.
extension ModelBuilder {
    /// The stored fields of `type` (neither static, computed, lazy, constant, `@transient` nor
    /// `@metadata`) that carry the annotation `name`, each with that annotation.
    static func storedFields(of type: ParsedType, annotated name: AnnotationName) -> [(ParsedProperty, Annotation)] {
        type.properties.compactMap { property in
            guard !property.isStatic, !property.isComputed, !property.isLazy,
                !(property.isLet && property.defaultValue != nil),
                !property.annotations.contains(where: {
                    $0.name == AnnotationName.transient.rawValue || $0.name == AnnotationName.metadata.rawValue
                }),
                let annotation = property.annotations.first(where: { $0.name == name.rawValue })
            else { return nil }
            return (property, annotation)
        }
    }

    /// Reports an `@indexed` property whose type an index cannot store.
    mutating func checkIndexedType(
        of property: ParsedProperty, shape: TypeShape, annotation: Annotation, in owner: String
    ) {
        let typeName: String
        switch shape {
        case .value(let type), .optional(let type): typeName = qualify(type, in: owner)
        case .unsupported: return  // reported as a type that cannot be stored
        }
        if let element = IndexableTypes.collectionElement(of: typeName) {
            if indexKind(of: qualify(element, in: owner)) == nil {
                let written = property.typeName ?? typeName
                let message =
                    "'@indexed' property '\(property.name)' has type '\(written)', an array or set of '\(element)', "
                    + "which an index cannot store as the values of a multi-valued column; its elements may be: "
                    + IndexableTypes.elementDescription
                error(message, at: annotation.location)
            }
            if case .bool(true) = annotation.argument("unique")?.value {
                let message =
                    "'@indexed(unique: true)' property '\(property.name)' is an array or set: a multi-valued "
                    + "column cannot be unique; remove 'unique: true'"
                error(message, at: annotation.location)
            }
            return
        }
        if indexKind(of: typeName) == nil {
            error("'@indexed' property '\(property.name)' has type '\(property.typeName ?? typeName)', which an "
                + "index cannot store; supported: \(IndexableTypes.supportedDescription)", at: annotation.location)
        }
    }

    /// Whether an index can store `typeName`, and how it is matched: `true` for ranges too,
    /// `false` for equality and membership only, `nil` when it cannot.
    private mutating func indexKind(of typeName: String) -> Bool? {
        if IndexableTypes.comparable.contains(typeName) { return true }
        if IndexableTypes.equatable.contains(typeName) || isIndexableEnum(typeName) { return false }
        return nil
    }

    /// The secondary index of `type`: its `@indexed` stored fields, then those of its metadata
    /// type; `nil` without any. Invalid fields were reported where their types were checked.
    mutating func describeSecondaryIndex(of type: ParsedType, metadata: MetadataDescription?)
        -> SecondaryIndexDescription?
    {
        var columns = indexColumns(of: type, isMetadata: false)
        if let metadata, let metadataType = parsedType(named: metadata.type) {
            columns += indexColumns(of: metadataType, isMetadata: true)
        }
        guard !columns.isEmpty else { return nil }
        var seen: Set<String> = []
        for (column, location) in columns where !seen.insert(column.column).inserted {
            let source = column.isMetadata ? "metadata field" : "field"
            error("the index of '\(type.qualifiedName)' already has a column '\(column.column)': the "
                + "\(source) '\(column.property)' would be a second one; index only one of them",
                at: location)
        }
        let name = IndexableTypes.sanitized(String(type.qualifiedName.map { $0 == "." ? "_" : $0 }) + "_index")
        return SecondaryIndexDescription(name: name, columns: columns.map(\.column))
    }

    /// The columns of the `@indexed` stored properties of `type` whose types an index can store,
    /// with the location of each annotation.
    private mutating func indexColumns(of type: ParsedType, isMetadata: Bool)
        -> [(column: IndexColumnDescription, location: SourceLocation)]
    {
        Self.storedFields(of: type, annotated: .indexed).compactMap { property, annotation in
            let (written, isOptional): (String, Bool)
            switch property.shape {
            case .value(let type): (written, isOptional) = (type, false)
            case .optional(let type): (written, isOptional) = (type, true)
            case .unsupported, nil: return nil
            }
            var typeName = qualify(written, in: type.qualifiedName)
            // An array or a set: a multi-valued column of its elements.
            let element = IndexableTypes.collectionElement(of: typeName)
            if let element { typeName = qualify(element, in: type.qualifiedName) }
            guard let isComparable = indexKind(of: typeName) else { return nil }
            let isUnique = if case .bool(true) = annotation.argument("unique")?.value { true } else { false }
            guard element == nil || !isUnique else { return nil }
            let description = IndexColumnDescription(
                column: IndexableTypes.sanitized(property.name), property: property.name, type: typeName,
                isOptional: isOptional, isUnique: isUnique, isMetadata: isMetadata, isComparable: isComparable,
                isMultiValued: element != nil)
            return (description, annotation.location)
        }
    }
}
