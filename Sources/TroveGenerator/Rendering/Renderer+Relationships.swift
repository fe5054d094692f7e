/// The context of the generated relationships of a `@persistable` type.
extension Renderer {
    func relationshipsContext(_ type: TypeDescription, _ relationships: RelationshipsDescription, access: String)
        -> RelationshipsContext
    {
        let edges = relationships.edges.map { edge in
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
            return RelationshipsContext.Edge(
                edgeName: edge.name,
                edgeLiteral: SwiftNames.stringLiteral(edge.name),
                property: edge.property,
                sourceName: type.name,
                destination: edge.destination,
                rules: rules,
                extractLabel: edge.isCollection ? "keys" : "key",
                extract: extract,
                forwardSummary: forwardSummary,
                swiftName: SwiftNames.identifier(edge.name),
                forwardType: forwardType,
                forwardBody: forwardBody,
                inverseAccess: edge.inverseAccessModifier.isEmpty ? "" : edge.inverseAccessModifier + " ",
                inverseSwiftName: SwiftNames.identifier(edge.inverse),
                inverseCountName: SwiftNames.identifier(edge.inverse + "Count"))
        }
        let summary = relationships.edges.map { edge in
            let rules = edge.rules.isEmpty ? "" : " (" + edge.rules.map { "." + $0 }.joined(separator: ", ") + ")"
            return "`\(edge.property)` to `\(edge.destination)`\(rules)"
        }.joined(separator: ", ")
        return RelationshipsContext(
            name: type.name, access: access, summary: summary,
            nameLiteral: SwiftNames.stringLiteral(relationships.name), version: relationships.version, edges: edges)
    }
}
