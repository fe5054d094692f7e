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
            if case .within = shape { sql = index.sql.within } else { sql = index.sql.intersecting }
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
        arguments.append(.integer(Int64(limit ?? -1)))
        var matches: [ExtensionMatch] = []
        try tables.select(sql, arguments) { matches.append(ExtensionMatch(rowID: $0.int64(at: 0), key: $0.string(at: 1))) }
        return matches
    }
}

/// The SQL of the queries of one ``SpatialIndex``, made once with the index: the R*Tree's
/// columns take the candidates whose stored box (rounded outward) meets the box `?1...?4`
/// (`minX`, `maxX`, `minY`, `maxY`); the exact columns decide; the results come in key order, or
/// by distance from (`?5`, `?6`) then key, at most `LIMIT` (the last parameter; -1: no limit).
struct SpatialSQL: Sendable {
    let intersecting: String
    let within: String
    let near: String

    init(table: String, keyOrder: ItemKeyOrder) {
        let table = "\"\(table)\""
        let keys = keyOrder.orderingTerms(of: "key")
        let candidates = "minX <= ?2 AND maxX >= ?1 AND minY <= ?4 AND maxY >= ?3"
        intersecting =
            "SELECT id, key FROM \(table) WHERE \(candidates) AND x0 <= ?2 AND x1 >= ?1 AND y0 <= ?4 AND y1 >= ?3 ORDER BY \(keys) LIMIT ?5"
        within =
            "SELECT id, key FROM \(table) WHERE \(candidates) AND x0 >= ?1 AND x1 <= ?2 AND y0 >= ?3 AND y1 <= ?4 ORDER BY \(keys) LIMIT ?5"
        // The distance is computed as ``SpatialBox/squaredDistance(to:)`` computes it, and
        // compared with the square of the radius (?7).
        near = """
            SELECT id, key FROM (
                SELECT id, key, dx * dx + dy * dy AS d2 FROM (
                    SELECT id, key, max(x0 - ?5, ?5 - x1, 0.0) AS dx, max(y0 - ?6, ?6 - y1, 0.0) AS dy
                    FROM \(table) WHERE \(candidates)))
            WHERE d2 <= ?7 ORDER BY d2, \(keys) LIMIT ?8
            """
    }
}
