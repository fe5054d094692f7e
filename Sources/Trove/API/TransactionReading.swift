/// The reads of a transaction, on any engine: what code that runs on SQLite and on PostgreSQL
/// alike reads items with.
///
/// SQLite's ``ReadTransaction`` and TrovePostgres's transactions conform. The requirements are
/// `async`, since a server answers over the network; SQLite's transaction meets them with its
/// synchronous methods, so a body written for any engine costs SQLite no suspension:
///
/// ```swift
/// func profile(_ db: some AsyncDatabaseReader, _ id: User.ID) async throws -> (User?, Int) {
///     try await db.read { tx in
///         (try await tx.read(User.self, key: id), try await tx.count(of: Post.self))
///     }
/// }
/// ```
///
/// Queries (``IndexQuery``, ``FullTextQuery``, ``RelationshipQuery``) run in any such
/// transaction with their terminals: `try await query.items(tx)`.
public protocol TransactionReading {
    /// The item of type `Item` at `key`, with its metadata, or `nil` when there is none.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The item, or `nil`.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` naming the collection,
    ///   key and field when the stored bytes do not decode, or when the engine fails.
    func read<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Item?

    /// The items of type `Item` at `keys`, in the order of `keys`; keys with no item are skipped.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The items found.
    /// - Throws: ``TroveError`` when stored bytes do not decode or the engine fails.
    func read<Item: Persistable, Keys: Sequence<Item.ID>>(_ type: Item.Type, keys: Keys) async throws -> [Item]

    /// Every item of type `Item`, in the order of their stored keys (as text).
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The items.
    /// - Throws: ``TroveError`` when stored bytes do not decode or the engine fails.
    func readAll<Item: Persistable>(_ type: Item.Type) async throws -> [Item]

    /// The metadata of the item of type `Item` at `key`, without decoding the item.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The metadata, or `nil` when there is no item or it has no metadata.
    /// - Throws: ``TroveError`` when the stored metadata does not decode or the engine fails.
    func metadata<Item: Persistable>(for type: Item.Type, key: Item.ID) async throws -> Item.Metadata?

    /// Whether an item of type `Item` is stored at `key`, without decoding it.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when there is an item.
    /// - Throws: ``TroveError`` when the engine fails.
    func contains<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Bool

    /// The keys of every item of type `Item`, in the order of their stored text.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The keys.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/invalidKey`` when a stored key is not a
    ///   valid `Item.ID`, or when the engine fails.
    func keys<Item: Persistable>(of type: Item.Type) async throws -> [Item.ID]

    /// The number of items of type `Item`.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items in the type's collection.
    /// - Throws: ``TroveError`` when the engine fails.
    func count<Item: Persistable>(of type: Item.Type) async throws -> Int

    /// The items `plan` selects: what a query's `items` terminal asks of the engine.
    @_spi(TroveEngine) func items<Item: Persistable>(matching plan: QueryPlan<Item>) async throws -> [Item]

    /// The keys of the items `plan` selects.
    @_spi(TroveEngine) func keys<Item: Persistable>(matching plan: QueryPlan<Item>) async throws -> [Item.ID]

    /// The number of items `plan` selects.
    @_spi(TroveEngine) func count<Item: Persistable>(matching plan: QueryPlan<Item>) async throws -> Int

    /// The hits of the full-text search `plan` describes, with their scores and snippets.
    @_spi(TroveEngine) func hits<Item: Persistable>(matching plan: QueryPlan<Item>) async throws -> [SearchHit<Item>]

    /// The rows of `selection` (an aggregate, groups, distinct values, columns) over the index
    /// query `plan`: what an ``IndexValueQuery``'s `value` terminal asks of the engine.
    @_spi(TroveEngine) func indexValueRows<Item: Persistable>(
        matching plan: QueryPlan<Item>, selecting selection: IndexValueSelection
    ) async throws -> [[IndexValue]]
}
