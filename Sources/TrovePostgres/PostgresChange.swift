import Trove

/// One commit to a ``PostgresStore``, as every instance on the same schema sees it: what it
/// changed. Or a flush: this instance missed notifications, and anything may have changed.
///
/// It is not Trove's `Changeset`: a PostgreSQL commit does not know which of the keys it wrote
/// were new (it writes without reading first), and views, relationships and extensions, which
/// a changeset also reports, are not kept on PostgreSQL.
public struct PostgresChange: Sendable, Hashable {
    /// The commit's number in the store's change log (commit order); 0 for a flush.
    public var number: Int64
    /// The items written or removed.
    public var items: Set<ItemAddress>
    /// The collections emptied by `removeAll`.
    public var clearedCollections: Set<String>
    /// Whether this is a flush: this instance's listener connection dropped, so notifications
    /// may have been missed; its cache was emptied.
    public var isFlush: Bool
    /// Whether this change stands for changes that this loop over ``PostgresStore/changes`` did
    /// not read in time: when a change found the loop's buffer of
    /// ``PostgresStore/Configuration-swift.struct/changesBufferLimit`` changes full, they were
    /// dropped, and this one (numbered as the change that found the buffer full) stands for them
    /// all. Anything may have changed: a loop that gets it reloads what it derived from the store.
    /// The rule of a Trove file's `Changeset.ReloadReason.missedChanges`.
    public var missedChanges: Bool = false

    /// Whether this change lists what changed: `false` for a flush and for missed changes, after
    /// which anything may have changed (Trove's `Changeset.isComplete`).
    public var isComplete: Bool { !isFlush && !missedChanges }

    /// A change from its parts.
    ///
    /// - Parameters:
    ///   - number: The commit's number in the change log; 0 for a flush.
    ///   - items: The items written or removed.
    ///   - clearedCollections: The collections emptied.
    ///   - isFlush: Whether notifications may have been missed.
    ///   - missedChanges: Whether this change stands for changes a slow loop dropped.
    public init(
        number: Int64, items: Set<ItemAddress>, clearedCollections: Set<String>, isFlush: Bool,
        missedChanges: Bool = false
    ) {
        self.number = number
        self.items = items
        self.clearedCollections = clearedCollections
        self.isFlush = isFlush
        self.missedChanges = missedChanges
    }

    /// Whether this change may have changed the item at `key` of `collection`: the question
    /// `Changeset.containsChange(forKey:in:)` answers for a Trove file.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: `true` when the item was written or removed, its collection emptied, or this is
    ///   a flush or stands for missed changes.
    public func containsChange(forKey key: String, in collection: String) -> Bool {
        !isComplete || clearedCollections.contains(collection)
            || items.contains(ItemAddress(collection: collection, key: key))
    }
}

/// A commit as the store's cache applies it: its keys as the cache compares them (by their
/// bytes: two keys that Swift finds equal, "caf\u{E9}" and "cafe\u{301}", are two items), which
/// a `Set<ItemAddress>` would merge.
struct CommittedChange: Sendable {
    /// The commit's number in the change log; 0 for a flush.
    var number: Int64
    /// The items written or removed.
    var keys: [CacheKey]
    /// The collections emptied.
    var clearedCollections: Set<String>
    /// Whether anything may have changed (notifications were missed).
    var isFlush: Bool

    /// A flush.
    static let flush = CommittedChange(number: 0, keys: [], clearedCollections: [], isFlush: true)

    /// The change as ``PostgresStore/changes`` hands it out.
    var publicChange: PostgresChange {
        PostgresChange(
            number: number, items: Set(keys.map { ItemAddress(collection: $0.collection, key: $0.key) }),
            clearedCollections: clearedCollections, isFlush: isFlush)
    }
}

extension CommittedChange {
    /// The change as a running observation matches it (Trove's `ObservationState`): a changeset
    /// numbered by the change log, whose keys are all "updated" (a PostgreSQL commit does not
    /// know which were new, and an observation only asks whether a key changed), whose emptied
    /// collections are removed collections, and which stands for anything (missed changes) when
    /// it is a flush.
    var changeset: Changeset {
        if isFlush { return Changeset(snapshot: 0, reloadReason: .missedChanges) }
        var updated: [String: Set<String>] = [:]
        for key in keys { updated[key.collection, default: []].insert(key.key) }
        return Changeset(
            snapshot: UInt64(max(0, number)), updatedKeys: updated, removedCollections: clearedCollections)
    }
}
