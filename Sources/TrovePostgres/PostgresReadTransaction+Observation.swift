@_spi(TroveEngine) import Trove

extension PostgresReadTransaction {
    /// Records, for an observation, what a query's plan reads: the collection of an index query
    /// or of a full-text search (their rows change only with their items), the source collection
    /// and the item collection of a relationship traversal (edges change with their sources). A
    /// kind of plan this store does not run is recorded as its collection, so that nothing read is
    /// ever left out.
    ///
    /// - Parameter plan: The plan of the query about to run.
    func recordRead<Item: Persistable>(of plan: QueryPlan<Item>) {
        guard let recorder else { return }
        switch plan.source {
        case .index(let index, _):
            recorder.recordIndex(index.name, of: Item.collection)
        case .edges(let traversal):
            recorder.recordIndex(traversal.extensionName, of: traversal.sourceCollection)
            recorder.recordCollection(Item.collection)
        case .search(let search, let clauses):
            // As on a Trove file: the search, and the indexes that narrow it, as their collection.
            recorder.recordIndex(search.name, of: Item.collection)
            for filter in clauses.indexFilters { recorder.recordIndex(filter.indexName, of: Item.collection) }
        case .view:
            recorder.recordCollection(Item.collection)
        case .extensionKeys(let read):
            recorder.recordIndex(read.extensionName, of: Item.collection)
        }
    }
}
