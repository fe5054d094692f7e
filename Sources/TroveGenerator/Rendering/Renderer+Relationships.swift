/// The context of the generated relationships of a `@persistable` type.
extension Renderer {
    func relationshipsContext(_ type: TypeDescription, _ relationships: RelationshipsDescription, access: String)
        -> TemplateValue
    {
        let edges = relationships.edges.map { edge -> TemplateValue in
            let property = SwiftNames.identifier(edge.property)
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
            return "`\(edge.property)` to `\(edge.destination)`\(rules)"
        }.joined(separator: ", ")
        return [
            "name": .text(type.name), "access": .text(access), "summary": .text(summary),
            "nameLiteral": .text(SwiftNames.stringLiteral(relationships.name)),
            "version": .number(relationships.version), "edges": .list(edges),
        ]
    }
}
