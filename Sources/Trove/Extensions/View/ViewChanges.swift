/// What one commit, or a run of commits, changed in a ``View``: groups that appeared or went, and
/// rows inserted, removed, moved and updated, with their group and index.
///
/// ## Index convention
///
/// The changes follow the convention of UIKit's batch updates
/// (`performBatchUpdates`) and of `CollectionDifference`:
///
/// - the position of a **removed** row (``ViewRowChange/from``) is its index *before* the
///   changes;
/// - the position of an **inserted** row (``ViewRowChange/to``) is its index *after* them;
/// - a **moved** row has both: its index before (``ViewRowChange/from``) and after
///   (``ViewRowChange/to``), possibly in another group;
/// - an **updated** row stayed in place among the rows that did not move; it also has both
///   positions, which differ when rows before it were inserted or removed.
///
/// Applying them: take every removed and moved row out of the old contents (by their old
/// indexes, from the highest down), then put every inserted and moved row in (by their new
/// indexes, from the lowest up). The result is the new contents, group by group: Trove's tests
/// check exactly this after every commit of a long random run.
///
/// Rows that compare equal in the view's sort are ordered by key (see ``View``), so the order
/// never depends on the order of the writes.
public struct ViewChanges: Sendable, Hashable {
    /// The groups that had no row before and have some after (inserted), or the other way round
    /// (removed), sorted by kind, then group.
    public var groupChanges: [ViewGroupChange]
    /// The rows that changed, sorted by kind (removed, inserted, moved, updated), then position.
    public var rowChanges: [ViewRowChange]

    /// Creates the changes of a view.
    ///
    /// - Parameters:
    ///   - groupChanges: The groups inserted and removed.
    ///   - rowChanges: The rows inserted, removed, moved and updated.
    public init(groupChanges: [ViewGroupChange] = [], rowChanges: [ViewRowChange] = []) {
        self.groupChanges = groupChanges
        self.rowChanges = rowChanges
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        groupChanges.isEmpty && rowChanges.isEmpty
    }
}

extension ViewChanges {
    /// Applies these changes to `contents`, the keys of each group of the view before the
    /// changes, and returns the contents after them, as a list would (see ``ViewChanges``).
    ///
    /// Changes that do not fit `contents` (made for other contents, or by hand) never trap: a
    /// removal at an index the group does not have is ignored, and an insertion at an index
    /// outside the group goes to its nearest end.
    ///
    /// - Parameter contents: The keys of each group before the changes.
    /// - Returns: The keys of each group after the changes; a group left empty is absent.
    public func applied(to contents: [String: [String]]) -> [String: [String]] {
        var result = contents
        let outgoing = rowChanges.filter { $0.kind == .removed || $0.kind == .moved }
            .compactMap(\.from)
            .sorted { $0.index > $1.index }
        for path in outgoing {
            if result[path.group]?.indices.contains(path.index) == true {
                result[path.group]?.remove(at: path.index)
            }
        }
        let incoming = rowChanges.filter { $0.kind == .inserted || $0.kind == .moved }
            .compactMap { change in change.to.map { (path: $0, key: change.key) } }
            .sorted { $0.path.index < $1.path.index }
        for (path, key) in incoming {
            var rows = result[path.group] ?? []
            rows.insert(key, at: Swift.min(Swift.max(path.index, 0), rows.count))
            result[path.group] = rows
        }
        return result.filter { !$0.value.isEmpty }
    }
}
