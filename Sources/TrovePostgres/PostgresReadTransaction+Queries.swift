import NIOCore
import PostgresNIO
@_spi(TroveEngine) import Trove

// The engine seam of Trove's queries on PostgreSQL: a query value (`User.query.filter(...)`)
// hands its plan to the transaction, which runs a secondary index's clauses in PostgreSQL's
// dialect, a full-text search on its `tsvector` table, follows relationships' edges in their
// table, and refuses the kind of query PostgreSQL does not run (a view's), naming it, rather than
// skipping it.

extension PostgresReadTransaction {
    /// The items `plan` selects, decoded (what a query's `items` terminal runs).
    ///
    /// - Parameter plan: The plan of a query of a secondary index the store keeps.
    /// - Returns: The items, in the query's order.
    /// - Throws: ``/Trove/TroveError/Code/misuse`` for a kind of query PostgreSQL does not run;
    ///   ``/Trove/TroveError/Code/extensionFailed`` for an index the store does not keep, or a
    ///   column it does not have; `corruptData` or `server`.
    @_spi(TroveEngine)
    public func items<Item: Persistable>(matching plan: QueryPlan<Item>) async throws -> [Item] {
        recordRead(of: plan)
        if case .edges(let traversal) = plan.source {
            let ids = try await traversalKeys(traversal.unlimited, of: Item.self).compactMap { Item.ID(itemKey: $0) }
            let items = try await read(Item.self, keys: ids)
            return traversal.limit.map { Array(items.prefix($0)) } ?? items
        }
        if case .search(let search, var clauses) = plan.source {
            clauses.excerpt = nil
            return try await searchHits(search, clauses).map(\.item)
        }
        let (index, clauses) = try indexQuery(plan)
        let statement = try index.statement(
            clauses, selecting: .items, collection: Item.collection, keyOrder: ItemKeyOrder(of: Item.ID.self),
            names: names)
        var items: [Item] = []
        for try await (key, data, metadata) in try await run(statement, collection: Item.collection)
            .decode((String, ByteBuffer, ByteBuffer?).self)
        {
            items.append(try decodeItem(Item.self, data: data, metadata: metadata, key: key))
        }
        return items
    }

    /// The keys of the items `plan` selects, in the query's order.
    ///
    /// - Parameter plan: The plan of a query of a secondary index the store keeps.
    /// - Returns: The keys.
    /// - Throws: As ``items(matching:)``, and ``/Trove/TroveError/Code/invalidKey`` for a stored
    ///   key that is not an `Item.ID`.
    @_spi(TroveEngine)
    public func keys<Item: Persistable>(matching plan: QueryPlan<Item>) async throws -> [Item.ID] {
        recordRead(of: plan)
        if case .edges(let traversal) = plan.source {
            return try traversal.ids(await traversalKeys(traversal, of: Item.self), of: Item.self)
        }
        if case .search(let search, let clauses) = plan.source {
            var keys: [Item.ID] = []
            guard let statement = try keptSearch(search).statement(clauses, selecting: .keys, store: store) else {
                return []
            }
            for try await key in try await run(statement, collection: Item.collection).decode(String.self) {
                keys.append(try Self.id(Item.self, key: key))
            }
            return keys
        }
        let (index, clauses) = try indexQuery(plan)
        let statement = try index.statement(
            clauses, selecting: .keys, collection: Item.collection, keyOrder: ItemKeyOrder(of: Item.ID.self),
            names: names)
        var keys: [Item.ID] = []
        for try await key in try await run(statement, collection: Item.collection).decode(String.self) {
            keys.append(try Self.id(Item.self, key: key))
        }
        return keys
    }

    /// The number of items `plan` selects (after its limit and offset, when it has them).
    ///
    /// - Parameter plan: The plan of a query of a secondary index the store keeps.
    /// - Returns: The count.
    /// - Throws: As ``items(matching:)``.
    @_spi(TroveEngine)
    public func count<Item: Persistable>(matching plan: QueryPlan<Item>) async throws -> Int {
        recordRead(of: plan)
        if case .edges(let traversal) = plan.source {
            return try await traversal.limited(traversalKeys(traversal.unlimited, of: Item.self).count)
        }
        if case .search(let search, let clauses) = plan.source {
            guard let statement = try keptSearch(search).statement(clauses, selecting: .count, store: store) else {
                return 0
            }
            var count: Int64 = 0
            for try await value in try await run(statement, collection: Item.collection).decode(Int64.self) {
                count = value
            }
            return Int(count)
        }
        let (index, clauses) = try indexQuery(plan)
        let statement = try index.statement(
            clauses, selecting: .count, collection: Item.collection, keyOrder: ItemKeyOrder(of: Item.ID.self),
            names: names)
        var count: Int64 = 0
        for try await value in try await run(statement, collection: Item.collection).decode(Int64.self) {
            count = value
        }
        return Int(count)
    }

    /// The rows of `selection` (an aggregate, groups, distinct values, columns) over the index
    /// query `plan`, each value decoded as the index's column types say: what an
    /// `IndexValueQuery`'s `value` terminal runs. The SQL is Trove's, around this engine's clauses,
    /// in PostgreSQL's dialect.
    ///
    /// - Parameters:
    ///   - plan: The plan of a query of a secondary index the store keeps.
    ///   - selection: What to select from its rows.
    /// - Returns: The rows.
    /// - Throws: As ``items(matching:)``; ``/Trove/TroveError/Code/extensionFailed`` for a column
    ///   the index does not have or whose type has no such aggregate;
    ///   ``/Trove/TroveError/Code/overflow`` for an integer sum beyond 64 bits.
    @_spi(TroveEngine)
    public func indexValueRows<Item: Persistable>(
        matching plan: QueryPlan<Item>, selecting selection: IndexValueSelection
    ) async throws -> [[IndexValue]] {
        recordRead(of: plan)
        let (index, clauses) = try indexQuery(plan)
        let types = try selection.resultTypes(
            index: index.name, collection: Item.collection,
            columns: index.columns.map { .init(name: $0.name, type: $0.type, isMultiValued: $0.isMultiValued) })
        let statement = try index.statement(
            clauses, selecting: .values(selection), collection: Item.collection,
            keyOrder: ItemKeyOrder(of: Item.ID.self), names: names)
        var rows: [[IndexValue]] = []
        do {
            for try await row in try await run(statement, collection: Item.collection) {
                var values: [IndexValue] = []
                values.reserveCapacity(types.count)
                for (cell, type) in zip(row, types) {
                    values.append(try PostgresIndex.value(of: cell, type))
                }
                rows.append(values)
            }
        } catch where selection.sumsIntegers && PostgresErrors.sqlState(of: error) == "22003" {
            // numeric_value_out_of_range: the exact sum cast back to bigint.
            throw selection.overflow(index: index.name, collection: Item.collection, cause: error)
        }
        return rows
    }

    /// The hits of a full-text search, best first: the items, their scores (`ts_rank_cd`
    /// negated, so that lower is better, as with bm25 on a Trove file) and the excerpts asked for.
    ///
    /// - Parameter plan: The plan of a full-text search the store keeps.
    /// - Returns: The hits, best first, then by key.
    /// - Throws: ``/Trove/TroveError/Code/misuse`` for a plan that is not a search;
    ///   ``/Trove/TroveError/Code/invalidSearchQuery`` for a query in FTS5's own syntax;
    ///   ``/Trove/TroveError/Code/extensionFailed`` for a search the store does not keep, a
    ///   column it does not have, or an index filter on an index it does not keep; `corruptData`
    ///   or `server`.
    @_spi(TroveEngine)
    public func hits<Item: Persistable>(matching plan: QueryPlan<Item>) async throws -> [SearchHit<Item>] {
        guard case .search(let search, let clauses) = plan.source else {
            throw TroveError(
                code: .misuse, message: "Only a full-text search has hits, not \(plan.kind).",
                collection: Item.collection)
        }
        recordRead(of: plan)
        return try await searchHits(search, clauses)
    }

    /// The hits of `search` for `clauses`, decoded.
    private func searchHits<Item: Persistable>(_ search: FullTextSearch<Item>, _ clauses: FullTextClauses)
        async throws -> [SearchHit<Item>]
    {
        guard let statement = try keptSearch(search).statement(clauses, selecting: .items, store: store) else {
            return []
        }
        var hits: [SearchHit<Item>] = []
        for try await (key, data, metadata, score, headline) in try await run(statement, collection: Item.collection)
            .decode((String, ByteBuffer, ByteBuffer?, Double, String?).self)
        {
            hits.append(
                SearchHit(
                    key: try Self.id(Item.self, key: key),
                    item: try decodeItem(Item.self, data: data, metadata: metadata, key: key), score: score,
                    snippet: PostgresSearch.excerpt(headline, of: clauses.excerpt)))
        }
        return hits
    }

    /// The search the store keeps for `search`, or the error of a search it does not keep with
    /// this definition.
    private func keptSearch<Item: Persistable>(_ search: FullTextSearch<Item>) throws -> PostgresSearch {
        guard let kept = store.searchesByName[search.name], kept.describes(search) else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The full-text search '\(search.name)' is not kept by this PostgreSQL store with this definition: open the store with the model \(Item.self) in models:, or with the search in extensions:.",
                collection: Item.collection, extensionName: search.name)
        }
        return kept
    }

    /// The index a plan queries, as the store keeps it, and the clauses; or the refusal of a plan
    /// that is not a query of an index, or of an index the store does not keep.
    private func indexQuery<Item: Persistable>(_ plan: QueryPlan<Item>) throws -> (PostgresIndex, IndexQueryClauses) {
        guard case .index(let index, let clauses) = plan.source else {
            throw Self.refusal(of: plan)
        }
        guard let kept = store.indexesByName[index.name], kept.describes(index) else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The index '\(index.name)' is not kept by this PostgreSQL store with this definition: open the store with the model \(Item.self) in models:, or with the index in extensions:.",
                collection: Item.collection, extensionName: index.name)
        }
        return (kept, clauses)
    }

    /// The keys a traversal reaches, distinct, in the order of `Item`'s keys, limited (as on a
    /// Trove file: `RelationshipTraversal`'s own ordering).
    private func traversalKeys<Item: Persistable>(_ traversal: RelationshipTraversal, of type: Item.Type)
        async throws -> [String]
    {
        try traversal.checkEdge()
        let kept = try store.keptRelationships(
            traversal.extensionName, fingerprint: traversal.fingerprint, collection: traversal.sourceCollection)
        let table = kept.table(names)
        let rows: PostgresRowSequence
        switch traversal.direction {
        case .destinations(let source):
            rows = try await query(
                "SELECT DISTINCT dst_key FROM \(table) WHERE src_key = $1 AND edge = $2", source, traversal.edge,
                collection: traversal.sourceCollection, key: source)
        case .sources(let destination):
            rows = try await query(
                "SELECT DISTINCT src_key FROM \(table) WHERE edge = $1 AND dst_key = $2", traversal.edge, destination,
                collection: traversal.sourceCollection)
        }
        var keys: [String] = []
        for try await key in rows.decode(String.self) { keys.append(key) }
        return traversal.ordered(keys, of: Item.self)
    }

    /// The error of a kind of query that PostgreSQL does not run.
    private static func refusal<Item: Persistable>(of plan: QueryPlan<Item>) -> TroveError {
        TroveError(
            code: .misuse,
            message:
                "PostgreSQL does not run \(plan.kind): a PostgreSQL store runs the queries of secondary indexes, full-text searches and relationships; run this one on a Trove file.",
            collection: Item.collection)
    }
}

extension PostgresIndex {
    /// What a query's statement selects.
    enum Selection: Equatable {
        case items, keys, count
        /// The rows of an `IndexValueQuery`.
        case values(IndexValueSelection)
    }

    /// The value of `cell`, a result of type `type` (`NULL` included).
    static func value(of cell: PostgresCell, _ type: IndexColumnType) throws -> IndexValue {
        switch type {
        case .integer: try cell.decode(Int64?.self).map(IndexValue.integer) ?? .null
        case .real: try cell.decode(Double?.self).map(IndexValue.real) ?? .null
        case .text: try cell.decode(String?.self).map(IndexValue.text) ?? .null
        case .blob: try cell.decode(ByteBuffer?.self).map { .blob(Array($0.readableBytesView)) } ?? .null
        }
    }

    /// Whether this index is the PostgreSQL form of `index`: same collection, version and columns.
    func describes<Item: Persistable>(_ index: SecondaryIndex<Item>) -> Bool {
        collection == Item.collection && version == index.version && columns.count == index.columns.count
            && zip(columns, index.columns).allSatisfy {
                $0.name == $1.name && $0.type == $1.type && $0.isUnique == $1.isUnique
                    && $0.isMultiValued == $1.isMultiValued
            }
    }

    /// The statement of a query of this index, in PostgreSQL's dialect, from the clauses every
    /// engine shares: the conditions (all must hold), the orderings, then the key in `keyOrder`
    /// (the tie order of a Trove file: by value for an integer key type), the limit and offset.
    /// `nil` sorts first when ascending, as in a Trove file.
    ///
    /// - Throws: ``/Trove/TroveError/Code/extensionFailed`` for a column the index does not have.
    func statement(
        _ clauses: IndexQueryClauses, selecting selection: Selection, collection: String, keyOrder: ItemKeyOrder,
        names: PostgresNames
    ) throws -> PostgresQuery {
        var bindings = PostgresBindings()
        var parameterCount = 0
        func placeholder(_ value: IndexValue) -> String {
            Self.bind(value, to: &bindings)
            parameterCount += 1
            return "$\(parameterCount)"
        }
        var from = "\(table(names)) AS x"
        if selection == .items {
            from += " JOIN \(names.items) AS i ON i.collection = \(placeholder(.text(collection))) AND i.key = x.key"
        }
        let predicates = try predicates(of: clauses.conditions, alias: "x", placeholder: placeholder)
        let whereClause = predicates.isEmpty ? "" : " WHERE " + predicates.joined(separator: " AND ")
        var order: [String] = []
        for ordering in clauses.orderings {
            let column = try checkedColumn(ordering.column, alias: "x")
            order.append(ordering.descending ? "\(column) DESC NULLS LAST" : "\(column) ASC NULLS FIRST")
        }
        order.append(keyOrder.postgresTerms(of: "x.key"))
        let limitClause = PostgresSelect.limitClause(clauses.limit, offset: clauses.offset)
        let orderClause = " ORDER BY " + order.joined(separator: ", ")
        let sql: String
        switch selection {
        case .items:
            sql = "SELECT x.key, i.data, i.metadata FROM \(from)\(whereClause)\(orderClause)\(limitClause)"
        case .keys:
            sql = PostgresSelect.keys("x.key", from: from + whereClause, order: orderClause, limit: limitClause)
        case .count:
            sql = PostgresSelect.count("x.key", from: from + whereClause, order: orderClause, limit: limitClause)
        case .values(let values):
            sql = try values.sql(
                from: from + whereClause, alias: "x", order: orderClause, limit: limitClause, key: "x.key",
                column: { try checkedColumn($0, alias: "x") }, dialect: .postgres)
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// The SQL of `conditions` on the columns of this index's table under `alias` (all must
    /// hold), each value bound by `placeholder`, which returns its parameter: the conditions
    /// every engine shares (`IndexColumnSet`), in PostgreSQL's dialect.
    ///
    /// - Throws: ``/Trove/TroveError/Code/extensionFailed`` for a column the index does not have,
    ///   or a condition that does not fit its column.
    func predicates(
        of conditions: [IndexQueryClauses.Condition], alias: String, placeholder: (IndexValue) -> String
    ) throws -> [String] {
        try columnSet.predicates(of: conditions, dialect: Dialect(index: self, alias: alias), placeholder: placeholder)
    }

    /// The quoted column of the index named `name` under `alias`, for an ordering, or Trove's
    /// error for a column it does not have or that is multi-valued (the error a Trove file gives).
    private func checkedColumn(_ name: String, alias: String) throws -> String {
        alias + "." + PostgresNames.quote("c_" + (try columnSet.orderingColumn(name)))
    }

    /// PostgreSQL's side of the SQL of an index's conditions: a multi-valued column is an array,
    /// matched by overlap (`&&`) for one of the values and containment (`@>`) for all of them,
    /// both answered by its GIN index.
    struct Dialect: IndexSQLDialect {
        let index: PostgresIndex
        let alias: String

        func column(_ name: String) -> String { alias + "." + PostgresNames.quote("c_" + name) }

        func containsAny(_ name: String, _ placeholders: [String]) -> String {
            "\(column(name)) && \(array(name, placeholders))"
        }

        func containsAll(_ name: String, _ placeholders: [String]) -> String {
            "\(column(name)) @> \(array(name, placeholders))"
        }

        var never: String { "FALSE" }

        /// The array of the values of `placeholders`, of the type of the column `name`.
        private func array(_ name: String, _ placeholders: [String]) -> String {
            let type = index.columns.first { $0.name == name }?.castType ?? "text"
            return "ARRAY[\(placeholders.map { "\($0)::\(type)" }.joined(separator: ", "))]::\(type)[]"
        }
    }
}

extension ItemKeyOrder {
    /// The terms of a PostgreSQL `ORDER BY` that order the stored keys of the column expression
    /// `column` as a Trove file orders them (`orderingTerms(of:)`, in SQLite's dialect): by text,
    /// byte by byte (keys are `COLLATE "C"`), or for an integer key type by value, then length,
    /// then text. A key that is no integer (written by the untyped API) sorts after the integers,
    /// by text, instead of failing the cast.
    func postgresTerms(of column: String) -> String {
        switch self {
        case .text:
            return column
        case .integer:
            let isInteger = "\(column) ~ '^[+-]?[0-9]{1,40}$'"
            return "CASE WHEN \(isInteger) THEN \(column)::numeric END, CASE WHEN \(isInteger) THEN length(\(column)) END, \(column)"
        }
    }
}
