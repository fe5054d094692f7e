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
    @usableFromInline
    func viewItems<Item: Persistable>(_ read: ViewRowsRead<Item>) throws -> [Item] {
        try read.view.read(self).items(in: read.group, range: read.range)
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
