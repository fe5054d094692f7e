/// The writes of a transaction, on any engine (see ``TransactionReading``).
///
/// SQLite's ``ReadWriteTransaction`` and TrovePostgres's read-write transactions conform: code
/// that writes through this protocol runs on either.
///
/// ```swift
/// func signUp(_ db: some AsyncDatabaseWriter, _ user: User) async throws {
///     try await db.write { tx in
///         guard try await !tx.contains(User.self, key: user.id) else { return }
///         try await tx.write(user)
///     }
/// }
/// ```
public protocol TransactionWriting: TransactionReading {
    /// Stores `item` with its metadata, replacing the item at its key.
    ///
    /// - Parameter item: The item to store.
    /// - Throws: ``TroveError`` when the item cannot be encoded, an extension refuses it (a
    ///   unique index), or the engine fails.
    func write<Item: Persistable>(_ item: Item) async throws

    /// Stores every item of `items`.
    ///
    /// - Parameter items: The items to store.
    /// - Throws: What ``write(_:)-(Item)`` throws.
    func write<Items: Sequence>(_ items: Items) async throws where Items.Element: Persistable

    /// Replaces the metadata of the item of type `Item` at `key`, keeping the item.
    ///
    /// - Parameters:
    ///   - metadata: The new metadata; `nil` removes it.
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when there was such an item.
    /// - Throws: ``TroveError`` when the metadata cannot be encoded or the engine fails.
    @discardableResult
    func setMetadata<Item: Persistable>(_ metadata: Item.Metadata?, for type: Item.Type, key: Item.ID) async throws
        -> Bool

    /// Removes `item` (the item at its key).
    ///
    /// - Parameter item: The item to remove.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when the engine fails.
    @discardableResult
    func remove<Item: Persistable>(_ item: Item) async throws -> Bool

    /// Removes the item of type `Item` at `key`.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: `true` when an item was removed.
    /// - Throws: ``TroveError`` when the engine fails.
    @discardableResult
    func remove<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Bool

    /// Removes the items of type `Item` at `keys`.
    ///
    /// - Parameters:
    ///   - type: The type of the items.
    ///   - keys: The keys of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when the engine fails.
    @discardableResult
    func remove<Item: Persistable, Keys: Sequence<Item.ID>>(_ type: Item.Type, keys: Keys) async throws -> Int

    /// Removes every item of type `Item`.
    ///
    /// - Parameter type: The type of the items.
    /// - Returns: The number of items removed.
    /// - Throws: ``TroveError`` when the engine fails.
    @discardableResult
    func removeAll<Item: Persistable>(_ type: Item.Type) async throws -> Int

    /// Adds (`adding`) or removes the manual edge `edge` of `relationships` from the stored item
    /// at `source` to the key `destination`: what the asynchronous `addEdge(_:from:to:in:)` and
    /// `removeEdge(_:from:to:in:)` of ``Relationships`` run, in each engine's own way.
    ///
    /// A removal applies the edge's rules as if `end` had been removed, when it is not `nil`.
    ///
    /// - Returns: Whether an edge was removed (for a removal; `true` for an addition).
    /// - Throws: ``TroveError`` for an edge that is not manual, a source that does not exist, an
    ///   extension the engine does not keep, or the engine's failure.
    @_spi(TroveEngine)
    func changeManualEdge<Source: Persistable>(
        _ relationships: Relationships<Source>, edge: String, from source: Source.ID, to destination: String,
        adding: Bool, applyingRulesAsIfRemoved end: RelationshipNotice.Removed?
    ) async throws -> Bool
}
