/// The context of the generated relationships of a `@persistable` type.
extension Renderer {
    func relationshipsContext(_ type: TypeDescription, _ relationships: RelationshipsDescription, access: String)
        -> TemplateValue
    {
        let edges = relationships.edges.map { edge -> TemplateValue in
            let property = SwiftNames.identifier(edge.property)
            let extract: String
            let forwardType: String
            let forwardBody: String
            let forwardSummary: String
            switch edge.shape {
            case .key:
                extract = "$0.\(property)"
                forwardType = edge.destination + "?"
                forwardBody = "try transaction.read(\(edge.destination).self, key: \(property))"
                forwardSummary = "The `\(edge.destination)` that `\(edge.property)` points at, or `nil` when it does not exist."
            case .optionalKey:
                extract = "$0.\(property)"
                forwardType = edge.destination + "?"
                forwardBody = "try \(property).flatMap { try transaction.read(\(edge.destination).self, key: $0) }"
                forwardSummary =
                    "The `\(edge.destination)` that `\(edge.property)` points at, or `nil` when it is `nil` or does not exist."
            case .array, .set, .optionalArray, .optionalSet:
                extract =
                    switch edge.shape {
                    case .array: "$0.\(property)"
                    case .set: "Array($0.\(property))"
                    default: "Array($0.\(property) ?? [])"
                    }
                let keys = edge.shape == .array || edge.shape == .set ? property : "\(property) ?? []"
                forwardType = "[\(edge.destination)]"
                forwardBody = "try transaction.read(\(edge.destination).self, keys: \(keys))"
                forwardSummary =
                    "The `\(edge.destination)` items that `\(edge.property)` points at and that exist, in its order."
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
                "forwardType": .text(forwardType),
                "forwardBody": .text(forwardBody),
                "inverseAccess": .text(edge.inverseAccessModifier.isEmpty ? "" : edge.inverseAccessModifier + " "),
                "inverseSwiftName": .text(SwiftNames.identifier(edge.inverse)),
                "inverseCountName": .text(SwiftNames.identifier(edge.inverse + "Count")),
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
