/// Accumulates the changes of a read-write transaction, and makes its ``Changeset`` at commit.
///
/// Recording is on the path of every write, so it only appends: each inserted, updated or
/// removed key becomes an event in one array, tagged with the slot of its collection. The
/// collection of the previous event is remembered, so that consecutive writes to one collection
/// (the common case) neither hash its name nor look it up. The events are resolved into sets
/// once, in ``build(snapshot:)``: the first event of a key tells whether the item existed before
/// the transaction (it did unless that event is an insert), the last whether it exists after (it
/// does unless that event is a removal). See ``Changeset`` for the classification.
struct ChangesetBuilder {
    /// What an event did to its key.
    enum Kind: UInt8 {
        /// The key had no item: one was stored.
        case insert
        /// The key had an item: it was replaced, its data or metadata replaced, or touched.
        case update
        /// The key's item was removed.
        case removal
    }

    /// One written or removed key.
    private struct Event {
        var key: String
        /// The index of the event's collection in ``collections``.
        var slot: Int
        var kind: Kind
    }

    /// Every key event since the transaction began (or since everything was removed), in order.
    private var events: [Event] = []
    /// Whether ``events`` may hold a removal, an insert, an update.
    private var hasRemovals = false
    private var hasInserts = false
    private var hasUpdates = false
    /// The collections that ``events`` refer to, by slot.
    private var collections: [String] = []
    /// The slot of each name of ``collections``, once they are too many to search one by one.
    private var slots: [String: Int] = [:]
    /// The slot of the collection of the last recorded event, or -1.
    private var lastSlot = -1

    /// The number of collections searched one by one before they are indexed in ``slots``.
    private static var searchedCollectionLimit: Int { 8 }

    /// Collections removed as a whole.
    private(set) var removedCollections: Set<String> = []
    /// Whether every item of every collection was removed.
    private(set) var removedAllCollections = false

    /// Extensions registered, rebuilt or removed.
    private(set) var changedExtensions: Set<String> = []

    /// What the "notify" delete rules of relationships reported, in order.
    private(set) var relationshipNotices: [RelationshipNotice] = []

    /// What extensions recorded, by extension name (see ``Changeset/extensionNotes``).
    private(set) var extensionNotes: [String: [String]] = [:]

    /// Records a note of the extension `name`.
    mutating func recordExtensionNote(_ note: String, of name: String) {
        extensionNotes[name, default: []].append(note)
    }

    /// Records a notice of a relationship's delete rule.
    mutating func recordRelationshipNotice(_ notice: RelationshipNotice) {
        relationshipNotices.append(notice)
    }

    /// The row changes of views, by view name, recorded when the transaction commits.
    var viewChanges: [String: ViewChanges] = [:]

    /// The persistent views whose pages the transaction wrote with no change to report in
    /// ``viewChanges``, recorded when it commits.
    var viewPagesWritten: Set<String> = []

    /// Whether nothing was recorded.
    var isEmpty: Bool {
        events.isEmpty && removedCollections.isEmpty && !removedAllCollections && changedExtensions.isEmpty
            && extensionNotes.isEmpty
    }

    /// Records that the extension `name` was registered, rebuilt or removed.
    mutating func recordExtensionChange(_ name: String) {
        changedExtensions.insert(name)
    }

    /// Records that an item was stored at `key` in `collection`, where there was none
    /// (`inserted`) or there was one.
    mutating func recordChange(key: String, collection: String, inserted: Bool) {
        events.append(Event(key: key, slot: slot(of: collection), kind: inserted ? .insert : .update))
        if inserted { hasInserts = true } else { hasUpdates = true }
    }

    /// Records that the item at `key` in `collection` was removed.
    mutating func recordRemoval(key: String, collection: String) {
        events.append(Event(key: key, slot: slot(of: collection), kind: .removal))
        hasRemovals = true
    }

    /// Records that every item of `collection` was removed; earlier events of its keys no longer
    /// matter.
    ///
    /// - Complexity: O(n) in the number of events recorded so far.
    mutating func recordRemoval(collection: String) {
        removedCollections.insert(collection)
        if let slot = collections.firstIndex(of: collection) {
            events.removeAll { $0.slot == slot }
        }
    }

    /// Forgets every recorded change, keeping the storage for the next transaction's unless a
    /// large transaction grew it.
    mutating func removeAll() {
        events.removeAll(keepingCapacity: events.capacity <= 1024)
        hasRemovals = false
        hasInserts = false
        hasUpdates = false
        collections.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        lastSlot = -1
        removedCollections.removeAll()
        removedAllCollections = false
        changedExtensions.removeAll()
        relationshipNotices.removeAll()
        if !extensionNotes.isEmpty { extensionNotes.removeAll() }
        viewChanges.removeAll()
        viewPagesWritten.removeAll()
    }

    /// Records that every item of every collection was removed; everything recorded before no
    /// longer matters.
    mutating func recordRemovalOfEverything() {
        let extensions = changedExtensions
        removeAll()
        changedExtensions = extensions
        removedAllCollections = true
    }

    /// Calls `body` with the collection and key of every item written or removed, in order,
    /// once per event (a key written twice is passed twice).
    ///
    /// Collections removed as a whole (``removedCollections``, ``removedAllCollections``) are
    /// not enumerated: their items are not known.
    func forEachTouchedKey(_ body: (_ collection: String, _ key: String) -> Void) {
        for event in events {
            body(collections[event.slot], event.key)
        }
    }

    /// The changeset of what was recorded.
    ///
    /// - Parameter snapshot: The snapshot number after the commit.
    /// - Returns: The changeset; a collection with no inserted (updated, removed) key is absent
    ///   from ``Changeset/insertedKeys`` (``Changeset/updatedKeys``, ``Changeset/removedKeys``).
    /// - Complexity: O(n) in the number of events.
    func build(snapshot: UInt64) -> Changeset {
        var insertedKeys: [String: Set<String>] = [:]
        var updatedKeys: [String: Set<String>] = [:]
        var removedKeys: [String: Set<String>] = [:]
        if events.isEmpty {
            // Nothing key by key.
        } else if !hasRemovals && collections.count == 1 {
            // The common case: writes to one collection. Without removals a key's insert is its
            // first event (after it the item exists), so a key with an insert is inserted and a
            // key with only updates is updated.
            var inserted = Set<String>()
            var updated = Set<String>()
            if !hasUpdates {
                inserted.reserveCapacity(events.count)
                for event in events { inserted.insert(event.key) }
            } else if !hasInserts {
                updated.reserveCapacity(events.count)
                for event in events { updated.insert(event.key) }
            } else {
                for event in events where event.kind == .insert { inserted.insert(event.key) }
                for event in events where event.kind == .update && !inserted.contains(event.key) {
                    updated.insert(event.key)
                }
            }
            if !inserted.isEmpty { insertedKeys[collections[0]] = inserted }
            if !updated.isEmpty { updatedKeys[collections[0]] = updated }
        } else if !hasInserts && !hasUpdates {
            // Only removals (a cascade): every key is removed, with no first and last event to
            // tell apart.
            var counts = [Int](repeating: 0, count: collections.count)
            for event in events { counts[event.slot] += 1 }
            // Each set sized once: a cascade's sets are large, and growing them rehashes every key.
            var removed = counts.map { Set<String>(minimumCapacity: $0) }
            for event in events { removed[event.slot].insert(event.key) }
            for (slot, collection) in collections.enumerated() where !removed[slot].isEmpty {
                removedKeys[collection] = removed[slot]
            }
        } else {
            // The first and the last event of each key, per collection.
            var bounds = [[String: (first: Kind, last: Kind)]](repeating: [:], count: collections.count)
            for event in events {
                bounds[event.slot][event.key, default: (event.kind, event.kind)].last = event.kind
            }
            for (slot, collection) in collections.enumerated() where !bounds[slot].isEmpty {
                var inserted = Set<String>()
                var updated = Set<String>()
                var removed = Set<String>()
                for (key, bound) in bounds[slot] {
                    if bound.last == .removal {
                        removed.insert(key)
                    } else if bound.first == .insert {
                        inserted.insert(key)
                    } else {
                        updated.insert(key)
                    }
                }
                if !inserted.isEmpty { insertedKeys[collection] = inserted }
                if !updated.isEmpty { updatedKeys[collection] = updated }
                if !removed.isEmpty { removedKeys[collection] = removed }
            }
        }
        var changeset = Changeset(
            snapshot: snapshot,
            insertedKeys: insertedKeys,
            updatedKeys: updatedKeys,
            removedKeys: removedKeys,
            removedCollections: removedCollections,
            removedAllCollections: removedAllCollections,
            changedExtensions: changedExtensions)
        changeset.relationshipNotices = relationshipNotices
        changeset.extensionNotes = extensionNotes
        changeset.viewChanges = viewChanges
        changeset.viewPagesWritten.names = viewPagesWritten
        return changeset
    }

    /// The slot of `collection`, added if new.
    private mutating func slot(of collection: String) -> Int {
        // Comparing with the last collection is cheap: the collection names of the typed layer are
        // constants, so equal names usually share their storage (or are small, stored inline).
        if lastSlot >= 0 && collections[lastSlot] == collection {
            return lastSlot
        }
        let slot: Int
        if let existing = slots.isEmpty ? collections.firstIndex(of: collection) : slots[collection] {
            slot = existing
        } else {
            slot = collections.count
            collections.append(collection)
            if !slots.isEmpty {
                slots[collection] = slot
            } else if collections.count > Self.searchedCollectionLimit {
                slots = Dictionary(uniqueKeysWithValues: zip(collections, collections.indices))
            }
        }
        lastSlot = slot
        return slot
    }
}
