/// What one committed read-write transaction changed.
///
/// Every commit that changes something produces a changeset, delivered to every other
/// connection (which invalidates exactly these entries of its caches) and to the observers of
/// ``Database/changes``.
///
/// ```swift
/// for await changeset in database.changes {
///     if changeset.containsChange(in: User.collection) { reloadUsers() }
/// }
/// ```
///
/// ## Inserted, updated, removed
///
/// A key is classified by comparing the item before the transaction with the item after it:
///
/// - **inserted** (``insertedKeys``): absent before, present after. A key inserted then written
///   again in the same transaction is inserted.
/// - **updated** (``updatedKeys``): present before and after: written, its data or metadata
///   replaced, or touched. A key removed then written again in the same transaction is updated:
///   it existed before the transaction and exists after it.
/// - **removed** (``removedKeys``): absent after the transaction. A key inserted then removed in
///   the same transaction is reported removed too, although it existed neither before nor after:
///   a changeset may name more keys than strictly changed, never fewer.
///
/// After a collection was removed as a whole in the transaction (``removedCollections``), the
/// keys written to it later in the same transaction are inserted.
///
/// ## Changesets that do not list the changes
///
/// A changeset whose ``reloadReason`` is not `nil` (``isComplete`` is `false`) does not say what
/// changed: anything may have changed, and a consumer that keeps state derived from the database
/// should reload it. ``Database/changes`` delivers one when another process committed to the
/// file (``ReloadReason/externalChange``), and when a consumer fell so far behind that its
/// buffered changesets were dropped (``ReloadReason/missedChanges``). Every `contains` question
/// answers `true` for such a changeset.
public struct Changeset: Sendable, Hashable {
    /// Why a changeset does not list what changed; see ``Changeset/reloadReason``.
    public enum ReloadReason: Sendable, Hashable {
        /// Something other than this ``Database`` instance committed to the file: another
        /// process, another `Database` on the same file. Trove cannot tell what changed.
        case externalChange
        /// The consumer of ``Database/changes`` did not keep up: changesets beyond
        /// ``Configuration/changesBufferLimit`` were dropped, and this one stands for them.
        case missedChanges
    }

    /// The number of this commit among the commits made through the same ``Database``
    /// instance. Numbers increase by one with every commit that changes something; a commit
    /// that fails uses up its number. Commits of other processes are not numbered here: the
    /// changeset that reports them (``ReloadReason/externalChange``) carries the number of this
    /// instance's latest commit when they were noticed.
    public var snapshot: UInt64
    /// Keys of items that did not exist before the transaction and exist after it, by
    /// collection.
    public var insertedKeys: [String: Set<String>]
    /// Keys of items that existed before the transaction and were written (replaced, data or
    /// metadata replaced, touched), by collection.
    public var updatedKeys: [String: Set<String>]
    /// Keys removed one by one, by collection.
    public var removedKeys: [String: Set<String>]
    /// Collections removed as a whole.
    public var removedCollections: Set<String>
    /// Whether every item of every collection was removed.
    public var removedAllCollections: Bool
    /// The extensions that were registered, rebuilt or removed (see ``DatabaseExtension``). A
    /// commit that changed only extensions has a changeset too.
    public var changedExtensions: Set<String>
    /// `nil` when this changeset lists what changed; otherwise why it cannot, and the consumer
    /// should consider that anything may have changed.
    public var reloadReason: ReloadReason?
    /// What the "notify" delete rules of relationships reported in the transaction, in the order
    /// they fired (see ``RelationshipNotice``).
    public var relationshipNotices: [RelationshipNotice] = []
    /// The row changes of each view that this commit changed, by view name (see ``View`` and
    /// ``ViewChanges``). Empty for a changeset that does not list what changed.
    public var viewChanges: [String: ViewChanges] = [:]
    /// What extensions of your own recorded in the transaction, in order, by extension name (see
    /// ``ExtensionContext/recordChange(_:)``): their part of the changeset.
    public var extensionNotes: [String: [String]] = [:]
    /// The persistent views whose pages this commit wrote with no change to report in
    /// ``viewChanges``, for the page caches of the other connections (see ``ViewPageCache``). Not
    /// part of the changeset's value.
    var viewPagesWritten = ViewPagesWritten()

    /// Creates a changeset.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot number after the commit.
    ///   - changedKeys: Keys written, by collection, that are not in `insertedKeys`: they count
    ///     as updated.
    ///   - insertedKeys: Keys inserted, by collection.
    ///   - updatedKeys: Keys updated, by collection.
    ///   - removedKeys: Keys removed, by collection.
    ///   - removedCollections: Collections removed as a whole.
    ///   - removedAllCollections: Whether everything was removed.
    ///   - changedExtensions: The extensions registered, rebuilt or removed.
    ///   - reloadReason: `nil` when the changeset lists what changed.
    public init(
        snapshot: UInt64,
        changedKeys: [String: Set<String>] = [:],
        insertedKeys: [String: Set<String>] = [:],
        updatedKeys: [String: Set<String>] = [:],
        removedKeys: [String: Set<String>] = [:],
        removedCollections: Set<String> = [],
        removedAllCollections: Bool = false,
        changedExtensions: Set<String> = [],
        reloadReason: ReloadReason? = nil
    ) {
        self.snapshot = snapshot
        self.insertedKeys = insertedKeys
        self.updatedKeys = updatedKeys
        self.removedKeys = removedKeys
        self.removedCollections = removedCollections
        self.removedAllCollections = removedAllCollections
        self.changedExtensions = changedExtensions
        self.reloadReason = reloadReason
        for (collection, keys) in changedKeys {
            let updated = keys.subtracting(insertedKeys[collection] ?? [])
            if !updated.isEmpty { self.updatedKeys[collection, default: []].formUnion(updated) }
        }
    }

    /// Keys written (inserted or updated: ``insertedKeys`` and ``updatedKeys`` together), by
    /// collection.
    ///
    /// Setting it keeps as inserted the keys of ``insertedKeys`` that it lists, and makes every
    /// other key it lists updated.
    public var changedKeys: [String: Set<String>] {
        get {
            if insertedKeys.isEmpty { return updatedKeys }
            if updatedKeys.isEmpty { return insertedKeys }
            return insertedKeys.merging(updatedKeys) { $0.union($1) }
        }
        set {
            var inserted: [String: Set<String>] = [:]
            var updated: [String: Set<String>] = [:]
            for (collection, keys) in newValue {
                let wasInserted = insertedKeys[collection].map { keys.intersection($0) } ?? []
                if !wasInserted.isEmpty { inserted[collection] = wasInserted }
                let rest = keys.subtracting(wasInserted)
                if !rest.isEmpty { updated[collection] = rest }
            }
            insertedKeys = inserted
            updatedKeys = updated
        }
    }

    /// Whether this changeset lists what changed (``reloadReason`` is `nil`).
    public var isComplete: Bool {
        reloadReason == nil
    }

    /// Whether the transaction changed nothing. A changeset that does not list what changed
    /// (``isComplete`` is `false`) is never empty.
    public var isEmpty: Bool {
        insertedKeys.isEmpty && updatedKeys.isEmpty && removedKeys.isEmpty && removedCollections.isEmpty
            && !removedAllCollections && changedExtensions.isEmpty && reloadReason == nil
    }

    /// Whether the item at `key` in `collection` was written or removed.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: `true` when the item may differ after this commit.
    public func containsChange(forKey key: String, in collection: String) -> Bool {
        reloadReason != nil
            || removedAllCollections
            || removedCollections.contains(collection)
            || insertedKeys[collection]?.contains(key) == true
            || updatedKeys[collection]?.contains(key) == true
            || removedKeys[collection]?.contains(key) == true
    }

    /// Whether any item of `collection` was written or removed.
    ///
    /// - Parameter collection: The collection.
    /// - Returns: `true` when some item of the collection may differ after this commit.
    public func containsChange(in collection: String) -> Bool {
        reloadReason != nil
            || removedAllCollections
            || removedCollections.contains(collection)
            || insertedKeys[collection] != nil
            || updatedKeys[collection] != nil
            || removedKeys[collection] != nil
    }

    /// The collections in which this changeset inserted, updated or removed keys, or that it
    /// removed as a whole, each once (not the collections of ``removedAllCollections``).
    package var touchedCollections: [String] {
        var names: [String] = []
        func add(_ name: String) {
            if !names.contains(name) { names.append(name) }
        }
        for name in insertedKeys.keys { add(name) }
        for name in updatedKeys.keys { add(name) }
        for name in removedKeys.keys { add(name) }
        for name in removedCollections { add(name) }
        return names
    }

    /// A changeset that lists nothing and says why: anything may have changed.
    ///
    /// - Parameters:
    ///   - reason: Why the changes are not listed.
    ///   - snapshot: The number of the latest commit of this `Database` instance.
    /// - Returns: The changeset.
    static func reload(_ reason: ReloadReason, snapshot: UInt64) -> Changeset {
        Changeset(snapshot: snapshot, reloadReason: reason)
    }
}

/// The names of the persistent views whose pages a commit wrote with no row or group change to
/// report (a row inserted into a full page and removed again in the same transaction leaves the
/// page split): with the views of ``Changeset/viewChanges``, every view whose pages changed. A
/// hint for caches, left out of the changeset's equality and hash: two changesets that report the
/// same changes are equal.
struct ViewPagesWritten: Sendable, Hashable {
    var names: Set<String> = []

    static func == (lhs: Self, rhs: Self) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
