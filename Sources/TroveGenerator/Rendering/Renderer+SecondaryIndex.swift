/// The context of the generated secondary index of a `@persistable` type.
extension Renderer {
    func secondaryIndexContext(_ type: TypeDescription, _ index: SecondaryIndexDescription, access: String)
        -> SecondaryIndexContext
    {
        let columns = index.columns.enumerated().map { offset, column in
            SecondaryIndexContext.Column(
                columnLiteral: SwiftNames.stringLiteral(column.column),
                path: (column.isMetadata ? "metadata?." : "") + SwiftNames.identifier(column.property),
                source: Self.source(of: column),
                swiftName: SwiftNames.identifier(column.property),
                type: column.type,
                valueType: column.type + (column.isOptional ? "?" : ""),
                isUnique: column.isUnique,
                isOptional: column.isOptional,
                isComparable: column.isComparable,
                last: offset == index.columns.count - 1)
        }
        let uniqueColumns = index.columns.filter(\.isUnique)
        let lookups = uniqueColumns.enumerated().map { offset, column in
            SecondaryIndexContext.Lookup(
                itemName: type.name,
                source: Self.source(of: column),
                swiftName: SwiftNames.identifier(column.property),
                lookup: "by" + column.property.prefix(1).uppercased() + column.property.dropFirst(),
                parameter: SwiftNames.identifier(column.property),
                type: column.type,
                last: offset == uniqueColumns.count - 1)
        }
        let summary = index.columns.map { column in
            var notes: [String] = []
            if column.isUnique { notes.append("unique") }
            if column.isMetadata { notes.append("metadata") }
            return "`\(column.property)`" + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
        }.joined(separator: ", ")
        return SecondaryIndexContext(
            name: type.name, access: access, summary: summary, nameLiteral: SwiftNames.stringLiteral(index.name),
            version: index.version, columns: columns, hasUnique: !lookups.isEmpty, unique: lookups)
    }

    /// How the docs name the field of `column`: `email`, or `metadata.loginCount`.
    private static func source(of column: IndexColumnDescription) -> String {
        column.isMetadata ? "metadata.\(column.property)" : column.property
    }
}
