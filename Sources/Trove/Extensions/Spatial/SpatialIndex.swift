/// A spatial index: the bounding box of each item of one collection, in SQLite's R*Tree, kept in
/// step with every write, queried by box and nearest-first around a point (``SpatialQuery``).
///
/// ```swift
/// let placesByLocation = SpatialIndex<Place>("places_where") { .point(x: $0.longitude, y: $0.latitude) }
/// let database = try Database(path: path, extensions: [placesByLocation.databaseExtension])
///
/// let inView = try placesByLocation.query(intersecting: SpatialBox(minX: 2.2, maxX: 2.5, minY: 48.8, maxY: 48.9))
///     .items(in: database)
/// let closest = try placesByLocation.query(near: SpatialPoint(x: 2.35, y: 48.85), within: 0.1)
///     .limit(20)
///     .items(in: database)
/// ```
///
/// Each item's box comes from a closure (a point is a box of zero size; `nil` leaves the item
/// out), in two dimensions, with finite coordinates: a write of an item whose box is not valid
/// (a minimum above its maximum, a coordinate that is infinite or not a number) throws. The boxes
/// are stored in an `rtree` virtual table of the same file, `trove_ext_<name>`, keyed by the
/// item's row id, and the item's key and its exact coordinates in a table beside it,
/// `trove_ext_<name>_exact`, keyed by the same row id (the R*Tree keeps its coordinates as 32-bit
/// floats, rounded outward): the R*Tree finds the candidates, the exact coordinates decide. A new
/// version rebuilds the index at the next registration.
///
/// The index is written on the public extension protocol alone (``ExtensionImplementation``,
/// ``ExtensionContext``, ``ReadTransaction/extensionTables(named:)``, and
/// ``QueryPlan/init(extension:matches:)`` for its queries), as an extension of your own would be. A
/// PostgreSQL store does not keep it: it refuses it at open, naming it.
public struct SpatialIndex<Item: Persistable>: Sendable {
    /// The name of the index, unique among the extensions of a file.
    public let name: String
    /// The version of the definition: a new version rebuilds the index.
    public let version: Int
    /// The bounding box of an item, or `nil` to leave it out.
    public let box: @Sendable (Item) -> SpatialBox?
    /// The R*Tree.
    let table: String
    /// The table of the items' keys and exact boxes, by row id.
    let exactTable: String
    /// The SQL of the queries.
    let sql: SpatialSQL

    /// Defines a spatial index of the items of `Item`.
    ///
    /// - Parameters:
    ///   - name: The name of the index: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1): change it when `box` changes, to
    ///     rebuild the index.
    ///   - box: The bounding box of an item (``SpatialBox/point(x:y:)`` for a point), or `nil` to
    ///     leave the item out of the index.
    public init(_ name: String, version: Int = 1, box: @escaping @Sendable (Item) -> SpatialBox?) {
        self.name = name
        self.version = version
        self.box = box
        table = "trove_ext_\(name)"
        exactTable = "trove_ext_\(name)_exact"
        sql = SpatialSQL(tree: table, exact: exactTable, keyOrder: ItemKeyOrder(of: Item.ID.self))
    }

    /// The index as an extension to register (``Database/register(_:)-(DatabaseExtension)``).
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: SpatialIndexImplementation(index: self))
    }

    /// The items whose box shares at least one point with `box` (edges count), in key order.
    ///
    /// ```swift
    /// let touching = try byLocation.query(intersecting: SpatialBox(minX: 0, maxX: 10, minY: 0, maxY: 10)).keys(in: database)
    /// ```
    public func query(intersecting box: SpatialBox) -> SpatialQuery<Item> {
        SpatialQuery(index: self, shape: .intersecting(box))
    }

    /// The items whose box lies entirely in `box` (edges count), in key order.
    public func query(within box: SpatialBox) -> SpatialQuery<Item> {
        SpatialQuery(index: self, shape: .within(box))
    }

    /// The items whose box is at most `radius` from `point` (the exact Euclidean distance to the
    /// nearest point of the box: 0 when the box holds `point`), nearest first, items at the same
    /// distance in key order. A negative radius selects nothing.
    ///
    /// ```swift
    /// let nearest = try byLocation.query(near: SpatialPoint(x: 3, y: 4), within: 10).limit(20).items(in: database)
    /// ```
    public func query(near point: SpatialPoint, within radius: Double = .infinity) -> SpatialQuery<Item> {
        SpatialQuery(index: self, shape: .near(point, radius: radius))
    }
}

/// What a ``SpatialIndex`` does as an extension: written on the public extension protocol alone
/// (no internal API of ``ExtensionContext``).
struct SpatialIndexImplementation<Item: Persistable>: ExtensionImplementation {
    let index: SpatialIndex<Item>

    var kind: String { "spatialIndex" }
    var collection: String { Item.collection }
    /// Version 1 kept the key and the exact box as auxiliary columns of the R*Tree, which SQLite
    /// reads through a statement of its own that it prepares again for every query (48,000
    /// instructions) and steps for every candidate; version 2 keeps them in a table of their own,
    /// joined by row id.
    var fingerprint: String { "spatial 2d v2" }
    var needsRemovedRows: Bool { false }

    func tableNames(name: String) -> [String] {
        [index.table, index.exactTable]
    }

    func create(name: String, in context: ExtensionContext) throws {
        // The R*Tree's columns (32-bit floats, rounded outward) find the candidates; the table
        // beside it holds the key and the exact box.
        try context.execute("CREATE VIRTUAL TABLE \"\(index.table)\" USING rtree(id, minX, maxX, minY, maxY)")
        try context.execute(
            "CREATE TABLE \"\(index.exactTable)\" (id INTEGER PRIMARY KEY, key TEXT NOT NULL, x0 REAL NOT NULL, x1 REAL NOT NULL, y0 REAL NOT NULL, y1 REAL NOT NULL)"
        )
    }

    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        try context.forEachItem(of: Item.self, progress: progress) { rowID, key, item in
            try insert(rowID: rowID, key: key, item: item, in: context)
        }
    }

    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        switch event.kind {
        case .inserted:
            guard let item = try context.item(of: event, as: Item.self) else { return }
            try insert(rowID: event.rowID, key: event.key, item: item, in: context)
        case .dataUpdated, .metadataUpdated:
            try delete(rowID: event.rowID, in: context)
            guard let item = try context.item(of: event, as: Item.self) else { return }
            try insert(rowID: event.rowID, key: event.key, item: item, in: context)
        case .touched:
            break
        case .removed:
            try delete(rowID: event.rowID, in: context)
        }
    }

    func applyRemovals(_ rows: [RemovedRow], name: String, in context: ExtensionContext) throws {
        for row in rows {
            try delete(rowID: row.rowID, in: context)
        }
    }

    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try context.execute("DELETE FROM \"\(index.table)\"")
        try context.execute("DELETE FROM \"\(index.exactTable)\"")
    }

    private func insert(rowID: Int64, key: String, item: Item, in context: ExtensionContext) throws {
        guard let box = index.box(item) else { return }
        guard box.isValid else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The spatial index '\(index.name)' cannot store the box of the item '\(key)' of '\(Item.collection)' (x \(box.minX)...\(box.maxX), y \(box.minY)...\(box.maxY)): each coordinate must be finite and each minimum at most its maximum.",
                collection: Item.collection, key: key, extensionName: index.name)
        }
        let arguments: [IndexValue] = [
            .integer(rowID), .real(box.minX), .real(box.maxX), .real(box.minY), .real(box.maxY), .text(key),
        ]
        try context.execute(
            "INSERT INTO \"\(index.table)\" (id, minX, maxX, minY, maxY) VALUES (?1, ?2, ?3, ?4, ?5)",
            Array(arguments.prefix(5)))
        try context.execute(
            "INSERT INTO \"\(index.exactTable)\" (id, key, x0, x1, y0, y1) VALUES (?1, ?6, ?2, ?3, ?4, ?5)", arguments)
    }

    private func delete(rowID: Int64, in context: ExtensionContext) throws {
        try context.execute("DELETE FROM \"\(index.table)\" WHERE id = ?", [.integer(rowID)])
        try context.execute("DELETE FROM \"\(index.exactTable)\" WHERE id = ?", [.integer(rowID)])
    }
}
