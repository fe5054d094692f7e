/// The context of the generated full-text search of a `@persistable` type.
extension Renderer {
    func fullTextSearchContext(_ type: TypeDescription, _ search: FullTextSearchDescription, access: String)
        -> TemplateValue
    {
        let columns = search.columns.map { column -> TemplateValue in
            let path = (column.isMetadata ? "$0.metadata?." : "$0.") + SwiftNames.identifier(column.property)
            // A list read through the optional metadata is optional itself: no metadata, no text.
            let text = column.kind == .list && column.isMetadata ? path + " ?? []" : path
            return [
                "columnLiteral": .text(SwiftNames.stringLiteral(column.column)),
                "weight": column.weight.map(TemplateValue.text), "text": .text(text),
            ]
        }
        let summary = search.columns.map { column in
            var notes: [String] = []
            if let weight = column.weight { notes.append("weight \(weight)") }
            if column.isMetadata { notes.append("metadata") }
            let source = column.isMetadata ? "metadata.\(column.property)" : column.property
            return "`\(source)`" + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
        }.joined(separator: ", ")
        let tokenizer =
            switch search.tokenizer {
            case .unicode61: ".unicode61()"
            case .porter: ".porter"
            case .trigram: ".trigram"
            }
        return [
            "name": .text(type.name), "access": .text(access), "summary": .text(summary),
            "tokenizerName": .text(search.tokenizer.rawValue),
            "nameLiteral": .text(SwiftNames.stringLiteral(search.name)),
            "version": .number(search.version), "tokenizer": .text(tokenizer), "columns": .list(columns),
        ]
    }
}
