/// What a list shows of a ``View``: which groups, as sections in what order, and per group
/// whether its rows are reversed and which of them are shown (all, the first N, the last N), as
/// YapDatabase's mappings do.
///
/// ```swift
/// // One section per conversation, newest conversation name last; the last 50 messages of each.
/// let mappings = ViewMappings(groups: .all, rows: .init(range: .last(50)))
/// for try await update in database.observe(inbox, mappings: mappings) {
///     show(update.sections)                          // ViewSections
///     if let changes = update.changes { animate(changes) }  // ViewSectionChanges
/// }
/// ```
///
/// - **Groups** (``Groups``): a fixed list (``Groups/fixed(_:)``), or every group of the view
///   that passes a filter, in the order of a sort (``Groups/dynamic(_:filter:areInIncreasingOrder:)``,
///   ``Groups/all``), so that groups that appear later show up as inserted sections.
/// - **Rows** (``Rows``): per group, whether the rows are shown last to first
///   (``Rows/reversed``), and which of them (``Range``). The range applies to the rows in the
///   order they are shown, after the reversal: `.last(50)` of a reversed group is the first 50 of
///   the view's group, shown last to first. A row that scrolls into or out of a fixed-length
///   range is inserted or removed.
/// - **Empty groups**: a group with no row shown is left out, unless ``showsEmptyGroups`` is set
///   and the group is in a fixed list (a dynamic selection only sees groups that have rows).
///
/// Read the sections of a view at one snapshot with ``ViewReader/sections(_:)``; compute the
/// changes between two of them with ``ViewSections/changes(since:)``.
public struct ViewMappings: Sendable, Hashable {
    /// Which groups are shown, and in what order.
    public var groups: Groups
    /// How the rows of a group are shown, for the groups without their own in ``rowsByGroup``.
    public var rows: Rows
    /// How the rows of particular groups are shown.
    public var rowsByGroup: [String: Rows]
    /// Whether a group of a fixed list with no row shown is still a section (empty), so that the
    /// sections never change (default `false`: it is left out).
    public var showsEmptyGroups: Bool
    /// When set, and the sections show fewer rows in all than its threshold, they are shown as
    /// one section (default `nil`: never).
    public var consolidation: Consolidation?

    /// Creates mappings.
    ///
    /// - Parameters:
    ///   - groups: Which groups are shown, in what order.
    ///   - rows: How the rows of a group are shown (default: all, in the view's order).
    ///   - rowsByGroup: How the rows of particular groups are shown, overriding `rows`.
    ///   - showsEmptyGroups: Whether a group of a fixed list with no row is an empty section.
    ///   - consolidation: When to show every row in one section (default: never).
    public init(
        groups: Groups, rows: Rows = Rows(), rowsByGroup: [String: Rows] = [:], showsEmptyGroups: Bool = false,
        consolidation: Consolidation? = nil
    ) {
        self.groups = groups
        self.rows = rows
        self.rowsByGroup = rowsByGroup
        self.showsEmptyGroups = showsEmptyGroups
        self.consolidation = consolidation
    }

    /// Few rows in one section: when the sections would show fewer rows in all than
    /// ``threshold``, they are shown as one section named ``group`` instead, holding their rows
    /// one section after the other (YapDatabase's auto-consolidated groups; no section when
    /// there would be none). ``ViewSection/groupPosition(ofRow:)`` tells which group a row of it
    /// comes from, and the ``Rows`` of ``group`` (its ``Rows/dependencies``) apply to it. Crossing the
    /// threshold is reported as section changes: the sections removed and the one inserted, or
    /// the reverse.
    public struct Consolidation: Sendable, Hashable {
        /// The number of rows shown from which the sections are shown apart.
        public var threshold: Int
        /// The name of the one section: choose a name that no group of the view has.
        public var group: String

        /// Creates a consolidation.
        ///
        /// - Parameters:
        ///   - threshold: The number of rows shown from which the sections are shown apart.
        ///   - group: The name of the one section.
        public init(threshold: Int, group: String) {
            self.threshold = threshold
            self.group = group
        }
    }

    /// How the rows of `group` are shown.
    ///
    /// - Parameter group: The group.
    /// - Returns: Its entry in ``rowsByGroup``, or ``rows``.
    public func rows(of group: String) -> Rows {
        rowsByGroup[group] ?? rows
    }

    /// Which groups of a view a list shows, and in what order.
    public struct Groups: Sendable, Hashable {
        enum Kind: Sendable {
            case fixed([String])
            case dynamic(
                id: String, filter: @Sendable (String) -> Bool, areInIncreasingOrder: @Sendable (String, String) -> Bool
            )
        }

        let kind: Kind

        /// These groups, in this order, whether they have rows or not; a group named twice is
        /// shown once, at its first place.
        ///
        /// - Parameter groups: The groups.
        /// - Returns: The selection.
        public static func fixed(_ groups: [String]) -> Groups {
            var seen: Set<String> = []
            return Groups(kind: .fixed(groups.filter { seen.insert($0).inserted }))
        }

        /// Every group of the view that has rows and passes `filter`, ordered by
        /// `areInIncreasingOrder`, at each snapshot: a group that appears is an inserted
        /// section, one that empties a removed section.
        ///
        /// Closures cannot be compared: two dynamic selections are equal when their `id`s are.
        /// Give a different `id` to different closures.
        ///
        /// - Parameters:
        ///   - id: What identifies the closures, for equality.
        ///   - filter: Whether a group is shown (default: every group).
        ///   - areInIncreasingOrder: The order of the sections: a strict weak ordering (default:
        ///     ascending names). Groups that compare equal are ordered by name.
        /// - Returns: The selection.
        public static func dynamic(
            _ id: String, filter: @escaping @Sendable (String) -> Bool = { _ in true },
            areInIncreasingOrder: @escaping @Sendable (String, String) -> Bool = { $0 < $1 }
        ) -> Groups {
            Groups(kind: .dynamic(id: id, filter: filter, areInIncreasingOrder: areInIncreasingOrder))
        }

        /// Every group of the view that has rows, in ascending order of name.
        public static var all: Groups {
            dynamic("trove.all")
        }

        /// The groups, when the list is fixed; `nil` for a dynamic selection.
        public var fixedGroups: [String]? {
            if case .fixed(let groups) = kind { return groups }
            return nil
        }

        /// The groups shown out of `available`, the groups of the view that have rows, in order.
        func select(from available: [String]) -> [String] {
            switch kind {
            case .fixed(let groups):
                return groups
            case .dynamic(_, let filter, let areInIncreasingOrder):
                return available.filter(filter).sorted { lhs, rhs in
                    if areInIncreasingOrder(lhs, rhs) { return true }
                    if areInIncreasingOrder(rhs, lhs) { return false }
                    return lhs < rhs
                }
            }
        }

        /// Equal when both are the same fixed list, or dynamic with the same id.
        public static func == (lhs: Groups, rhs: Groups) -> Bool {
            switch (lhs.kind, rhs.kind) {
            case (.fixed(let left), .fixed(let right)): return left == right
            case (.dynamic(let left, _, _), .dynamic(let right, _, _)): return left == right
            default: return false
            }
        }

        /// Hashes the fixed list, or the id of a dynamic selection.
        public func hash(into hasher: inout Hasher) {
            switch kind {
            case .fixed(let groups):
                hasher.combine(0)
                hasher.combine(groups)
            case .dynamic(let id, _, _):
                hasher.combine(1)
                hasher.combine(id)
            }
        }
    }

    /// How the rows of a group are shown.
    public struct Rows: Sendable, Hashable {
        /// Whether the rows are shown last to first.
        public var reversed: Bool
        /// Which of the rows are shown, counted in the order they are shown (after the reversal).
        public var range: Range
        /// The offsets of the neighbours each row draws something from, in the order the rows
        /// are shown: `-1` for the row shown just before it (a date header drawn when the date
        /// differs from the previous message's), `1` for the one just after. When the neighbour
        /// at one of these offsets is another row than before, or the same row updated, the row
        /// is reported updated (or its move carries) with ``ViewRowChange/Parts/neighbour``, as
        /// YapDatabase's cell-drawing dependencies. A neighbour past the rows shown is no row.
        /// Default: none.
        public var dependencies: Set<Int>

        /// Creates row options.
        ///
        /// - Parameters:
        ///   - reversed: Whether the rows are shown last to first (default `false`).
        ///   - range: Which of them are shown (default: all).
        ///   - dependencies: The offsets of the neighbours each row draws from (default: none).
        public init(reversed: Bool = false, range: Range = .all, dependencies: Set<Int> = []) {
            self.reversed = reversed
            self.range = range
            self.dependencies = dependencies.subtracting([0])
        }

        /// The indexes in the view's group of `count` rows that are shown, from the first shown
        /// to the last, as a range of the group (ascending) and whether it is read backwards.
        ///
        /// - Parameters:
        ///   - count: The number of rows of the group.
        ///   - previous: For a flexible range: the indexes in the view's group of the rows the
        ///     sections before showed that are still in the group, and how many they showed;
        ///     `nil` when they did not show the group.
        func groupRange(count: Int, previous: (groupIndexes: [Int], length: Int)? = nil) -> Swift.Range<Int> {
            let shown: Swift.Range<Int>
            switch range {
            case .all: shown = 0..<count
            case .first(let length): shown = 0..<Swift.min(Swift.max(length, 0), count)
            case .last(let length): shown = (count - Swift.min(Swift.max(length, 0), count))..<count
            case .flexible(let range):
                let before = previous.map { previous in
                    (indexes: previous.groupIndexes.map { reversed ? count - 1 - $0 : $0 }, length: previous.length)
                }
                shown = range.shown(count: count, previous: before)
            }
            return reversed ? (count - shown.upperBound)..<(count - shown.lowerBound) : shown
        }
    }

    /// Which rows of a group are shown, counted in the order they are shown.
    public enum Range: Sendable, Hashable {
        /// Every row.
        case all
        /// The first `n` rows shown (fewer when the group has fewer): a fixed-length range
        /// anchored at the beginning.
        case first(Int)
        /// The last `n` rows shown: a fixed-length range anchored at the end, as a chat's
        /// "last 50 messages".
        case last(Int)
        /// A range that grows and shrinks with the rows written inside it (see
        /// ``FlexibleRange``): read with the sections before (``ViewReader/sections(_:following:)``,
        /// as ``Database/observe(_:mappings:)-(View<Item>,_)`` does).
        case flexible(FlexibleRange)
    }

    /// A range of rows pinned to one end of a group at an offset, whose other end stays on the
    /// rows it showed (YapDatabase's flexible ranges): a message that arrives at the end of a chat
    /// showing its last 20 makes it show 21, and a message removed from the middle makes it show 19,
    /// where ``Range/last(_:)`` would scroll a row in or out. The length stays within its minimum and
    /// maximum: past the maximum the far end gives way, under the minimum it takes rows again.
    ///
    /// The first sections, and a group the sections before did not show, take ``length`` rows.
    /// Then the far end is the first row (pinned to the end) or the last row (pinned to the
    /// beginning), in the shown order, of the rows shown before that are still in the group and on
    /// the far side of the pinned end; when none is, the length is the one shown before.
    public struct FlexibleRange: Sendable, Hashable {
        /// Which end of the group, in the shown order, the range is pinned to.
        public enum Pin: Sendable, Hashable {
            /// The first row shown.
            case beginning
            /// The last row shown.
            case end
        }

        /// The number of rows at first.
        public var length: Int
        /// The number of rows between the pinned end of the group and the range.
        public var offset: Int
        /// The end the range is pinned to.
        public var pin: Pin
        /// The fewest rows the range shows (when the group has them).
        public var minimumLength: Int
        /// The most rows the range shows.
        public var maximumLength: Int

        /// Creates a flexible range.
        ///
        /// - Parameters:
        ///   - length: The number of rows at first.
        ///   - offset: The number of rows between the pinned end and the range (default 0).
        ///   - pin: The end the range is pinned to.
        ///   - minimumLength: The fewest rows shown (default 0).
        ///   - maximumLength: The most rows shown (default: no limit).
        public init(length: Int, offset: Int = 0, pin: Pin, minimumLength: Int = 0, maximumLength: Int = .max) {
            self.length = Swift.max(0, length)
            self.offset = Swift.max(0, offset)
            self.pin = pin
            self.minimumLength = Swift.max(0, minimumLength)
            self.maximumLength = Swift.max(self.minimumLength, maximumLength)
        }

        /// The rows shown, in the shown order, of a group of `count` rows: `previous` says where
        /// the rows shown before are now (their indexes in the shown order, those still in the
        /// group) and how many there were, or is `nil` the first time.
        func shown(count: Int, previous: (indexes: [Int], length: Int)?) -> Swift.Range<Int> {
            let pinned = Swift.max(0, count - offset)  // the pinned end, as an index from the far side
            var length = self.length
            if let previous {
                // Measured from the pinned end, in the shown order read from that end.
                let distances = previous.indexes.map { pin == .end ? pinned - $0 : $0 - Swift.min(offset, count) + 1 }
                    .filter { $0 > 0 }
                length = distances.max() ?? previous.length
            }
            let available = pin == .end ? pinned : count - Swift.min(offset, count)
            length = Swift.min(Swift.max(length, minimumLength), maximumLength, available)
            switch pin {
            case .end: return (pinned - length)..<pinned
            case .beginning:
                let lower = Swift.min(offset, count)
                return lower..<Swift.min(lower + length, count)
            }
        }
    }
}
