/// The keys of every group of a ``View`` at one snapshot: what a list shows, and what a consumer
/// keeps to compute the changes to a later snapshot (``changes(since:)``), however many commits
/// came between.
///
/// ```swift
/// var shown = ViewContents()
/// for try await contents in database.observe(inbox) {
///     let changes = contents.changes(since: shown)   // sections: contents.groups
///     shown = contents
///     apply(changes)
/// }
/// ```
public struct ViewContents: Sendable, Hashable {
    /// The keys of each group that has rows, in the view's order.
    public var keysByGroup: [String: [String]]
    /// The fingerprint of each row's stored item and metadata, by key, when the contents were
    /// read from a view (empty when made with ``init(keysByGroup:)``).
    var fingerprints: [String: ViewRowFingerprint] = [:]

    /// Creates contents, without fingerprints: the changes between such contents report no
    /// updates in place.
    ///
    /// - Parameter keysByGroup: The keys of each group, in order (default: an empty view).
    public init(keysByGroup: [String: [String]] = [:]) {
        self.keysByGroup = keysByGroup.filter { !$0.value.isEmpty }
    }

    /// Equal when the keys of every group are: contents read at two snapshots can be equal while
    /// the items of some rows changed (``changes(since:)`` reports those as updates).
    public static func == (lhs: ViewContents, rhs: ViewContents) -> Bool {
        lhs.keysByGroup == rhs.keysByGroup
    }

    /// Hashes the keys of every group.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keysByGroup)
    }

    /// Whether the keys, and the stored item and metadata of every row, are the same.
    func isIdentical(to other: ViewContents) -> Bool {
        keysByGroup == other.keysByGroup && fingerprints == other.fingerprints
    }

    /// The groups, sorted.
    public var groups: [String] {
        keysByGroup.keys.sorted()
    }

    /// The changes that turn `old` into these contents, in the convention of ``ViewChanges``:
    /// keys that left are removed, keys that came are inserted, and of the keys in both, those
    /// that changed group, or are not in the longest run that kept its relative order within a
    /// group, are moved. Of the others, those whose stored item or metadata differs between the
    /// two snapshots are updated (contents read from a view keep a fingerprint of each row's
    /// bytes; see ``ViewSections/changes(since:)`` for what that does and does not report), and
    /// a moved row whose item or metadata differs has non-empty
    /// ``ViewRowChange/changedParts``.
    ///
    /// - Parameter old: The contents at an earlier snapshot.
    /// - Returns: The changes; `changes(since: old).applied(to: old.keysByGroup)` equals
    ///   ``keysByGroup``.
    /// - Complexity: O(n log n) in the number of rows.
    public func changes(since old: ViewContents) -> ViewChanges {
        var oldPaths: [String: ViewIndexPath] = [:]
        for (group, keys) in old.keysByGroup {
            for (index, key) in keys.enumerated() { oldPaths[key] = ViewIndexPath(group: group, index: index) }
        }
        var newPaths: [String: ViewIndexPath] = [:]
        for (group, keys) in keysByGroup {
            for (index, key) in keys.enumerated() { newPaths[key] = ViewIndexPath(group: group, index: index) }
        }
        var rows: [ViewRowChange] = []
        for (key, path) in oldPaths where newPaths[key] == nil {
            rows.append(ViewRowChange(kind: .removed, key: key, from: path, to: nil))
        }
        for (group, keys) in keysByGroup {
            // The keys that stayed in this group, by their old index, in their new order: those in
            // a longest increasing run keep their place; the others move.
            let stayed = keys.filter { oldPaths[$0]?.group == group }
            let kept = Self.longestIncreasingRun(stayed.map { oldPaths[$0]!.index })
            var stayedOffset = 0
            for (index, key) in keys.enumerated() {
                let to = ViewIndexPath(group: group, index: index)
                guard let from = oldPaths[key] else {
                    rows.append(ViewRowChange(kind: .inserted, key: key, from: nil, to: to))
                    continue
                }
                var changed: ViewRowChange.Parts = []
                if let before = old.fingerprints[key], let after = fingerprints[key] {
                    changed = after.changedParts(since: before)
                }
                if from.group == group {
                    defer { stayedOffset += 1 }
                    if kept.contains(stayedOffset) {
                        if !changed.isEmpty {
                            rows.append(
                                ViewRowChange(kind: .updated, key: key, from: from, to: to, changedParts: changed))
                        }
                        continue
                    }
                }
                rows.append(ViewRowChange(kind: .moved, key: key, from: from, to: to, changedParts: changed))
            }
        }
        var groupChanges: [ViewGroupChange] = []
        for group in keysByGroup.keys where old.keysByGroup[group] == nil {
            groupChanges.append(ViewGroupChange(kind: .inserted, group: group))
        }
        for group in old.keysByGroup.keys where keysByGroup[group] == nil {
            groupChanges.append(ViewGroupChange(kind: .removed, group: group))
        }
        return ViewChanges(groupChanges: groupChanges.sorted(), rowChanges: rows.sorted())
    }

    /// The offsets of a longest strictly increasing subsequence of `values`.
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // offsets of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (offset, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[offset] = tails[low - 1] }
            if low == tails.count { tails.append(offset) } else { tails[low] = offset }
        }
        var run: Set<Int> = []
        var offset = tails.last ?? -1
        while offset >= 0 {
            run.insert(offset)
            offset = previous[offset]
        }
        return run
    }
}

extension ViewReader {
    /// The keys of every group (or of `groups`), as ``ViewContents``.
    ///
    /// - Parameter groups: The groups to read; `nil` for all.
    /// - Returns: The contents.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails;
    ///   ``TroveError/Code/corruptDatabase`` when the view is damaged: it lists an item that its
    ///   collection does not have.
    public func contents(of groups: [String]? = nil) throws -> ViewContents {
        var keys: [String: [String]] = [:]
        var fingerprints: [String: ViewRowFingerprint] = [:]
        for group in try groups ?? self.groups() {
            let rows = try rawKeys(in: group, range: nil)
            keys[group] = rows
            for key in rows { fingerprints[key] = try fingerprint(ofKey: key) }
        }
        var contents = ViewContents(keysByGroup: keys)
        contents.fingerprints = fingerprints
        return contents
    }
}

extension Database {
    /// Observes the contents of `view` (or of some of its groups): an asynchronous sequence that
    /// yields them now, then after each commit that changed the view's collection and the
    /// contents (the keys, or the stored item or metadata of a row). Compute the row changes between two values with ``ViewContents/changes(since:)``.
    ///
    /// - Parameters:
    ///   - view: The view, registered on this database.
    ///   - groups: The groups to follow; `nil` for all.
    /// - Returns: The observation (see ``observe(_:)``).
    public func observe<Item: Persistable>(_ view: View<Item>, groups: [String]? = nil)
        -> DatabaseObservation<ViewContents>
    {
        observe { tx in try view.read(tx).contents(of: groups) }.removingDuplicates { $0.isIdentical(to: $1) }
    }
}
