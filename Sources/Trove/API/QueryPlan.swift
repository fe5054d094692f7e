/// What a query selects, as the engine that runs it reads it: which extension, and the clauses.
///
/// Apps never build one: each query type (``IndexQuery``, ``FullTextQuery``,
/// ``RelationshipQuery``) describes itself with one, and the engine behind a transaction runs it
/// (SQLite's ``ReadTransaction`` here, PostgreSQL's in TrovePostgres, each in its own SQL dialect).
/// An engine that cannot run a kind of query refuses it with an error naming it, never skips it.
public struct QueryPlan<Item: Persistable>: Sendable {
    /// The extension a query reads, with its clauses.
    @usableFromInline
    package enum Source: Sendable {
        /// A query of a secondary index.
        case index(SecondaryIndex<Item>, IndexQueryClauses)
        /// A full-text search.
        case search(FullTextSearch<Item>, FullTextClauses)
        /// A traversal of relationships' edges to the items of `Item`.
        case edges(RelationshipTraversal)
        /// The rows of a group of a view.
        case view(ViewRowsRead<Item>)
    }

    @usableFromInline package var source: Source

    @inlinable
    package init(_ source: Source) {
        self.source = source
    }

    /// The plan of the first result only: at most one, after the same offset.
    @inlinable
    package var first: Self {
        var copy = self
        switch source {
        case .index(let index, let clauses):
            copy.source = .index(index, clauses.first)
        case .search(let search, var clauses):
            clauses.limit = min(clauses.limit ?? 1, 1)
            copy.source = .search(search, clauses)
        case .edges(var traversal):
            traversal.limit = min(traversal.limit ?? 1, 1)
            copy.source = .edges(traversal)
        case .view(var read):
            let lower = read.range?.lowerBound ?? 0
            read.range = lower..<min(read.range?.upperBound ?? Int.max, lower + 1)
            copy.source = .view(read)
        }
        return copy
    }

    /// What kind of query this is, in words, for the error of an engine that cannot run it.
    package var kind: String {
        switch source {
        case .index(let index, _): "a query of the index '\(index.name)'"
        case .search(let search, _): "the full-text search '\(search.name)'"
        case .edges(let traversal): "a traversal of the relationships '\(traversal.extensionName)'"
        case .view(let read): "a read of the view '\(read.viewName)'"
        }
    }
}
