/// A query of a ``SpatialIndex``, as a value: the items whose box intersects a box, lies within
/// one, or is near a point, with an optional limit. Built without a database, run by its
/// terminals (``ItemQuery``) where you say:
///
/// ```swift
/// let query = byLocation.query(near: SpatialPoint(x: 2.35, y: 48.85), within: 0.1).limit(20)
/// let nearest = try query.items(in: database)          // one read transaction
/// try database.read { tx in try query.count(tx) }      // inside a transaction
/// ```
///
/// The R*Tree finds the items whose stored box (rounded outward to 32-bit floats) meets the box
/// of the query; their exact boxes decide, and the distance of a ``SpatialIndex/query(near:within:)``
/// is computed and ordered by in the same SQL statement (see ``SpatialBox/squaredDistance(to:)``),
/// so that only the row ids and keys of the page cross into Swift. Items then come by their row
/// ids, in one statement, through the connection's cache. PostgreSQL does not run it: it refuses it, naming the index.
public struct SpatialQuery<Item: Persistable>: ItemQuery {
    /// What the query looks for.
    enum Shape: Sendable, Hashable {
        case intersecting(SpatialBox)
        case within(SpatialBox)
        case near(SpatialPoint, radius: Double)
    }

    let index: SpatialIndex<Item>
    let shape: Shape
    var limit: Int?

    init(index: SpatialIndex<Item>, shape: Shape) {
        self.index = index
        self.shape = shape
    }

    /// The query limited to its first `limit` results (a negative number counts as 0).
    ///
    /// - Parameter limit: The largest number of results.
    /// - Returns: The limited query.
    public func limit(_ limit: Int) -> Self {
        var copy = self
        copy.limit = max(0, limit)
        return copy
    }

    /// What the query selects, for the engine that runs it: a query of the extension, which
    /// reads its row ids and keys (``QueryPlan/init(extension:matches:)``).
    public var plan: QueryPlan<Item> {
        QueryPlan(extension: index.name) { [self] (transaction: ReadTransaction, limit: Int?) in
            try matches(in: transaction, limit: limit)
        }
    }

    /// The row ids and stored keys of the selected items, in order, at most the smaller of the
    /// query's limit and `limit`.
    func matches(in transaction: ReadTransaction, limit: Int?) throws -> [ExtensionMatch] {
        let tables = try transaction.extensionTables(named: index.name)
        let limit = [self.limit, limit].compactMap { $0 }.min()
        if limit == 0 { return [] }
        let sql: String
        var arguments: [IndexValue]
        switch shape {
        case .intersecting(let box), .within(let box):
            let statements = limit == nil ? index.sql.unlimited : index.sql.limited
            if case .within = shape { sql = statements.within } else { sql = statements.intersecting }
            arguments = [.real(box.minX), .real(box.maxX), .real(box.minY), .real(box.maxY)]
        case .near(let point, let radius):
            guard radius >= 0 else { return [] }
            // The box of the disc, grown a little so that no item at the radius is lost to the
            // rounding of the subtractions (the exact distance decides).
            let reach = radius + 1e-9 * (radius + abs(point.x) + abs(point.y)) + Double.leastNormalMagnitude
            sql = index.sql.near
            arguments = [
                .real(point.x - reach), .real(point.x + reach), .real(point.y - reach), .real(point.y + reach),
                .real(point.x), .real(point.y), .real(radius * radius),
            ]
        }
        if let limit { arguments.append(.integer(Int64(limit))) } else if case .near = shape { arguments.append(.integer(-1)) }
        var matches: [ExtensionMatch] = []
        try tables.select(sql, arguments) { matches.append(ExtensionMatch(rowID: $0.int64(at: 0), key: $0.string(at: 1))) }
        return matches
    }
}

/// The SQL of the queries of one ``SpatialIndex``, made once with the index: the R*Tree's
/// columns take the candidates whose stored box (rounded outward) meets the box `?1...?4`
/// (`minX`, `maxX`, `minY`, `maxY`); the exact box of each, joined by row id, decides; the results
/// come in key order, or by distance from (`?5`, `?6`) then key, at most `LIMIT` (the last
/// parameter; -1: no limit).
///
/// The box queries come in two forms, with a `LIMIT` and without: with one, SQLite keeps the
/// first rows of the order in a temporary b-tree it creates for each run of the statement (about
/// 40,000 instructions, an eighth of a box query), where without one it sorts once.
struct SpatialSQL: Sendable {
    /// The two box queries, with the same `LIMIT` or with none.
    struct BoxQueries: Sendable {
        let intersecting: String
        let within: String
    }

    let limited: BoxQueries
    let unlimited: BoxQueries
    let near: String

    init(tree: String, exact: String, keyOrder: ItemKeyOrder) {
        let keys = keyOrder.orderingTerms(of: "e.key")
        let candidates =
            "FROM \"\(tree)\" AS t JOIN \"\(exact)\" AS e ON e.id = t.id WHERE t.minX <= ?2 AND t.maxX >= ?1 AND t.minY <= ?4 AND t.maxY >= ?3"
        let intersecting =
            "SELECT t.id, e.key \(candidates) AND e.x0 <= ?2 AND e.x1 >= ?1 AND e.y0 <= ?4 AND e.y1 >= ?3 ORDER BY \(keys)"
        let within =
            "SELECT t.id, e.key \(candidates) AND e.x0 >= ?1 AND e.x1 <= ?2 AND e.y0 >= ?3 AND e.y1 <= ?4 ORDER BY \(keys)"
        unlimited = BoxQueries(intersecting: intersecting, within: within)
        limited = BoxQueries(intersecting: intersecting + " LIMIT ?5", within: within + " LIMIT ?5")
        // The distance is computed as ``SpatialBox/squaredDistance(to:)`` computes it (the
        // largest of `x0 - px`, `px - x1` and 0 is the one whose test holds: a difference of two
        // finite doubles has the sign of their comparison), and compared with the square of the
        // radius (?7). `CASE` rather than `max()`: SQLite evaluates the expression for the filter
        // and again for the order, and a call of `max` costs some hundreds of instructions each time.
        let dx = "(CASE WHEN e.x0 > ?5 THEN e.x0 - ?5 WHEN e.x1 < ?5 THEN ?5 - e.x1 ELSE 0.0 END)"
        let dy = "(CASE WHEN e.y0 > ?6 THEN e.y0 - ?6 WHEN e.y1 < ?6 THEN ?6 - e.y1 ELSE 0.0 END)"
        let d2 = "\(dx) * \(dx) + \(dy) * \(dy)"
        near = "SELECT t.id, e.key, \(d2) AS d2 \(candidates) AND \(d2) <= ?7 ORDER BY d2, \(keys) LIMIT ?8"
    }
}
