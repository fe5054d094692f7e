/// A read of the rows of one group of a ``View``, as a value: its items, keys or count, in the
/// view's order, through its terminals (``ItemQuery``).
///
/// ```swift
/// let firstPage = inbox.rows(in: conversationID, range: 0..<50)
/// let messages = try await firstPage.items(in: database)
/// try database.read { tx in try inbox.rows(in: conversationID).count(tx) }
/// ```
///
/// Views are kept in SQLite files; an engine that keeps no views refuses the query with an error
/// naming the view.
public struct ViewQuery<Item: Persistable>: ItemQuery {
    let view: View<Item>
    let group: String
    var range: Range<Int>?

    init(view: View<Item>, group: String, range: Range<Int>?) {
        self.view = view
        self.group = group
        self.range = range
    }

    /// What the read selects, for the engine that runs it.
    public var plan: QueryPlan<Item> {
        QueryPlan(.view(ViewRowsRead(view: view, group: group, range: range)))
    }
}

/// What a view read selects: the rows of `group` in `range` (all when `nil`) of `view`.
@usableFromInline
package struct ViewRowsRead<Item: Persistable>: Sendable {
    let view: View<Item>
    /// The name of the view.
    package var viewName: String { view.name }
    /// The group read.
    package let group: String
    /// The indexes read, clamped to the group's rows; every row when `nil`.
    @usableFromInline package var range: Range<Int>?

    /// Reads the rows of the group in the range, in order, each by its row id, as
    /// ``ReadTransaction/readItemRows(rowIDs:collection:withMetadata:missing:cached:decodeData:decodeMetadata:decoded:)``
    /// does: the page list is summed to skip the pages before the range, then only the pages
    /// that hold it are read.
    ///
    /// - Throws: ``TroveError/Code/corruptDatabase`` when the view lists a row that the items do
    ///   not have; what the closures throw.
    @usableFromInline
    func readItemRows(
        in transaction: ReadTransaction, cached: (CacheKey) -> Bool,
        decodeData: (UnsafeRawBufferPointer) throws -> Void, decodeMetadata: (UnsafeRawBufferPointer) throws -> Void,
        decoded: (CacheKey) -> Void
    ) throws {
        let rowIDs = try view.pageSource(in: transaction).rowIDs(in: group, range: range)
        // The rows start at the range's lower bound, clamped to the group.
        let first = Swift.max(range?.lowerBound ?? 0, 0)
        try transaction.readItemRows(
            rowIDs: rowIDs, collection: Item.collection, withMetadata: Item.Metadata.self != NoMetadata.self,
            missing: {
                TroveError.viewRowWithoutItem(
                    view: view.name, collections: [Item.collection], group: group, index: first + $0)
            },
            cached: cached, decodeData: decodeData, decodeMetadata: decodeMetadata, decoded: decoded)
    }
}

extension View {
    /// The rows of `group` in `range`, clamped to the group's rows (every row by default), as a
    /// query to run with its terminals.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - range: The indexes of the rows, from 0.
    /// - Returns: The query.
    public func rows(in group: String, range: Range<Int>? = nil) -> ViewQuery<Item> {
        ViewQuery(view: self, group: group, range: range)
    }
}

extension ReadTransaction {
    /// The items of a view read, decoded through the cache: specialized for `Item` where it is
    /// called (the rows are read by ``ViewRowsRead/readItemRows(in:cached:decodeData:decodeMetadata:decoded:)``).
    @inlinable
    func viewItems<Item: Persistable>(_ read: ViewRowsRead<Item>) throws -> [Item] {
        try decodedItems(Item.self) {
            try read.readItemRows(in: self, cached: $0, decodeData: $1, decodeMetadata: $2, decoded: $3)
        }
    }

    @usableFromInline
    func viewKeys<Item: Persistable>(_ read: ViewRowsRead<Item>) throws -> [Item.ID] {
        try read.view.read(self).keys(in: read.group, range: read.range)
    }

    @usableFromInline
    func viewCount<Item: Persistable>(_ read: ViewRowsRead<Item>) throws -> Int {
        let count = try read.view.read(self).count(in: read.group)
        guard let range = read.range else { return count }
        return Swift.max(0, Swift.min(range.upperBound, count) - Swift.max(range.lowerBound, 0))
    }
}
