/// A column of a ``FullTextSearch``: its name, its weight in the ranking, and how to get its
/// text from an item (and the item's metadata, which `Item.metadata` holds).
///
/// ```swift
/// let columns: [SearchColumn<Message>] = [
///     .column("subject", weight: 10) { $0.subject },
///     .column("body") { $0.body },
///     .column("tags") { $0.tags },
///     .column("note") { $0.metadata?.note },
/// ]
/// ```
public struct SearchColumn<Item: Persistable>: Sendable {
    /// The name of the column, which column filters of a raw query (`subject: swift`) and
    /// snippets name: ASCII letters, digits and underscores.
    public let name: String
    /// The weight of a match in this column in the bm25 ranking: a match in a column of weight
    /// 10 counts as much as ten in a column of weight 1.
    public let weight: Double
    package let text: @Sendable (Item) -> String?

    /// A column whose text `text` gets from each item; `nil` is no text.
    ///
    /// - Parameters:
    ///   - name: The name of the column: ASCII letters, digits and underscores, not starting
    ///     with a digit, and none of `rowid`, `rank` and the name of the search.
    ///   - weight: The weight of the column in the ranking (default 1), finite.
    ///   - text: The text of the column for an item, with its metadata in `Item.metadata`.
    /// - Returns: The column.
    public static func column(
        _ name: String, weight: Double = 1, _ text: @escaping @Sendable (Item) -> String?
    ) -> SearchColumn {
        SearchColumn(name: name, weight: weight, text: text)
    }

    /// A column whose texts `texts` gets from each item, joined with newlines (a word never
    /// spans two elements).
    ///
    /// - Parameters:
    ///   - name: The name of the column, as for a column of one text.
    ///   - weight: The weight of the column in the ranking (default 1), finite.
    ///   - texts: The texts of the column for an item.
    /// - Returns: The column.
    @_disfavoredOverload
    public static func column(
        _ name: String, weight: Double = 1, _ texts: @escaping @Sendable (Item) -> [String]
    ) -> SearchColumn {
        SearchColumn(name: name, weight: weight, text: { texts($0).joined(separator: "\n") })
    }
}
