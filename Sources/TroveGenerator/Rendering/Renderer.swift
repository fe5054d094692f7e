import TroveTemplates

/// Turns a ``FileDescription`` into the text of a generated Swift file, through the templates
/// of `Templates/`.
///
/// Rendering is deterministic: the same description always gives the same bytes.
package struct Renderer: Sendable {
    /// The templates compiled into the tool, by name: compiled once per process.
    private static let templates: Result<[String: Template], TemplateError> = Result {
        () throws(TemplateError) -> [String: Template] in
        var templates: [String: Template] = [:]
        for (name, text) in TroveTemplates.all.sorted(by: { $0.key < $1.key }) {
            templates[name] = try Template(text, named: name)
        }
        return templates
    }

    private let templates: [String: Template]

    /// Creates a renderer with the templates compiled into the tool.
    ///
    /// - Throws: ``TemplateError`` when a template does not compile; the reference tests catch
    ///   this before a release.
    package init() throws {
        templates = try Self.templates.get()
    }

    /// Renders the file generated for one input.
    ///
    /// - Parameters:
    ///   - file: The annotated types of the input, or `nil` for an input without annotations,
    ///     which gets a header-only file.
    ///   - sourcePath: The input's path relative to the source root, for the header.
    /// - Returns: The file's text, ending with one newline.
    package func render(_ file: FileDescription?, sourcePath: String) -> String {
        var sections = [render("Header", ["sourcePath": .text(sourcePath)])]
        if let file, !file.types.isEmpty {
            sections.append(render("File", [:]))
            for type in file.types {
                sections += renderType(type)
            }
        }
        return sections.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined(separator: "\n")
    }

    func render(_ template: String, _ context: TemplateValue) -> String {
        guard let template = templates[template] else {
            preconditionFailure("template \(template) is not compiled into trove-gen")
        }
        return template.render(context)
    }

    private func renderType(_ type: TypeDescription) -> [String] {
        let access = type.accessModifier.isEmpty ? "" : type.accessModifier + " "
        var conformances: [String] = []
        var sections: [String] = []
        if let persistable = type.persistable {
            conformances.append("Persistable")
            sections.append(render("Persistable", persistableContext(type, persistable, access: access)))
            var extensions: [(expression: String, description: String)] = []
            if let index = persistable.secondaryIndex {
                sections.append(render("SecondaryIndex", secondaryIndexContext(type, index, access: access)))
                extensions.append(("index.databaseExtension", "its secondary index"))
            }
            if let search = persistable.fullTextSearch {
                sections.append(render("FullTextSearch", fullTextSearchContext(type, search, access: access)))
                extensions.append(("fullTextSearch.databaseExtension", "its full-text search"))
            }
            if let relationships = persistable.relationships {
                sections.append(render("Relationships", relationshipsContext(type, relationships, access: access)))
                extensions.append(("relationships.databaseExtension", "its relationships"))
            }
            if !extensions.isEmpty {
                conformances.append("DatabaseExtensionProviding")
                let context: TemplateValue = [
                    "name": .text(type.name), "access": .text(access),
                    "summary": .text(extensions.map(\.description).joined(separator: ", ")),
                    "list": .text(extensions.map(\.expression).joined(separator: ", ")),
                ]
                sections.append(render("DatabaseExtensions", context))
            }
        }
        switch type.coding {
        case .rawValue(let rawType):
            conformances.append("BinaryCodable")
            if IndexableTypes.rawValueTypes.contains(rawType) {
                // Stored by raw value in an index, through the runtime's default implementation.
                conformances.append("IndexValueConvertible")
            }
        case .message(let fields):
            conformances.append("BinaryMessage")
            sections.append(render("Message", messageContext(type, fields, access: access)))
        case .cases(let cases):
            conformances.append("BinaryMessage")
            sections.append(render("EnumMessage", enumContext(type, cases, access: access)))
        }
        conformances.append("SchemaDescribing")
        sections.append(render("Schema", schemaContext(type, access: access)))
        let header: TemplateValue = [
            "name": .text(type.name),
            "conformances": .text(conformances.joined(separator: ", ")),
            "nonisolatedConformances": .text(conformances.map { "nonisolated \($0)" }.joined(separator: ", ")),
        ]
        return [render("Conformances", header)] + sections
    }

    private func persistableContext(
        _ type: TypeDescription, _ persistable: PersistableDescription, access: String
    ) -> TemplateValue {
        let key = persistable.key
        let metadata = persistable.metadata.map { metadata -> TemplateValue in
            [
                "type": .text(metadata.type),
                "coder": .text(
                    metadata.hasGeneratedCoder ? "MessageCoder<\(metadata.type)>" : "CodableCoder<\(metadata.type)>"),
                "coderDescription": .text(
                    metadata.hasGeneratedCoder
                        ? "with its generated binary coder" : "as JSON, because `\(metadata.type)` is not annotated"),
                "accessor": metadata.property == "metadata"
                    ? nil
                    : [
                        "property": .text(metadata.property),
                        "swiftProperty": .text(SwiftNames.identifier(metadata.property)),
                    ],
            ]
        }
        return [
            "name": .text(type.name),
            "access": .text(access),
            "collectionLiteral": .text(SwiftNames.stringLiteral(persistable.collection)),
            "key": key.property == "id"
                ? nil
                : [
                    "typeName": .text(type.name), "property": .text(key.property),
                    "swiftProperty": .text(SwiftNames.identifier(key.property)), "type": .text(key.type),
                ],
            "metadata": metadata,
        ]
    }

    private func field(_ field: FieldDescription) -> TemplateValue {
        // A renamed field is written under its first name's number and read under every name it
        // has had: the comments say which name each number is.
        var encodeComment = field.name
        var caseComment = field.name
        if !field.previousNames.isEmpty {
            let stored = " (stored as \"\(field.storedName)\""
            encodeComment += stored + ")"
            let alsoRead = field.previousNames.dropFirst().map(\.name) + [field.name]
            caseComment += stored + "; also read as " + alsoRead.map { "\"\($0)\"" }.joined(separator: ", ") + ")"
        }
        return [
            "name": .text(field.name),
            "swiftName": .text(SwiftNames.identifier(field.name)),
            "localName": .text(SwiftNames.local(field.name)),
            "type": .text(field.type),
            "encodeMethod": .text(field.isOptional ? "encodeIfPresent" : "encode"),
            "numberLiteral": .text(FieldNumber.literal(field.number)),
            "encodeComment": .text(encodeComment),
            "caseNumbers": .text(field.readNumbers.map(FieldNumber.literal).joined(separator: ", ")),
            "caseComment": .text(caseComment),
        ]
    }

    /// The expression that gives a field its value after the read loop.
    private func argumentValue(_ field: FieldDescription) -> String {
        let local = SwiftNames.local(field.name)
        if field.isOptional { return local }
        if let defaultValue = field.defaultValue { return "\(local) ?? \(defaultValue)" }
        return "try reader.required(\(local), field: \"\(field.name)\")"
    }

    private func argument(_ field: FieldDescription) -> String {
        field.isLabeled ? "\(field.name): \(argumentValue(field))" : argumentValue(field)
    }

    private func messageContext(_ type: TypeDescription, _ fields: [FieldDescription], access: String)
        -> TemplateValue
    {
        var arguments = fields.map(argument)
        for index in arguments.indices.dropLast() { arguments[index] += "," }
        let encodeNote = type.persistable == nil ? "" : "; its metadata is stored in its own column"
        return [
            "name": .text(type.name), "access": .text(access), "encodeNote": .text(encodeNote),
            "fields": .list(fields.map(field)), "hasArguments": .flag(!arguments.isEmpty),
            "arguments": .texts(arguments),
        ]
    }

    private func enumContext(_ type: TypeDescription, _ cases: [CaseDescription], access: String)
        -> TemplateValue
    {
        [
            "name": .text(type.name),
            "access": .text(access),
            "cases": .list(cases.map { enumCase in
                let parameters = enumCase.parameters
                let pattern =
                    parameters.isEmpty
                    ? "" : "(" + parameters.map { "let \(SwiftNames.local($0.name))" }.joined(separator: ", ") + ")"
                let arguments = parameters.map(argument).joined(separator: ", ")
                let swiftName = SwiftNames.identifier(enumCase.name)
                return [
                    "name": .text(enumCase.name),
                    "swiftName": .text(swiftName),
                    "pattern": .text(pattern),
                    "numberLiteral": .text(FieldNumber.literal(enumCase.number)),
                    "hasParameters": .flag(!parameters.isEmpty),
                    "parameters": .list(parameters.map(field)),
                    "construction": .text(parameters.isEmpty ? ".\(swiftName)" : ".\(swiftName)(\(arguments))"),
                ]
            }),
        ]
    }
}
