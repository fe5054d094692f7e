/// What an observed read transaction read, at the level of Trove's own reads: keys of
/// collections, whole collections, secondary indexes, or everything.
///
/// Recorded by Trove's read funnel (``ReadTransaction``'s untyped reads, the helpers of the typed
/// reads, cache hits included, and the index query runner) while an observation's closure runs,
/// and matched against each commit's ``Changeset`` on the committing thread.
package struct ReadRegion: Sendable, Equatable {
    /// Whether the read depends on every collection (`collections()`, `count()`).
    package var everything = false
    /// Collections read as a whole (all items, keys, counts, index queries).
    package var collections: Set<String> = []
    /// Keys read one by one, by collection.
    package var keys: [String: Set<String>] = [:]
    /// The extensions (secondary indexes) queried, each with the collection it follows.
    package var indexes: [String: String] = [:]

    /// A region from its parts; empty by default (nothing read yet).
    package init(
        everything: Bool = false, collections: Set<String> = [], keys: [String: Set<String>] = [:],
        indexes: [String: String] = [:]
    ) {
        self.everything = everything
        self.collections = collections
        self.keys = keys
        self.indexes = indexes
    }

    /// Whether nothing was read.
    package var isEmpty: Bool {
        !everything && collections.isEmpty && keys.isEmpty && indexes.isEmpty
    }

    /// Whether `changeset` changed something in this region.
    ///
    /// - Complexity: O(n) in the size of the region (for each key collection, in the smaller of
    ///   the region's keys and the changeset's keys of that collection).
    package func intersects(_ changeset: Changeset) -> Bool {
        intersects(changeset, touched: changeset.touchedCollections)
    }

    /// Whether `changeset`, which changed keys in (or removed) the collections `touched`, changed
    /// something in this region.
    ///
    /// The committing thread asks every running observation, so a region that the commit does
    /// not touch must answer cheaply: its collections are compared with the few names of
    /// `touched` for equality, without hashing anything; only a collection in both looks at keys.
    package func intersects(_ changeset: Changeset, touched: [String]) -> Bool {
        if isEmpty { return false }
        // A changeset that does not list its changes (another process's commit) may touch
        // anything.
        if changeset.removedAllCollections || changeset.reloadReason != nil { return true }
        if everything && !touched.isEmpty { return true }
        for collection in collections where touched.contains(collection) {
            return true
        }
        if !changeset.changedExtensions.isEmpty {
            for name in indexes.keys where changeset.changedExtensions.contains(name) {
                return true
            }
        }
        for (collection, readKeys) in keys where touched.contains(collection) {
            if changeset.removedCollections.contains(collection) { return true }
            if let inserted = changeset.insertedKeys[collection], Self.overlap(readKeys, inserted) { return true }
            if let updated = changeset.updatedKeys[collection], Self.overlap(readKeys, updated) { return true }
            if let removed = changeset.removedKeys[collection], Self.overlap(readKeys, removed) { return true }
        }
        return false
    }

    private static func overlap(_ a: Set<String>, _ b: Set<String>) -> Bool {
        a.count <= b.count ? a.contains(where: b.contains) : b.contains(where: a.contains)
    }
}

/// Collects the ``ReadRegion`` of one observed read transaction.
///
/// Set on ``ReadTransaction/recorder`` (and on a PostgreSQL transaction's) only for the
/// transactions of an observation; every other transaction has `nil` there, so recording costs
/// one `nil` check per read. It is `package`, so that every engine records the same region.
package final class ReadRecorder {
    package var region = ReadRegion()

    package init() {}

    package func recordKey(_ key: String, in collection: String) {
        if region.everything || region.collections.contains(collection) { return }
        region.keys[collection, default: []].insert(key)
    }

    package func recordCollection(_ collection: String) {
        if region.everything { return }
        if region.collections.insert(collection).inserted {
            region.keys.removeValue(forKey: collection)
        }
    }

    package func recordEverything() {
        region.everything = true
        region.keys.removeAll()
        region.collections.removeAll()
    }

    package func recordIndex(_ name: String, of collection: String) {
        region.indexes[name] = collection
        recordCollection(collection)
    }
}

// A recorder belongs to the transaction that runs the observation's closure.
@available(*, unavailable)
extension ReadRecorder: Sendable {}
