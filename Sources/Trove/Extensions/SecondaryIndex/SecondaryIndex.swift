/// A secondary index: a table of column values computed from each item of one collection,
/// kept in step with every write, with an SQLite index on each column, queried by
/// ``IndexQuery``.
///
/// Define it once and register it with the database:
///
/// ```swift
/// let usersByAge = SecondaryIndex<User>("users_by_age", columns: [
///     .column("age") { $0.age },
///     .column("city") { $0.address?.city },
/// ])
/// let database = try Database(path: path, extensions: [usersByAge.databaseExtension])
///
/// let parisians = try usersByAge.query
///     .filter(.column("age", in: 18..<30), .column("city", equals: "Paris"))
///     .sorted(by: .column("age", .descending))
///     .limit(20)
///     .items(in: database)                     // or .items(tx) inside a transaction
/// ```
///
/// The index stores one row per item, keyed by the item's row id, in a table of its own in the
/// same file (`trove_ext_<name>`), and the values of each multi-valued column
/// (``IndexColumn/values(_:unique:_:)``) in a table of (value, row id) pairs
/// (`trove_ext_<name>$<column>`). Every write of the collection, typed or untyped, reaches it
/// inside the write transaction: an untyped write is decoded with `Item`'s coder. Changing the
/// columns, or the version, rebuilds it at the next registration.
public struct SecondaryIndex<Item: Persistable>: Sendable {
    /// The name of the index, unique among the extensions of a file.
    public let name: String
    /// The version of the definition: a new version rebuilds the index.
    public let version: Int
    /// The columns.
    public let columns: [IndexColumn<Item>]
    /// The table, its SQL and the fingerprint of the definition, computed once: every query
    /// needs the table and the fingerprint.
    let implementation: SecondaryIndexImplementation<Item>
    /// Builds and runs the SQL of the index's queries (not generic: the results of a query are
    /// `@inlinable` glue over it).
    @usableFromInline let planner: IndexQueryPlanner

    /// Defines an index of the items of `Item`.
    ///
    /// - Parameters:
    ///   - name: The name of the index: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1). Changing the columns rebuilds the
    ///     index at the same version too.
    ///   - columns: The columns, with distinct names.
    public init(_ name: String, version: Int = 1, columns: [IndexColumn<Item>]) {
        self.name = name
        self.version = version
        self.columns = columns
        implementation = SecondaryIndexImplementation(name: name, columns: columns)
        planner = IndexQueryPlanner(
            name: name, collection: Item.collection, table: implementation.table,
            fingerprint: implementation.fingerprint,
            columns: IndexColumnSet(
                indexName: name, collection: Item.collection, names: columns.map(\.name),
                multiValued: Set(columns.filter(\.isMultiValued).map(\.name))),
            columnTypes: columns.map { .init(name: $0.name, type: $0.type, isMultiValued: $0.isMultiValued) },
            keyOrder: ItemKeyOrder(of: Item.ID.self))
    }

    /// The index as an extension to register (``Database/register(_:)-(DatabaseExtension)``).
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: implementation)
    }

    /// A query of every item of the index, in key order, to narrow with `filter`, `sorted` and
    /// `limit`, and to run with its terminals (``ItemQuery``): a value, with no database in it.
    ///
    /// ```swift
    /// let young = try byAge.query.filter(.column("age", in: 18..<30)).items(in: database)
    /// ```
    @inlinable
    public var query: IndexQuery<Item> {
        IndexQuery(index: self)
    }
}
