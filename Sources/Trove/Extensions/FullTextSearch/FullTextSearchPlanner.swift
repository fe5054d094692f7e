/// Builds and runs the SQL of the searches of one ``FullTextSearch``, for every item type.
final class FullTextSearchPlanner: Sendable {
    /// What a search selects.
    enum Selection: Hashable {
        case items, keys, count
    }

    let name: String
    /// The collection of the items, which a search records as read when an observation runs it.
    let collection: String
    let fingerprint: String
    let columnNames: [String]
    /// The table, quoted.
    private let table: String
    /// `bm25(table, w1, w2, ...)`.
    private let rank: String

    init(name: String, collection: String, table: String, fingerprint: String, columnNames: [String], weights: [Double]) {
        self.name = name
        self.collection = collection
        self.table = "\"\(table)\""
        self.fingerprint = fingerprint
        self.columnNames = columnNames
        // Weights that are not finite are refused at registration, and `checkQueryable` refuses a
        // search that is not registered: "1" only keeps the SQL valid until then.
        let literals = weights.map { $0.isFinite ? "\($0)" : "1" }
        rank = "bm25(\(self.table)\(literals.map { ", " + $0 }.joined()))"
    }

    /// Runs `clauses` and calls `row` with each result row: for items, the key, data, metadata,
    /// score and excerpt; for keys, the key; for a count, the count.
    func run(
        _ clauses: FullTextClauses, selecting selection: Selection, in transaction: ReadTransaction,
        row: (Statement) throws -> Void
    ) throws {
        let core = transaction.checkedCore
        // The collection as a whole: any change to it may change the search's result.
        transaction.recorder?.recordIndex(name, of: collection)
        try core.checkQueryable(name, fingerprint: fingerprint)
        for filter in clauses.indexFilters {
            transaction.recorder?.recordIndex(filter.index.name, of: collection)
            try core.checkQueryable(filter.index.name, fingerprint: filter.index.fingerprint)
        }
        guard let expression = clauses.query.expression else {
            if selection == .count {
                let zero = try core.sqlite.cachedStatement("SELECT 0")
                defer { zero.reset() }
                while try zero.step() { try row(zero) }
            }
            return
        }
        guard !expression.utf8.contains(0) else {
            // FTS5 would read the query up to the NUL only, and search for something else.
            throw TroveError(
                code: .invalidSearchQuery,
                message: "The query '\(expression)' of the full-text search '\(name)' holds a NUL character, which FTS5 cannot read.",
                collection: collection, extensionName: name)
        }
        let excerptColumn = try clauses.excerpt.map { excerpt in
            guard let index = columnNames.firstIndex(of: excerpt.column) else {
                throw TroveError.noSearchColumn(excerpt.column, in: name, columns: columnNames)
            }
            return index
        }
        let sql = try makeSQL(clauses, selecting: selection, excerptColumn: excerptColumn)
        // A statement per shape is kept, but not one per length of an IN list.
        let hasList = clauses.indexFilters.contains { filter in
            filter.conditions.contains { $0.predicate.hasList }
        }
        let statement = try hasList ? core.sqlite.makeStatement(sql) : core.sqlite.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(expression, at: 1)
        var parameter: Int32 = 1
        if selection == .items, let excerpt = clauses.excerpt {
            try statement.bind(excerpt.before, at: 2)
            try statement.bind(excerpt.after, at: 3)
            parameter = 3
            if case .snippet(let ellipsis, _) = excerpt.kind {
                try statement.bind(ellipsis, at: 4)
                parameter = 4
            }
        }
        for filter in clauses.indexFilters {
            for value in IndexQueryPlanner.values(of: filter.conditions) {
                parameter += 1
                try statement.bind(value, at: parameter)
            }
        }
        if clauses.limit != nil || clauses.offset != 0 {
            try statement.bind(Int64(clauses.limit ?? -1), at: parameter + 1)
            try statement.bind(Int64(clauses.offset), at: parameter + 2)
        }
        do {
            while try statement.step() {
                try row(statement)
            }
        } catch let error as TroveError where error.sql == sql && error.sqliteResultCode == 1 {  // SQLITE_ERROR
            // A prepared search fails while it runs only when FTS5 cannot parse the query (or
            // finds a column filter naming no column).
            throw TroveError.invalidSearchQuery(
                expression, of: "the full-text search '\(name)'", collection: collection, extensionName: name,
                refusal: error)
        }
    }

    /// The SQL of a search, with `?1` the query, then the excerpt's texts, then the values of
    /// the index filters, then limit and offset.
    private func makeSQL(_ clauses: FullTextClauses, selecting selection: Selection, excerptColumn: Int?) throws
        -> String
    {
        var parameterCount = 1
        var excerpt = "NULL"
        if selection == .items, let kind = clauses.excerpt?.kind, let excerptColumn {
            switch kind {
            case .snippet(_, let tokens):
                excerpt = "snippet(\(table), \(excerptColumn), ?2, ?3, ?4, \(tokens))"
                parameterCount = 4
            case .highlight:
                excerpt = "highlight(\(table), \(excerptColumn), ?2, ?3)"
                parameterCount = 3
            }
        }
        // Each index filter joins the index's table on the row id.
        var joins = ""
        var predicates = ""
        for (offset, filter) in clauses.indexFilters.enumerated() {
            let alias = "i\(offset)"
            joins += " JOIN \(filter.index.table) AS \(alias) ON \(alias).rowid = \(table).rowid"
            for predicate in try filter.index.predicates(
                of: filter.conditions, alias: alias, parameterCount: &parameterCount)
            {
                predicates += " AND \(predicate)"
            }
        }
        let limitClause =
            clauses.limit == nil && clauses.offset == 0
            ? "" : " LIMIT ?\(parameterCount + 1) OFFSET ?\(parameterCount + 2)"
        let from =
            " FROM \(table) JOIN trove_items AS t ON t.rowid = \(table).rowid\(joins) WHERE \(table) MATCH ?1\(predicates)"
        let order = " ORDER BY \(rank), t.key"
        switch selection {
        case .items:
            return "SELECT t.key, t.data, t.metadata, \(rank), \(excerpt)\(from)\(order)\(limitClause)"
        case .keys:
            return "SELECT t.key\(from)\(order)\(limitClause)"
        case .count where limitClause.isEmpty:
            return "SELECT count(*) FROM \(table)\(joins) WHERE \(table) MATCH ?1\(predicates)"
        case .count:
            return "SELECT count(*) FROM (SELECT 1\(from)\(order)\(limitClause))"
        }
    }
}

extension TroveError {
    /// The error of an excerpt of a column that the full-text search `search` does not have,
    /// on every engine.
    package static func noSearchColumn(_ column: String, in search: String, columns: [String]) -> TroveError {
        TroveError(
            code: .extensionFailed,
            message:
                "The full-text search '\(search)' has no column '\(column)'; its columns are \(columns.map { "'\($0)'" }.joined(separator: ", ")).",
            field: column, extensionName: search)
    }
}

extension TroveError {
    /// FTS5 refused `expression`, the query of `what` (the full-text search or the search
    /// results view named in words), with the SQLite error `refusal`.
    static func invalidSearchQuery(
        _ expression: String, of what: String, collection: String, extensionName: String, refusal: TroveError
    ) -> TroveError {
        TroveError(
            code: .invalidSearchQuery,
            message:
                "The query '\(expression)' of \(what) is not valid FTS5 syntax: \(refusal.sqliteMessage ?? "SQLite refused it").",
            collection: collection, extensionName: extensionName, sql: refusal.sql,
            sqliteResultCode: refusal.sqliteResultCode, underlyingError: refusal)
    }
}
