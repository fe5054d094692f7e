// SQLite's transactions are transactions of any engine: their synchronous methods meet the
// `async` requirements of `TransactionReading` and `TransactionWriting`, so code written for any
// engine runs on them without suspending. The queries' plans run here, each kind on its
// extension's tables; the plumbing is `@inlinable`, so that the loop over the rows of a query is
// specialized for the item type where the query is run.

extension ReadTransaction: TransactionReading {
    /// The items `plan` selects (what a query's `items` terminal runs).
    @_spi(TroveEngine)
    @inlinable
    public func items<Item: Persistable>(matching plan: QueryPlan<Item>) throws -> [Item] {
        try planItems(plan)
    }

    /// The keys of the items `plan` selects.
    @_spi(TroveEngine)
    @inlinable
    public func keys<Item: Persistable>(matching plan: QueryPlan<Item>) throws -> [Item.ID] {
        try planKeys(plan)
    }

    /// The number of items `plan` selects.
    @_spi(TroveEngine)
    @inlinable
    public func count<Item: Persistable>(matching plan: QueryPlan<Item>) throws -> Int {
        try planCount(plan)
    }

    /// The hits of the full-text search `plan` describes.
    @_spi(TroveEngine)
    public func hits<Item: Persistable>(matching plan: QueryPlan<Item>) throws -> [SearchHit<Item>] {
        try planHits(plan)
    }

    @inlinable
    func planItems<Item: Persistable>(_ plan: QueryPlan<Item>) throws -> [Item] {
        switch plan.source {
        case .index(let index, let clauses): try indexItems(index, clauses)
        case .search(let search, let clauses): try searchHits(search, clauses).map(\.item)
        case .edges(let traversal): try traversalItems(traversal, of: Item.self)
        case .view(let read): try viewItems(read)
        case .extensionKeys(let read): try read.items(of: Item.self, in: self)
        }
    }

    @inlinable
    func planKeys<Item: Persistable>(_ plan: QueryPlan<Item>) throws -> [Item.ID] {
        switch plan.source {
        case .index(let index, let clauses): try indexKeys(index, clauses)
        case .search(let search, let clauses): try searchKeys(search, clauses)
        case .edges(let traversal): try traversalIDs(traversal, of: Item.self)
        case .view(let read): try viewKeys(read)
        case .extensionKeys(let read): try read.ids(of: Item.self, in: self)
        }
    }

    @inlinable
    func planCount<Item: Persistable>(_ plan: QueryPlan<Item>) throws -> Int {
        switch plan.source {
        case .index(let index, let clauses): try index.planner.count(clauses, in: self)
        case .search(let search, let clauses): try searchCount(search, clauses)
        case .edges(let traversal): try traversalCount(traversal)
        case .view(let read): try viewCount(read)
        case .extensionKeys(let read): try read.read(self, read.limit).count
        }
    }

    @usableFromInline
    func planHits<Item: Persistable>(_ plan: QueryPlan<Item>) throws -> [SearchHit<Item>] {
        guard case .search(let search, let clauses) = plan.source else {
            throw TroveError(
                code: .misuse, message: "Only a full-text search has hits, not \(plan.kind).",
                collection: Item.collection)
        }
        return try searchHits(search, clauses)
    }
}

extension ReadWriteTransaction: TransactionWriting {
    /// Adds or removes a manual edge with the relationships' own calls.
    @_spi(TroveEngine)
    public func changeManualEdge<Source: Persistable>(
        _ relationships: Relationships<Source>, edge: String, from source: Source.ID, to destination: String,
        adding: Bool, applyingRulesAsIfRemoved end: RelationshipNotice.Removed?
    ) async throws -> Bool {
        guard adding else {
            // The synchronous call (an async context would pick the asynchronous one, which calls
            // this function).
            let remove = { try relationships.removeEdge(
                edge, from: source, to: destination, applyingRulesAsIfRemoved: end, in: self) }
            return try remove()
        }
        try relationships.addEdge(edge, from: source, to: destination, in: self)
        return true
    }
}
