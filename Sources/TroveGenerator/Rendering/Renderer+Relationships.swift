/// The context of the generated relationships of a `@persistable` type.
extension Renderer {
    func relationshipsContext(_ type: TypeDescription, _ relationships: RelationshipsDescription, access: String)
        -> TemplateValue
    {
        let edges = relationships.edges.map { edge -> TemplateValue in
            let property = SwiftNames.identifier(edge.property)
            if let folder = edge.folder {
                return fileEdgeContext(edge, property: property, folder: folder)
            }
            let extract: String
            let forwardSummary: String
            switch edge.shape {
            case .key:
                extract = "$0.\(property)"
                forwardSummary =
                    "The `\(edge.destination)` that `\(edge.property)` points at, as a query: `first(in:)` is `nil` when it does not exist."
            case .optionalKey:
                extract = "$0.\(property)"
                forwardSummary =
                    "The `\(edge.destination)` that `\(edge.property)` points at, as a query: `first(in:)` is `nil` when it is `nil` or does not exist."
            case .array, .set, .optionalArray, .optionalSet:
                extract =
                    switch edge.shape {
                    case .array: "$0.\(property)"
                    case .set: "Array($0.\(property))"
                    default: "Array($0.\(property) ?? [])"
                    }
                forwardSummary =
                    "The `\(edge.destination)` items that `\(edge.property)` points at, as a query: `items(in:)` returns those that exist, in the order of their keys."
            }
            let rules = edge.rules.isEmpty ? nil : "[" + edge.rules.map { "." + $0 }.joined(separator: ", ") + "]"
            return [
                "toItems": .flag(true), "toFiles": .flag(false),
                "edgeName": .text(edge.name),
                "edgeLiteral": .text(SwiftNames.stringLiteral(edge.name)),
                "property": .text(edge.property),
                "sourceName": .text(type.name),
                "destination": .text(edge.destination),
                "rules": rules.map(TemplateValue.text),
                "extractLabel": .text(edge.isCollection ? "keys" : "key"),
                "extract": .text(extract),
                "forwardSummary": .text(forwardSummary),
                "swiftName": .text(SwiftNames.identifier(edge.name)),
                "inverseAccess": .text(edge.inverseAccessModifier.isEmpty ? "" : edge.inverseAccessModifier + " "),
                "inverseSwiftName": .text(SwiftNames.identifier(edge.inverse)),
            ]
        }
        let summary = relationships.edges.map { edge in
            let rules = edge.rules.isEmpty ? "" : " (" + edge.rules.map { "." + $0 }.joined(separator: ", ") + ")"
            let destination = edge.folder.map { "files in `\($0)`" } ?? "`\(edge.destination)`"
            return "`\(edge.property)` to \(destination)\(rules)"
        }.joined(separator: ", ")
        // The edges to items, which get a query on the source and one on the destination.
        let itemEdges = zip(relationships.edges, edges).filter { !$0.0.isFile }.map(\.1)
        return [
            "name": .text(type.name), "access": .text(access), "summary": .text(summary),
            "nameLiteral": .text(SwiftNames.stringLiteral(relationships.name)),
            "version": .number(relationships.version), "edges": .list(edges), "itemEdges": .list(itemEdges),
        ]
    }

    /// The context of one edge to files: `.toFile(...)` for one path, `.toFiles(...)` for a
    /// collection of them (a set as an array).
    private func fileEdgeContext(_ edge: RelationshipEdgeDescription, property: String, folder: String)
        -> TemplateValue
    {
        let extract =
            switch edge.shape {
            case .key, .optionalKey, .array: "$0.\(property)"
            case .set: "Array($0.\(property))"
            case .optionalArray, .optionalSet: "Array($0.\(property) ?? [])"
            }
        return [
            "toItems": .flag(false), "toFiles": .flag(true),
            "edgeLiteral": .text(SwiftNames.stringLiteral(edge.name)),
            "folderLiteral": .text(SwiftNames.stringLiteral(folder)),
            "factory": .text(edge.isCollection ? "toFiles" : "toFile"),
            "rules": .text("[" + edge.rules.map { "." + $0 }.joined(separator: ", ") + "]"),
            "extractLabel": .text(edge.isCollection ? "paths" : "path"),
            "extract": .text(extract),
        ]
    }
}
