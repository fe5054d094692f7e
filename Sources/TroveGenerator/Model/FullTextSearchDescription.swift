/// The full-text search generated from the `@searchable` fields of a `@persistable` type and of
/// its `@metadata` type.
package struct FullTextSearchDescription: Sendable, Equatable, Codable {
    /// The name of the search: the type's name, sanitized, with `_search`.
    package var name: String
    /// The version: a hash of the columns' names, kinds and sources and of the tokenizer, so that
    /// a change of the searchable fields or of the tokenizer rebuilds the table. Weights are not
    /// part of it: they apply to queries only.
    package var version: Int
    /// The tokenizer of the table.
    package var tokenizer: SearchTokenizer
    /// The columns: the item's searchable fields in declaration order, then the metadata's.
    package var columns: [SearchColumnDescription]

    /// Creates a search description; its version is computed from `tokenizer` and `columns`.
    ///
    /// - Parameters:
    ///   - name: The name of the search.
    ///   - tokenizer: The tokenizer.
    ///   - columns: The columns.
    package init(name: String, tokenizer: SearchTokenizer, columns: [SearchColumnDescription]) {
        self.name = name
        self.tokenizer = tokenizer
        self.columns = columns
        let text = ([tokenizer.rawValue] + columns.map { column in
            [column.column, column.property, column.kind.rawValue, column.isMetadata ? "metadata" : "item"]
                .joined(separator: ":")
        }).joined(separator: ";")
        self.version = Int(IndexableTypes.hash(text) >> 1)
    }
}

/// The tokenizer named by `@persistable(searchTokenizer:)`.
package enum SearchTokenizer: String, Sendable, Equatable, Codable, CaseIterable {
    /// `unicode61` with diacritics removed: the default.
    case unicode61
    /// The `porter` stemmer over `unicode61`.
    case porter
    /// `trigram`: substrings of three characters, for text without spaces between words.
    case trigram
}

/// One column of a generated full-text search: a `@searchable` stored property.
package struct SearchColumnDescription: Sendable, Equatable, Codable {
    /// How a column's text is read from its property.
    package enum Kind: String, Sendable, Equatable, Codable {
        /// A `String`.
        case text
        /// A `String?`: `nil` is no text.
        case optionalText
        /// A `[String]`: its elements joined with newlines.
        case list
    }

    /// The column name: the property name, sanitized for the runtime when it must be.
    package var column: String
    /// The property name, without backticks.
    package var property: String
    /// How the text is read.
    package var kind: Kind
    /// The weight in the ranking as written in `@searchable(weight:)`, or `nil` for the default.
    package var weight: String?
    /// Whether the property is a field of the item's metadata rather than of the item.
    package var isMetadata: Bool

    /// Creates a column description.
    ///
    /// - Parameters:
    ///   - column: The column name.
    ///   - property: The property name.
    ///   - kind: How the text is read.
    ///   - weight: The weight as written, or `nil`.
    ///   - isMetadata: Whether the property is a field of the metadata.
    package init(column: String, property: String, kind: Kind, weight: String?, isMetadata: Bool) {
        self.column = column
        self.property = property
        self.kind = kind
        self.weight = weight
        self.isMetadata = isMetadata
    }
}
