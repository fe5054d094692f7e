/// One result of a ``FullTextQuery``.
public struct SearchHit<Item: Persistable>: Sendable {
    /// The key of the item.
    public let key: Item.ID
    /// The item.
    public let item: Item
    /// The bm25 score of the item with the columns' weights: lower is better (SQLite's bm25 is
    /// negative, the best match the most negative).
    public let score: Double
    /// The snippet or highlighted text asked for with ``FullTextQuery/snippets(of:before:after:ellipsis:tokens:)``
    /// or ``FullTextQuery/highlights(of:before:after:)``; `nil` when none was, or when the
    /// column has no text.
    public let snippet: String?
}
