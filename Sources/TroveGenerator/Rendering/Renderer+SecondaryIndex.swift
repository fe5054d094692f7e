/// The context of the generated secondary index of a `@persistable` type.
extension Renderer {
    func secondaryIndexContext(_ type: TypeDescription, _ index: SecondaryIndexDescription, access: String)
        -> TemplateValue
    {
        let orderColumns = index.columns.filter { !$0.isMultiValued }
        let columns = index.columns.enumerated().map { offset, column -> TemplateValue in
            var path = (column.isMetadata ? "metadata?." : "") + SwiftNames.identifier(column.property)
            // The values of an optional array or set, or of one in the metadata: none for `nil`.
            if column.isMultiValued && (column.isOptional || column.isMetadata) { path += " ?? []" }
            return [
                "columnLiteral": .text(SwiftNames.stringLiteral(column.column)),
                "path": .text(path),
                "source": .text(Self.source(of: column)),
                "swiftName": .text(SwiftNames.identifier(column.property)),
                "type": .text(column.type),
                "valueType": .text(column.type + (column.isOptional ? "?" : "")),
                "isUnique": .flag(column.isUnique),
                "isOptional": .flag(column.isOptional),
                "isComparable": .flag(column.isComparable),
                "isMultiValued": .flag(column.isMultiValued),
                "last": .flag(offset == index.columns.count - 1),
            ]
        }
        let orderings = orderColumns.enumerated().map { offset, column -> TemplateValue in
            [
                "columnLiteral": .text(SwiftNames.stringLiteral(column.column)),
                "source": .text(Self.source(of: column)),
                "swiftName": .text(SwiftNames.identifier(column.property)),
                "isOptional": .flag(column.isOptional),
                "last": .flag(offset == orderColumns.count - 1),
            ]
        }
        let uniqueColumns = index.columns.filter(\.isUnique)
        let lookups = uniqueColumns.enumerated().map { offset, column -> TemplateValue in
            [
                "itemName": .text(type.name),
                "source": .text(Self.source(of: column)),
                "swiftName": .text(SwiftNames.identifier(column.property)),
                "lookup": .text("by" + column.property.prefix(1).uppercased() + column.property.dropFirst()),
                "parameter": .text(SwiftNames.identifier(column.property)),
                "type": .text(column.type),
                "last": .flag(offset == uniqueColumns.count - 1),
            ]
        }
        let summary = index.columns.map { column in
            var notes: [String] = []
            if column.isUnique { notes.append("unique") }
            if column.isMultiValued { notes.append("multi-valued") }
            if column.isMetadata { notes.append("metadata") }
            return "`\(column.property)`" + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
        }.joined(separator: ", ")
        return [
            "name": .text(type.name), "access": .text(access), "summary": .text(summary),
            "nameLiteral": .text(SwiftNames.stringLiteral(index.name)), "version": .number(index.version),
            "columns": .list(columns), "hasUnique": .flag(!lookups.isEmpty), "unique": .list(lookups),
            "orderings": .list(orderings), "hasOrderings": .flag(!orderings.isEmpty),
        ]
    }

    /// How the docs name the field of `column`: `email`, or `metadata.loginCount`.
    private static func source(of column: IndexColumnDescription) -> String {
        column.isMetadata ? "metadata.\(column.property)" : column.property
    }
}
