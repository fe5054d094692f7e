/// One result of a ``FullTextQuery``.
public struct SearchHit<Item: Persistable>: Sendable {
    /// The key of the item.
    public let key: Item.ID
    /// The item.
    public let item: Item
    /// The score of the item with the columns' weights: lower is better. On a Trove file it is
    /// SQLite's bm25, negative, the best match the most negative; on PostgreSQL it is
    /// `ts_rank_cd` negated.
    public let score: Double
    /// The snippet or highlighted text asked for with ``FullTextQuery/snippets(of:before:after:ellipsis:tokens:)``
    /// or ``FullTextQuery/highlights(of:before:after:)``; `nil` when none was, or when the
    /// column has no text.
    public let snippet: String?

    /// A hit, as an engine reads it.
    package init(key: Item.ID, item: Item, score: Double, snippet: String?) {
        self.key = key
        self.item = item
        self.score = score
        self.snippet = snippet
    }
}
