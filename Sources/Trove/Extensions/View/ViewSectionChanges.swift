/// The changes between two ``ViewSections`` of the same view, however many commits apart, in the
/// convention of UIKit's batch updates (`performBatchUpdates`):
///
/// - sections: a **removed** section by its index before the changes, an **inserted** one by its
///   index after them. Sections keep their relative order (a group's place depends only on its
///   name), so sections never move;
/// - rows: a **removed** row (``ViewSectionRowChange/from``) by its position before, an
///   **inserted** row (``ViewSectionRowChange/to``) by its position after, a **moved** row by
///   both, possibly in another section; an **updated** row stayed in place among the rows that
///   did not move, and its item or metadata changed: it has both positions.
/// - The rows of a removed section, and of an inserted one, are not listed: the section's
///   removal or insertion takes them with it (UIKit rejects rows moved out of a deleted section
///   or into an inserted one). A row that moves from a removed section into a kept one is
///   inserted; one that moves from a kept section into an inserted one is removed.
/// - A row that scrolls into or out of a fixed-length range (``ViewMappings/Range``) is inserted
///   or removed.
/// - A moved row whose item or metadata also changed has non-empty
///   ``ViewSectionRowChange/changedParts``: UIKit cannot move and reload a row in one batch, so
///   redraw it after the batch.
/// - A row that draws from a neighbour (``ViewMappings/Rows/dependencies``) whose neighbour is
///   another row, or an updated one, has ``ViewRowChange/Parts/neighbour`` in its parts: updated
///   when it stayed in place, or moved.
///
/// Applying them (``applied(to:)``): take the removed and moved rows out by their old positions
/// and the removed sections by their old indexes, then put the inserted sections and the
/// inserted and moved rows in by their new positions.
public struct ViewSectionChanges: Sendable, Hashable {
    /// The sections inserted and removed: removed ones first (by old index, ascending), then
    /// inserted ones (by new index, ascending).
    public var sectionChanges: [ViewSectionChange]
    /// The rows that changed, sorted by kind (removed, inserted, moved, updated), then position
    /// (the old one for removals, the new one for the others), then key.
    public var rowChanges: [ViewSectionRowChange]

    /// Creates section changes.
    ///
    /// - Parameters:
    ///   - sectionChanges: The sections inserted and removed.
    ///   - rowChanges: The rows that changed.
    public init(sectionChanges: [ViewSectionChange] = [], rowChanges: [ViewSectionRowChange] = []) {
        self.sectionChanges = sectionChanges
        self.rowChanges = rowChanges
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        sectionChanges.isEmpty && rowChanges.isEmpty
    }

    /// The changes of one kind.
    ///
    /// - Parameter kind: The kind of row change.
    /// - Returns: The row changes of that kind, in order.
    public func rows(_ kind: ViewRowChange.Kind) -> [ViewSectionRowChange] {
        rowChanges.filter { $0.kind == kind }
    }

    /// Applies these changes to `sections`, the content of the sections before the changes, as
    /// a list would, and returns the content after them (see ``ViewSectionChanges``).
    ///
    /// Changes that do not fit `sections` (made for other sections, or by hand) never trap: a
    /// removal of a section or row that is not there is ignored, an insertion at an index
    /// outside the list goes to its nearest end, and a row inserted into a section that is not
    /// there is dropped.
    ///
    /// - Parameter sections: The sections before the changes.
    /// - Returns: The sections after the changes.
    public func applied(to sections: [ViewSectionContent]) -> [ViewSectionContent] {
        var result = sections
        var outgoing: [Int: [Int]] = [:]
        for change in rowChanges where change.kind == .removed || change.kind == .moved {
            if let from = change.from { outgoing[from.section, default: []].append(from.row) }
        }
        for (section, rows) in outgoing where result.indices.contains(section) {
            for row in rows.sorted(by: >) where result[section].keys.indices.contains(row) {
                result[section].keys.remove(at: row)
            }
        }
        for change in sectionChanges.filter({ $0.kind == .removed }).sorted(by: { $0.index > $1.index })
        where result.indices.contains(change.index) {
            result.remove(at: change.index)
        }
        for change in sectionChanges.filter({ $0.kind == .inserted }).sorted(by: { $0.index < $1.index }) {
            result.insert(
                ViewSectionContent(group: change.group, keys: change.keys),
                at: Swift.min(Swift.max(change.index, 0), result.count))
        }
        let incoming = rowChanges.filter { $0.kind == .inserted || $0.kind == .moved }
            .compactMap { change in change.to.map { (path: $0, key: change.key) } }
            .sorted { $0.path < $1.path }
        for (path, key) in incoming where result.indices.contains(path.section) {
            result[path.section].keys.insert(
                key, at: Swift.min(Swift.max(path.row, 0), result[path.section].keys.count))
        }
        return result
    }
}

extension ViewSections {
    /// The changes that turn `old` into these sections, in the convention of
    /// ``ViewSectionChanges``, however many commits came between the two snapshots.
    ///
    /// - Sections are matched by group: a group shown in both is kept, the others are removed or
    ///   inserted.
    /// - Rows are matched by key: of the keys shown in both, those that changed section, or are
    ///   not in the longest run that kept its relative order within their section, are moved;
    ///   the others stayed in place.
    /// - **Updates in place**: a row that stayed in place is updated when its stored item or
    ///   metadata differs between the two snapshots (both sections keep a fingerprint of the
    ///   bytes of each shown row), whatever happened in the commits between: written then
    ///   moved back, updated several times, removed and written again. A row written again with
    ///   the same bytes, or only touched, is not reported: nothing it shows changed. Read each
    ///   commit's ``Changeset/viewChanges`` to see touches. Sections made with the public
    ///   initializer have no fingerprints: their changes report no updates.
    ///
    /// - Parameter old: The sections at an earlier snapshot.
    /// - Returns: The changes; `changes(since: old).applied(to: old.contents)` equals
    ///   ``contents``.
    /// - Complexity: O(n log n) in the number of rows shown.
    public func changes(since old: ViewSections) -> ViewSectionChanges {
        let oldSectionOfGroup = Dictionary(
            old.sections.enumerated().map { ($1.group, $0) }, uniquingKeysWith: { a, _ in a })
        let newSectionOfGroup = Dictionary(
            sections.enumerated().map { ($1.group, $0) }, uniquingKeysWith: { a, _ in a })
        var sectionChanges: [ViewSectionChange] = []
        for (index, section) in old.sections.enumerated() where newSectionOfGroup[section.group] == nil {
            sectionChanges.append(ViewSectionChange(kind: .removed, index: index, group: section.group))
        }
        for (index, section) in sections.enumerated() where oldSectionOfGroup[section.group] == nil {
            sectionChanges.append(
                ViewSectionChange(kind: .inserted, index: index, group: section.group, keys: section.keys))
        }

        var oldPaths: [String: ViewSectionIndexPath] = [:]
        for (section, content) in old.sections.enumerated() {
            for (row, key) in content.keys.enumerated() {
                oldPaths[key] = ViewSectionIndexPath(section: section, row: row)
            }
        }
        var newPaths: [String: ViewSectionIndexPath] = [:]
        for (section, content) in sections.enumerated() {
            for (row, key) in content.keys.enumerated() {
                newPaths[key] = ViewSectionIndexPath(section: section, row: row)
            }
        }
        /// Whether the section of `path` in `old` is kept.
        func isKept(old path: ViewSectionIndexPath) -> Bool {
            newSectionOfGroup[old.sections[path.section].group] != nil
        }
        func isKept(new path: ViewSectionIndexPath) -> Bool {
            oldSectionOfGroup[sections[path.section].group] != nil
        }
        func parts(_ key: String) -> ViewRowChange.Parts {
            guard let before = old.fingerprints[key], let after = fingerprints[key] else { return [] }
            return after.changedParts(since: before)
        }
        /// `parts` of the row at `to`, with ``ViewRowChange/Parts/neighbour`` when a neighbour it
        /// draws from is another row than at `from`, or an updated one.
        func parts(_ key: String, from: ViewSectionIndexPath, to: ViewSectionIndexPath) -> ViewRowChange.Parts {
            var result = parts(key)
            let before = old.sections[from.section].keys
            let after = sections[to.section].keys
            for offset in mappings.rows(of: sections[to.section].group).dependencies {
                let oldRow = from.row + offset
                let newRow = to.row + offset
                let oldNeighbour = before.indices.contains(oldRow) ? before[oldRow] : nil
                let newNeighbour = after.indices.contains(newRow) ? after[newRow] : nil
                if oldNeighbour != newNeighbour || newNeighbour.map({ !parts($0).isEmpty }) == true {
                    result.insert(.neighbour)
                    break
                }
            }
            return result
        }

        var rows: [ViewSectionRowChange] = []
        for (key, from) in oldPaths where isKept(old: from) {
            // Gone, or moved into an inserted section (which brings it along).
            if let to = newPaths[key], isKept(new: to) { continue }
            rows.append(ViewSectionRowChange(kind: .removed, key: key, from: from, to: nil))
        }
        for (section, content) in sections.enumerated() where oldSectionOfGroup[content.group] != nil {
            let oldSection = oldSectionOfGroup[content.group]!
            // The keys that stayed in this section, by their old row, in their new order: those in
            // a longest increasing run keep their place; the others move.
            let stayed = content.keys.filter { oldPaths[$0]?.section == oldSection }
            let kept = ViewContents.longestIncreasingRun(stayed.map { oldPaths[$0]!.row })
            var stayedOffset = 0
            for (row, key) in content.keys.enumerated() {
                let to = ViewSectionIndexPath(section: section, row: row)
                guard let from = oldPaths[key], isKept(old: from) else {
                    rows.append(ViewSectionRowChange(kind: .inserted, key: key, from: nil, to: to))
                    continue
                }
                let changed = parts(key, from: from, to: to)
                if from.section == oldSection {
                    defer { stayedOffset += 1 }
                    if kept.contains(stayedOffset) {
                        if !changed.isEmpty {
                            rows.append(
                                ViewSectionRowChange(
                                    kind: .updated, key: key, from: from, to: to, changedParts: changed))
                        }
                        continue
                    }
                }
                rows.append(ViewSectionRowChange(kind: .moved, key: key, from: from, to: to, changedParts: changed))
            }
        }
        rows.sort { lhs, rhs in
            if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
            let left = lhs.to ?? lhs.from
            let right = rhs.to ?? rhs.from
            if left != right, let left, let right { return left < right }
            return lhs.key < rhs.key
        }
        return ViewSectionChanges(sectionChanges: sectionChanges, rowChanges: rows)
    }
}
