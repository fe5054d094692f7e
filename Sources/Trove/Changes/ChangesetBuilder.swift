/// Accumulates the changes of a read-write transaction, and makes its ``Changeset`` at commit.
///
/// Recording is on the path of every write, so it only appends: each written or removed key
/// becomes an event in one array, tagged with the slot of its collection. The collection of the
/// previous event is remembered, so that consecutive writes to one collection (the common case)
/// neither hash its name nor look it up. The events are resolved into sets once, in
/// ``build(snapshot:)``: the last event of a key wins, so a key written then removed is removed,
/// and a key removed then written is changed.
struct ChangesetBuilder {
    /// One written or removed key.
    private struct Event {
        var key: String
        /// The index of the event's collection in ``collections``.
        var slot: Int
        var isRemoval: Bool
    }

    /// Every key event since the transaction began (or since everything was removed), in order.
    private var events: [Event] = []
    /// Whether ``events`` may hold a removal.
    private var hasRemovals = false
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

    /// Whether nothing was recorded.
    var isEmpty: Bool {
        events.isEmpty && removedCollections.isEmpty && !removedAllCollections && changedExtensions.isEmpty
    }

    /// Records that the extension `name` was registered, rebuilt or removed.
    mutating func recordExtensionChange(_ name: String) {
        changedExtensions.insert(name)
    }

    /// Records that the item at `key` in `collection` was written.
    mutating func recordChange(key: String, collection: String) {
        events.append(Event(key: key, slot: slot(of: collection), isRemoval: false))
    }

    /// Records that the item at `key` in `collection` was removed.
    mutating func recordRemoval(key: String, collection: String) {
        events.append(Event(key: key, slot: slot(of: collection), isRemoval: true))
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
        collections.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        lastSlot = -1
        removedCollections.removeAll()
        removedAllCollections = false
        changedExtensions.removeAll()
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
    /// - Returns: The changeset; a collection with no changed (or removed) key is absent from
    ///   ``Changeset/changedKeys`` (or ``Changeset/removedKeys``).
    /// - Complexity: O(n) in the number of events.
    func build(snapshot: UInt64) -> Changeset {
        var changedKeys: [String: Set<String>] = [:]
        var removedKeys: [String: Set<String>] = [:]
        if !hasRemovals && collections.count == 1 {
            // The common case: writes to one collection.
            if !events.isEmpty {
                var changed = Set<String>(minimumCapacity: events.count)
                for event in events { changed.insert(event.key) }
                changedKeys[collections[0]] = changed
            }
        } else if !events.isEmpty {
            // Sets sized up front, so that they never grow (a growth rehashes every key).
            var changedCounts = [Int](repeating: 0, count: collections.count)
            var removedCounts = changedCounts
            for event in events {
                if event.isRemoval {
                    removedCounts[event.slot] &+= 1
                } else {
                    changedCounts[event.slot] &+= 1
                }
            }
            var changed = changedCounts.map { $0 == 0 ? Set<String>() : Set<String>(minimumCapacity: $0) }
            var removed = removedCounts.map { $0 == 0 ? Set<String>() : Set<String>(minimumCapacity: $0) }
            // Backwards, so that the first event seen of a key is its last: it decides whether the
            // key is changed or removed, and earlier events of the key are ignored. An empty set's
            // `contains` returns without hashing, so a collection with only writes (or only
            // removals) hashes each key once.
            for event in events.reversed() {
                if event.isRemoval {
                    if !changed[event.slot].contains(event.key) {
                        removed[event.slot].insert(event.key)
                    }
                } else if !removed[event.slot].contains(event.key) {
                    changed[event.slot].insert(event.key)
                }
            }
            for (slot, collection) in collections.enumerated() {
                if !changed[slot].isEmpty { changedKeys[collection] = changed[slot] }
                if !removed[slot].isEmpty { removedKeys[collection] = removed[slot] }
            }
        }
        return Changeset(
            snapshot: snapshot,
            changedKeys: changedKeys,
            removedKeys: removedKeys,
            removedCollections: removedCollections,
            removedAllCollections: removedAllCollections,
            changedExtensions: changedExtensions)
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
