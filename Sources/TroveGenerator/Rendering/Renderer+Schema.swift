/// The context of the generated `SchemaDescribing` conformance of an annotated type: the compact
/// schema that the database records in its file (see the runtime's `ModelSchema`).
extension Renderer {
    func schemaContext(_ type: TypeDescription, access: String) -> TemplateValue {
        var arguments = ["typeName: \(SwiftNames.stringLiteral(type.name))"]
        var fields: [FieldDescription] = []
        var cases: [CaseDescription] = []
        var referenced: [String] = []
        var indexes: [String: String] = [:]
        if let persistable = type.persistable {
            arguments.append("collection: \(SwiftNames.stringLiteral(persistable.collection))")
            if let metadata = persistable.metadata {
                arguments.append("metadataType: \(SwiftNames.stringLiteral(metadata.type))")
                referenced.append(metadata.type)
            }
            for index in persistable.indexes {
                indexes[index.property] = index.kind.rawValue
            }
        }
        switch type.coding {
        case .rawValue(let rawType):
            arguments.append("rawValueType: \(SwiftNames.stringLiteral(rawType))")
        case .message(let messageFields):
            fields = messageFields
        case .cases(let enumCases):
            cases = enumCases
        }
        referenced += fields.map(\.type) + cases.flatMap { $0.parameters.map(\.type) }
        let caseContexts = cases.map { enumCase -> TemplateValue in
            let parameters = enumCase.parameters.map { Self.schemaField($0, index: nil) }
            return [
                "number": .text(FieldNumber.literal(enumCase.number)), "nameLiteral": .text(SwiftNames.stringLiteral(enumCase.name)),
                "hasFields": .flag(!parameters.isEmpty), "fields": .texts(parameters),
            ]
        }
        let references = Self.referencedTypeNames(in: referenced).filter { $0 != type.name }
        return [
            "name": .text(type.name), "access": .text(access),
            "noun": .text(type.persistable == nil ? "values" : "items"),
            "arguments": .text(arguments.joined(separator: ", ")), "hasFields": .flag(!fields.isEmpty),
            "fields": .texts(fields.map { Self.schemaField($0, index: indexes[$0.name]) }),
            "hasCases": .flag(!cases.isEmpty), "cases": .list(caseContexts),
            "references": .text(references.map { "\($0).self" }.joined(separator: ", ")),
        ]
    }

    /// The arguments of `ModelSchema.Field.init` for `field`.
    ///
    /// The stored type goes twice: as written, for people, and as the Swift type itself, from
    /// which the runtime records what the written name resolves to. Only the compiler knows the
    /// target of a typealias (`Project.ID`, `Tags`): it may be declared in a file trove-gen does
    /// not read, in another module, or be inferred (the `ID` of an `Identifiable` type).
    private static func schemaField(_ field: FieldDescription, index: String?) -> String {
        var text = "number: \(FieldNumber.literal(field.number)), name: \(SwiftNames.stringLiteral(field.name)), "
        text += "type: \(SwiftNames.stringLiteral(field.type)), swiftType: \(field.type).self"
        if field.isOptional { text += ", isOptional: true" }
        if let index { text += ", index: \(SwiftNames.stringLiteral(index))" }
        return text
    }

    /// The names of types that `types` mention and the runtime does not encode itself, sorted:
    /// those may be annotated types with schemas of their own.
    static func referencedTypeNames(in types: [String]) -> [String] {
        var names: Set<String> = []
        for type in types {
            var current = ""
            for character in type + " " {
                if character.isLetter || character.isNumber || character == "_" || character == "." {
                    current.append(character)
                } else {
                    if let first = current.first, first.isLetter || first == "_" {
                        names.insert(current)
                    }
                    current = ""
                }
            }
        }
        return names.subtracting(runtimeTypeNames).sorted()
    }

    /// The types whose encoding the runtime defines, which have no schema of their own.
    private static let runtimeTypeNames: Set<String> = [
        "Bool", "String", "Character", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
        "UInt64", "Float", "Double", "Data", "Date", "UUID", "URL", "Decimal", "Array", "Set", "Dictionary", "Optional",
        "Swift.String", "Swift.Int", "Swift.Bool", "Swift.Double", "Foundation.Data", "Foundation.Date",
        "Foundation.UUID", "Foundation.URL", "Foundation.Decimal",
    ]
}
