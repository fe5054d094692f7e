import Mustache
import TroveTemplates

/// Turns a ``FileDescription`` into the text of a generated Swift file, through the templates
/// of `Templates/`.
///
/// Rendering is deterministic: the same description always gives the same bytes.
package struct Renderer: Sendable {
    private let library: MustacheLibrary

    /// Creates a renderer with the templates compiled into the tool.
    ///
    /// - Throws: An error when a template does not parse; the reference tests catch this
    ///   before a release.
    package init() throws {
        var library = MustacheLibrary()
        for (name, text) in TroveTemplates.all.sorted(by: { $0.key < $1.key }) {
            try library.register(text, named: name)
        }
        self.library = library
    }

    /// Renders the file generated for one input.
    ///
    /// - Parameters:
    ///   - file: The annotated types of the input, or `nil` for an input without annotations,
    ///     which gets a header-only file.
    ///   - sourcePath: The input's path relative to the source root, for the header.
    /// - Returns: The file's text, ending with one newline.
    package func render(_ file: FileDescription?, sourcePath: String) -> String {
        var sections = [render("Header", HeaderContext(sourcePath: sourcePath))]
        if let file, !file.types.isEmpty {
            sections.append(render("File", ()))
            for type in file.types {
                sections += renderType(type)
            }
        }
        return sections.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined(separator: "\n")
    }

    func render(_ template: String, _ context: Any) -> String {
        guard let text = library.render(Self.lookupTable(of: context) ?? context, withTemplate: template) else {
            preconditionFailure("template \(template) is not compiled into trove-gen")
        }
        return text
    }

    /// `value` with every struct in it turned into a dictionary of its stored properties, each
    /// read once by reflection; `nil` for an optional that holds nothing.
    ///
    /// swift-mustache reflects a struct anew for every name a template looks up, and for every
    /// miss while it searches the enclosing contexts: that was about half of a cold run in
    /// release. A dictionary answers by hashing. The values are the same, so the output is too
    /// (the reference tests compare it byte for byte).
    static func lookupTable(of value: Any) -> Any? {
        // (Strings, booleans and integers are the leaves: most values, so they are tested first.)
        switch value {
        case is String, is Bool, is Int: return value
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.flatMap { lookupTable(of: $0.value) }
        case .collection:
            return mirror.children.map { lookupTable(of: $0.value) ?? $0.value }
        case .struct:
            var table: [String: Any] = [:]
            for child in mirror.children {
                // A `nil` property is left out, as swift-mustache's reflection reports it: missing,
                // so that the template looks the name up in the enclosing contexts.
                if let label = child.label, let entry = lookupTable(of: child.value) { table[label] = entry }
            }
            return table
        default:
            return value
        }
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
                let context = DatabaseExtensionsContext(
                    name: type.name, access: access,
                    summary: extensions.map(\.description).joined(separator: ", "),
                    list: extensions.map(\.expression).joined(separator: ", "))
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
        let header = ConformancesContext(
            name: type.name,
            conformances: conformances.joined(separator: ", "),
            nonisolatedConformances: conformances.map { "nonisolated \($0)" }.joined(separator: ", "))
        return [render("Conformances", header)] + sections
    }

    private func persistableContext(
        _ type: TypeDescription, _ persistable: PersistableDescription, access: String
    ) -> PersistableContext {
        let key = persistable.key
        var metadataContext: PersistableContext.Metadata?
        if let metadata = persistable.metadata {
            metadataContext = PersistableContext.Metadata(
                type: metadata.type,
                coder: metadata.hasGeneratedCoder ? "MessageCoder<\(metadata.type)>" : "CodableCoder<\(metadata.type)>",
                coderDescription: metadata.hasGeneratedCoder
                    ? "with its generated binary coder" : "as JSON, because `\(metadata.type)` is not annotated",
                accessor: metadata.property == "metadata"
                    ? nil
                    : .init(property: metadata.property, swiftProperty: SwiftNames.identifier(metadata.property)))
        }
        return PersistableContext(
            name: type.name,
            access: access,
            collectionLiteral: SwiftNames.stringLiteral(persistable.collection),
            key: key.property == "id"
                ? nil
                : .init(
                    typeName: type.name, property: key.property, swiftProperty: SwiftNames.identifier(key.property),
                    type: key.type),
            metadata: metadataContext)
    }

    private func field(_ field: FieldDescription) -> MessageContext.Field {
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
        return MessageContext.Field(
            name: field.name,
            swiftName: SwiftNames.identifier(field.name),
            localName: SwiftNames.local(field.name),
            type: field.type,
            encodeMethod: field.isOptional ? "encodeIfPresent" : "encode",
            numberLiteral: FieldNumber.literal(field.number),
            encodeComment: encodeComment,
            caseNumbers: field.readNumbers.map(FieldNumber.literal).joined(separator: ", "),
            caseComment: caseComment)
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
        -> MessageContext
    {
        var arguments = fields.map(argument)
        for index in arguments.indices.dropLast() { arguments[index] += "," }
        let encodeNote = type.persistable == nil ? "" : "; its metadata is stored in its own column"
        return MessageContext(
            name: type.name, access: access, encodeNote: encodeNote, fields: fields.map(field),
            hasArguments: !arguments.isEmpty, arguments: arguments)
    }

    private func enumContext(_ type: TypeDescription, _ cases: [CaseDescription], access: String)
        -> EnumMessageContext
    {
        EnumMessageContext(
            name: type.name,
            access: access,
            cases: cases.map { enumCase in
                let parameters = enumCase.parameters
                let pattern =
                    parameters.isEmpty
                    ? "" : "(" + parameters.map { "let \(SwiftNames.local($0.name))" }.joined(separator: ", ") + ")"
                let arguments = parameters.map(argument).joined(separator: ", ")
                let swiftName = SwiftNames.identifier(enumCase.name)
                return EnumMessageContext.Case(
                    name: enumCase.name,
                    swiftName: swiftName,
                    pattern: pattern,
                    numberLiteral: FieldNumber.literal(enumCase.number),
                    hasParameters: !parameters.isEmpty,
                    parameters: parameters.map(field),
                    construction: parameters.isEmpty ? ".\(swiftName)" : ".\(swiftName)(\(arguments))")
            })
    }
}
