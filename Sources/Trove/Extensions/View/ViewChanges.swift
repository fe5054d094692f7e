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

/// The position of a row in a view: its group and its index in the group.
public struct ViewIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The group.
    public var group: String
    /// The index of the row in the group, from 0.
    public var index: Int

    /// Creates a position.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - index: The index in the group.
    public init(group: String, index: Int) {
        self.group = group
        self.index = index
    }

    /// Orders positions by group, then index.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.group, lhs.index) < (rhs.group, rhs.index)
    }

    /// `group[index]`.
    public var description: String {
        "\(group)[\(index)]"
    }
}

/// A group that appeared in a view or left it.
public struct ViewGroupChange: Sendable, Hashable, Comparable {
    /// What happened to the group.
    public enum Kind: Int, Sendable, Hashable {
        /// The group had no row before and has some after.
        case inserted
        /// The group had rows before and has none after.
        case removed
    }

    /// What happened to the group.
    public var kind: Kind
    /// The group.
    public var group: String

    /// Creates a group change.
    ///
    /// - Parameters:
    ///   - kind: What happened to the group.
    ///   - group: The group.
    public init(kind: Kind, group: String) {
        self.kind = kind
        self.group = group
    }

    /// Orders changes by kind, then group.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.kind.rawValue, lhs.group) < (rhs.kind.rawValue, rhs.group)
    }
}

/// A row that changed in a view (see ``ViewChanges`` for the index convention).
public struct ViewRowChange: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// What happened to the row.
    public enum Kind: Int, Sendable, Hashable {
        /// The row left the view: its item was removed, or no longer passes the filter or has a
        /// group.
        case removed
        /// The row entered the view.
        case inserted
        /// The row moved: within its group or to another group.
        case moved
        /// The row stayed in place among the rows that did not move; its item, its metadata, or
        /// nothing (a touch) changed.
        case updated
    }

    /// What of the row's item changed.
    public struct Parts: OptionSet, Sendable, Hashable {
        /// The item was written (its data, and its metadata with it).
        public static let item = Parts(rawValue: 1)
        /// Only the metadata was replaced.
        public static let metadata = Parts(rawValue: 2)

        /// The raw value.
        public let rawValue: UInt8

        /// Creates a set of parts from its raw value.
        ///
        /// - Parameter rawValue: The raw value.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }
    }

    /// What happened to the row.
    public var kind: Kind
    /// The key of the row's item.
    public var key: String
    /// The collection of the row's item in a view over several collections
    /// (``MultiCollectionView``); `nil` in a ``View`` of one type, whose collection is its type's.
    public var collection: String?
    /// The position before the changes: `nil` for an inserted row.
    public var from: ViewIndexPath?
    /// The position after the changes: `nil` for a removed row.
    public var to: ViewIndexPath?
    /// What of the item changed: empty for a touch, or for a row that only moved because its
    /// item was removed and stored again.
    public var changedParts: Parts

    /// Creates a row change.
    ///
    /// - Parameters:
    ///   - kind: What happened to the row.
    ///   - key: The key of the row's item.
    ///   - from: The position before the changes.
    ///   - to: The position after the changes.
    ///   - changedParts: What of the item changed.
    ///   - collection: The collection of the row's item, in a view over several collections.
    public init(
        kind: Kind, key: String, from: ViewIndexPath?, to: ViewIndexPath?, changedParts: Parts = [],
        collection: String? = nil
    ) {
        self.kind = kind
        self.key = key
        self.collection = collection
        self.from = from
        self.to = to
        self.changedParts = changedParts
    }

    /// Orders changes by kind, then by position (the old one for removals, the new one for the
    /// others), then key.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
        let left = lhs.to ?? lhs.from
        let right = rhs.to ?? rhs.from
        if left != right, let left, let right { return left < right }
        if lhs.key != rhs.key { return lhs.key < rhs.key }
        return (lhs.collection ?? "") < (rhs.collection ?? "")
    }

    /// A short description: `moved k1 a[3] -> b[0]`, or `moved notes/k1 a[3] -> b[0]` in a view
    /// over several collections.
    public var description: String {
        let name = collection.map { "\($0)/\(key)" } ?? key
        return "\(kind) \(name) \(from?.description ?? "-") -> \(to?.description ?? "-")"
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
