/// The full-text search generated from `@searchable` fields: which fields may be searchable, and
/// the description of each `@persistable` type's search.
extension ModelBuilder {
    /// Reports a `@searchable` property whose type is not text, or whose weight is not a positive
    /// number.
    mutating func checkSearchable(_ property: ParsedProperty, shape: TypeShape, annotation: Annotation) {
        if Self.searchColumnKind(of: shape) == nil {
            error("'@searchable' applies to String, String? and [String] properties; '\(property.name)' is "
                + "'\(property.typeName ?? "unknown")'", at: annotation.location)
        }
        if let argument = annotation.argument("weight"), case .number(let literal) = argument.value {
            if !(Double(literal).map { $0 > 0 && $0.isFinite } ?? false) {
                error("the weight of '@searchable' must be a positive number; '\(property.name)' has \(literal)",
                    at: argument.location)
            }
        }
    }

    /// How a column reads a property of `shape`, or `nil` when the property is not text.
    static func searchColumnKind(of shape: TypeShape) -> SearchColumnDescription.Kind? {
        switch shape {
        case .value("String"): .text
        case .optional("String"): .optionalText
        case .value("[String]"), .value("Array<String>"): .list
        default: nil
        }
    }

    /// The full-text search of `type`: its `@searchable` stored fields, then those of its metadata
    /// type; `nil` without any. Invalid fields were reported where their types were checked.
    ///
    /// - Parameters:
    ///   - type: The `@persistable` type.
    ///   - metadata: Its metadata property, if any.
    ///   - annotation: Its `@persistable` annotation, which may name the tokenizer.
    mutating func describeFullTextSearch(
        of type: ParsedType, metadata: MetadataDescription?, annotation: Annotation?
    ) -> FullTextSearchDescription? {
        var columns = searchColumns(of: type, isMetadata: false)
        if let metadata, let metadataType = parsedType(named: metadata.type) {
            columns += searchColumns(of: metadataType, isMetadata: true)
        }
        var tokenizer = SearchTokenizer.unicode61
        if let argument = annotation?.argument("searchTokenizer"), case .string(let name) = argument.value {
            if let named = SearchTokenizer(rawValue: name) {
                tokenizer = named
            } else {
                error("unknown search tokenizer \"\(name)\"; expected "
                    + SearchTokenizer.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "),
                    at: argument.location)
            }
            if columns.isEmpty {
                error("'searchTokenizer' has no effect: no field of '\(type.qualifiedName)' or of its metadata is "
                    + "'@searchable'", at: argument.location)
            }
        }
        guard !columns.isEmpty else { return nil }
        var seen: Set<String> = []
        for (column, location) in columns where !seen.insert(column.column).inserted {
            let source = column.isMetadata ? "metadata field" : "field"
            error("the search of '\(type.qualifiedName)' already has a column '\(column.column)': the "
                + "\(source) '\(column.property)' would be a second one; make only one of them '@searchable'",
                at: location)
        }
        let name = IndexableTypes.sanitized(String(type.qualifiedName.map { $0 == "." ? "_" : $0 }) + "_search")
        return FullTextSearchDescription(name: name, tokenizer: tokenizer, columns: columns.map(\.column))
    }

    /// The columns of the `@searchable` stored properties of `type` that hold text, with the
    /// location of each annotation.
    private func searchColumns(of type: ParsedType, isMetadata: Bool)
        -> [(column: SearchColumnDescription, location: SourceLocation)]
    {
        Self.storedFields(of: type, annotated: .searchable).compactMap { property, annotation in
            guard let shape = property.shape, let kind = Self.searchColumnKind(of: shape) else { return nil }
            var weight: String?
            if case .number(let literal) = annotation.argument("weight")?.value { weight = literal }
            let description = SearchColumnDescription(
                column: IndexableTypes.sanitized(property.name), property: property.name, kind: kind, weight: weight,
                isMetadata: isMetadata)
            return (description, annotation.location)
        }
    }
}
