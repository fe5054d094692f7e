/// A view's state during one read-write transaction: its pages as they are now (written through
/// to the file at every change) and as they were before the transaction, from which the commit
/// computes the row changes of ``ViewChanges``.
///
/// Every change of the pages goes through ``remove(_:in:)`` and ``insert(_:into:in:sortsBefore:)``,
/// which save a page's rows, a group's page list and a row's page the first time they change
/// (copy on write). The rows that no write reached keep their relative order, so a row that a
/// write left in place is reported as updated, and only the rows that were taken out and put
/// back are moves (see ``ViewChanges`` for the index convention).
final class ViewWriteState: ExtensionTransactionState {
    /// The pages: the file's tables, or the transaction's copy of an in-memory view's.
    let store: any ViewPageStore
    /// The pages of an in-memory view, published when the transaction commits; `nil` for a view
    /// in the file.
    let memory: ViewMemoryPages?
    /// The name of the view, for error messages.
    private let viewName: String

    // The pages as they are now, as far as this transaction read or wrote them.
    private var groupPages: [String: [ViewPageRef]] = [:]
    private var pageRows: [Int64: [Int64]] = [:]
    /// The group of every page seen, also of pages deleted since.
    private var pageGroups: [Int64: String] = [:]

    // The pages as they were before the transaction: saved on first change.
    private var originalGroupPages: [String: [ViewPageRef]] = [:]
    private var originalPageRows: [Int64: [Int64]] = [:]
    private var createdPages: Set<Int64> = []
    /// The page of a row before the transaction (0: not in the view), saved when its page changes.
    private var originalLocation: [Int64: Int64] = [:]

    /// The rows written in the transaction that are still in the table, by row id.
    private var changed: [Int64: ChangedRow] = [:]
    /// The rows removed from the table in the transaction.
    private var departed: [DepartedRow] = []

    private struct ChangedRow {
        var key: String
        /// The collection of the row, for a view over several collections; `nil` otherwise.
        var collection: String?
        var parts: ViewRowChange.Parts
        /// Whether the row was taken out of its place and put back (a move unless it is new).
        var repositioned: Bool
    }

    private struct DepartedRow {
        var rowID: Int64
        var key: String
        var collection: String?
        /// The page of the row before the transaction; 0 when it was not in the view.
        var originalPage: Int64
        var parts: ViewRowChange.Parts
    }

    /// The state of a view whose pages are in the file's tables.
    init(storage: ViewStorage, sqlite: SQLiteConnection) {
        store = SQLiteViewPages(storage: storage, sqlite: sqlite)
        memory = nil
        viewName = storage.viewName
    }

    /// The state of the in-memory view `name`, starting from `pages`.
    init(name: String, memory pages: ViewMemoryState) {
        let memory = ViewMemoryPages(state: pages)
        store = memory
        self.memory = memory
        viewName = name
    }

    // MARK: Reading the current pages

    /// The page that holds `rowID` now, or 0.
    func currentPage(of rowID: Int64, in context: ExtensionContext) throws -> Int64 {
        try store.pageOfRow(rowID)
    }

    func group(ofPage id: Int64, in context: ExtensionContext) throws -> String {
        if let group = pageGroups[id] { return group }
        let page = try store.page(id)
        pageGroups[id] = page.group
        pageRows[id] = page.rows
        return page.group
    }

    func rows(ofPage id: Int64, in context: ExtensionContext) throws -> [Int64] {
        if let rows = pageRows[id] { return rows }
        let page = try store.page(id)
        pageGroups[id] = page.group
        pageRows[id] = page.rows
        return page.rows
    }

    func pages(ofGroup group: String, in context: ExtensionContext) throws -> [ViewPageRef] {
        if let pages = groupPages[group] { return pages }
        let pages = try store.groupPages(group)
        groupPages[group] = pages
        return pages
    }

    /// The rows before and after `rowID` in its group, now.
    func neighbours(of rowID: Int64, page: Int64, in context: ExtensionContext) throws -> (
        previous: Int64?, next: Int64?
    ) {
        let rows = try rows(ofPage: page, in: context)
        guard let index = rows.firstIndex(of: rowID) else { return (nil, nil) }
        var previous = index > 0 ? rows[index - 1] : nil
        var next = index + 1 < rows.count ? rows[index + 1] : nil
        if previous == nil || next == nil {
            let list = try pages(ofGroup: group(ofPage: page, in: context), in: context)
            if let position = list.firstIndex(where: { $0.id == page }) {
                if previous == nil, position > 0 {
                    previous = try self.rows(ofPage: list[position - 1].id, in: context).last
                }
                if next == nil, position + 1 < list.count {
                    next = try self.rows(ofPage: list[position + 1].id, in: context).first
                }
            }
        }
        return (previous, next)
    }

    /// Whether the transaction changed the pages: every change saves the page list of its group
    /// first, or a row's page.
    private var wrotePages: Bool {
        !originalGroupPages.isEmpty || !originalLocation.isEmpty || !createdPages.isEmpty
    }

    // MARK: Copy on write

    private func willModify(group: String, in context: ExtensionContext) throws {
        if originalGroupPages[group] == nil {
            originalGroupPages[group] = try pages(ofGroup: group, in: context)
        }
    }

    private func willModify(page id: Int64, in context: ExtensionContext) throws {
        if !createdPages.contains(id), originalPageRows[id] == nil {
            originalPageRows[id] = try rows(ofPage: id, in: context)
        }
    }

    private func setPage(_ page: Int64, ofRow rowID: Int64, in context: ExtensionContext) throws {
        if originalLocation[rowID] == nil {
            originalLocation[rowID] = try currentPage(of: rowID, in: context)
        }
        try store.setPage(page, ofRow: rowID)
    }

    /// Stores the rows of page `id`, and its place when `ord` is not `nil` (only a renumbering
    /// moves a page: leaving `ord` alone spares the write of the group index).
    private func storePage(_ id: Int64, ord: Int64? = nil, rows: [Int64], in context: ExtensionContext) throws {
        try store.updatePage(id, ord: ord, rows: rows)
        pageRows[id] = rows
    }

    private func createPage(group: String, ord: Int64, rows: [Int64], in context: ExtensionContext) throws -> Int64 {
        let id = try store.insertPage(group: group, ord: ord, rows: rows)
        createdPages.insert(id)
        pageGroups[id] = group
        pageRows[id] = rows
        return id
    }

    // MARK: Changing the pages

    /// Takes `rowID` out of the view, if it is in it.
    func remove(_ rowID: Int64, in context: ExtensionContext) throws {
        let page = try currentPage(of: rowID, in: context)
        guard page != 0 else { return }
        let group = try group(ofPage: page, in: context)
        try willModify(group: group, in: context)
        try willModify(page: page, in: context)
        var list = try pages(ofGroup: group, in: context)
        var rows = try self.rows(ofPage: page, in: context)
        guard let position = list.firstIndex(where: { $0.id == page }), let index = rows.firstIndex(of: rowID) else {
            throw TroveError.viewDamaged(viewName, "a row is not in the page that its list of rows names")
        }
        rows.remove(at: index)
        try setPage(0, ofRow: rowID, in: context)
        if rows.isEmpty {
            try store.deletePage(page)
            pageRows[page] = nil
            list.remove(at: position)
        } else if rows.count < ViewStorage.minimumPageSize, position > 0,
            list[position - 1].count + rows.count <= ViewStorage.maximumPageSize
        {
            // Merge into the previous page.
            let previous = list[position - 1]
            try willModify(page: previous.id, in: context)
            let merged = try self.rows(ofPage: previous.id, in: context) + rows
            try storePage(previous.id, rows: merged, in: context)
            for moved in rows { try setPage(previous.id, ofRow: moved, in: context) }
            try store.deletePage(page)
            pageRows[page] = nil
            list[position - 1].count = merged.count
            list.remove(at: position)
        } else if rows.count < ViewStorage.minimumPageSize, position + 1 < list.count,
            list[position + 1].count + rows.count <= ViewStorage.maximumPageSize
        {
            // Merge into the next page.
            let next = list[position + 1]
            try willModify(page: next.id, in: context)
            let merged = try rows + self.rows(ofPage: next.id, in: context)
            try storePage(next.id, rows: merged, in: context)
            for moved in rows { try setPage(next.id, ofRow: moved, in: context) }
            try store.deletePage(page)
            pageRows[page] = nil
            list[position + 1].count = merged.count
            list.remove(at: position)
        } else {
            try storePage(page, rows: rows, in: context)
            list[position].count = rows.count
        }
        groupPages[group] = list
    }

    /// The page list of `group`, saved before an insertion; `nil` when the group had no page and
    /// now has one holding only `rowID`.
    private func pagesForInsert(of group: String, startingWith rowID: Int64, in context: ExtensionContext) throws
        -> [ViewPageRef]?
    {
        try willModify(group: group, in: context)
        let list = try pages(ofGroup: group, in: context)
        guard list.isEmpty else { return list }
        let id = try createPage(group: group, ord: 0, rows: [rowID], in: context)
        try setPage(id, ofRow: rowID, in: context)
        groupPages[group] = [ViewPageRef(id: id, ord: 0, count: 1)]
        return nil
    }

    /// Puts `rowID` into `group` at its sorted place: before the first row `sortsBefore` says it
    /// sorts before, after every other.
    ///
    /// - Complexity: O(log p) page reads and O(log n) calls of `sortsBefore`.
    func insert(
        _ rowID: Int64, into group: String, in context: ExtensionContext, sortsBefore: (Int64) throws -> Bool
    ) throws {
        guard var list = try pagesForInsert(of: group, startingWith: rowID, in: context) else { return }
        // The first page whose first row the new row sorts before; the row goes in the page before.
        var low = 1
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if let first = try rows(ofPage: list[middle].id, in: context).first, try sortsBefore(first) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        let position = low - 1
        let page = list[position]
        try willModify(page: page.id, in: context)
        var rows = try self.rows(ofPage: page.id, in: context)
        var lowRow = 0
        var highRow = rows.count
        while lowRow < highRow {
            let middle = (lowRow + highRow) / 2
            if try sortsBefore(rows[middle]) {
                highRow = middle
            } else {
                lowRow = middle + 1
            }
        }
        try insert(rowID, into: group, list: &list, position: position, rows: &rows, index: lowRow, in: context)
    }

    /// Puts `rowID` into `group` at `index`, from 0 to the group's count (the end), for a view
    /// whose rows the app places (``ManualView``).
    ///
    /// - Complexity: O(p) over the page list of the group, one page read and written (two when
    ///   it splits).
    func insert(_ rowID: Int64, into group: String, at index: Int, in context: ExtensionContext) throws {
        guard var list = try pagesForInsert(of: group, startingWith: rowID, in: context) else { return }
        // The page that holds the row now at `index`, or the last page for the end.
        var position = 0
        var offset = 0
        while position + 1 < list.count, offset + list[position].count <= index {
            offset += list[position].count
            position += 1
        }
        let page = list[position]
        try willModify(page: page.id, in: context)
        var rows = try self.rows(ofPage: page.id, in: context)
        let rowIndex = Swift.min(Swift.max(index - offset, 0), rows.count)
        try insert(rowID, into: group, list: &list, position: position, rows: &rows, index: rowIndex, in: context)
    }

    /// The row ids of `group`, in order, now.
    func rowIDs(ofGroup group: String, in context: ExtensionContext) throws -> [Int64] {
        try pages(ofGroup: group, in: context).flatMap { try rows(ofPage: $0.id, in: context) }
    }

    /// The row id at `index` of `group` now, or `nil` when the group has no such row.
    func rowID(at index: Int, in group: String, in context: ExtensionContext) throws -> Int64? {
        guard index >= 0 else { return nil }
        var offset = 0
        for page in try pages(ofGroup: group, in: context) {
            if index < offset + page.count {
                let rows = try self.rows(ofPage: page.id, in: context)
                return index - offset < rows.count ? rows[index - offset] : nil
            }
            offset += page.count
        }
        return nil
    }

    /// The number of rows of `group` now.
    func count(in group: String, in context: ExtensionContext) throws -> Int {
        try pages(ofGroup: group, in: context).reduce(0) { $0 + $1.count }
    }

    /// Puts `rowID` at `index` of `rows`, the rows of the page at `position` of `list`, the
    /// page list of `group` (whose changes were saved): the page takes it, or splits in two.
    private func insert(
        _ rowID: Int64, into group: String, list: inout [ViewPageRef], position: Int, rows: inout [Int64],
        index lowRow: Int, in context: ExtensionContext
    ) throws {
        let page = list[position]
        rows.insert(rowID, at: lowRow)
        if rows.count <= ViewStorage.maximumPageSize {
            try storePage(page.id, rows: rows, in: context)
            try setPage(page.id, ofRow: rowID, in: context)
            list[position].count = rows.count
            groupPages[group] = list
            return
        }
        // Split: the first half stays, the rest goes to a new page right after.
        if position + 1 < list.count, list[position + 1].ord - list[position].ord < 2 {
            try renumber(&list, in: context)
        }
        let ord =
            position + 1 < list.count
            ? list[position].ord + (list[position + 1].ord - list[position].ord) / 2
            : list[position].ord + ViewStorage.ordinalGap
        let half = ViewStorage.maximumPageSize / 2
        let kept = Array(rows[..<half])
        let moved = Array(rows[half...])
        try storePage(page.id, rows: kept, in: context)
        let newID = try createPage(group: group, ord: ord, rows: moved, in: context)
        for row in moved where row != rowID {
            try setPage(newID, ofRow: row, in: context)
        }
        try setPage(lowRow < half ? page.id : newID, ofRow: rowID, in: context)
        list[position].count = kept.count
        list.insert(ViewPageRef(id: newID, ord: ord, count: moved.count), at: position + 1)
        groupPages[group] = list
    }

    /// Spreads the `ord` of the pages of a group evenly again.
    private func renumber(_ list: inout [ViewPageRef], in context: ExtensionContext) throws {
        for index in list.indices {
            list[index].ord = Int64(index) * ViewStorage.ordinalGap
            try storePage(list[index].id, ord: list[index].ord, rows: rows(ofPage: list[index].id, in: context), in: context)
        }
    }

    // MARK: Recording what happened

    /// Records that the row `rowID` (`key`, in `collection` for a view over several) was written.
    func noteChange(
        _ rowID: Int64, key: String, collection: String?, parts: ViewRowChange.Parts, repositioned: Bool
    ) {
        if var row = changed[rowID] {
            row.parts.formUnion(parts)
            row.repositioned = row.repositioned || repositioned
            changed[rowID] = row
        } else {
            changed[rowID] = ChangedRow(key: key, collection: collection, parts: parts, repositioned: repositioned)
        }
    }

    /// Records that the row `rowID` (`key`, in `collection` for a view over several) was removed
    /// from the table, and takes it out of the view. A later row with the same row id is another
    /// item.
    func noteRemoval(_ rowID: Int64, key: String, collection: String?, in context: ExtensionContext) throws {
        let original = try originalLocation[rowID] ?? currentPage(of: rowID, in: context)
        try remove(rowID, in: context)
        departed.append(
            DepartedRow(
                rowID: rowID, key: key, collection: collection, originalPage: original,
                parts: changed[rowID]?.parts ?? []))
        changed[rowID] = nil
        originalLocation[rowID] = 0
    }

    /// Takes every row out of the view: the rows of the collections it follows were removed,
    /// `rows` lists them; the changes name their collections when `reportsCollections`.
    func removeEverything(rows: [RemovedRow], reportsCollections: Bool, in context: ExtensionContext) throws {
        // Save what the removal changes: every group's pages and every row's page.
        for (group, _) in try store.groupCounts() {
            try willModify(group: group, in: context)
            for page in try pages(ofGroup: group, in: context) {
                try willModify(page: page.id, in: context)
            }
        }
        for (rowID, page) in try store.allRows() where originalLocation[rowID] == nil {
            originalLocation[rowID] = page
        }
        try store.deleteAll()
        for group in groupPages.keys { groupPages[group] = [] }
        pageRows.removeAll()
        for row in rows {
            departed.append(
                DepartedRow(
                    rowID: row.rowID, key: row.key, collection: reportsCollections ? row.collection : nil,
                    originalPage: originalLocation[row.rowID] ?? 0,
                    parts: changed[row.rowID]?.parts ?? []))
            changed[row.rowID] = nil
            originalLocation[row.rowID] = 0
        }
        // Every row of the collection is in `rows`: none of the written ones is left.
        changed.removeAll()
    }

    // MARK: Commit

    /// Records the view's changes in the changeset: its row and group changes, or, when the
    /// transaction rewrote its pages in the file with no change left to report (a row inserted
    /// into a full page and removed again leaves the page split), its name among the views whose
    /// pages were written, so that the other connections' caches of the pages drop them all the
    /// same (see ``ViewPageCache``).
    func willCommit(name: String, in context: ExtensionContext) throws {
        if try !recordChanges(name: name, in: context), memory == nil, wrotePages {
            context.core.changes.viewPagesWritten.insert(name)
        }
    }

    /// Records the row and group changes of the view, if any; returns whether it did.
    private func recordChanges(name: String, in context: ExtensionContext) throws -> Bool {
        guard !changed.isEmpty || !departed.isEmpty else { return false }
        var originalOffsets: [String: [Int64: Int]] = [:]
        var currentOffsets: [String: [Int64: Int]] = [:]

        func offsets(of list: [ViewPageRef]) -> [Int64: Int] {
            var offsets: [Int64: Int] = [:]
            var total = 0
            for page in list {
                offsets[page.id] = total
                total += page.count
            }
            return offsets
        }

        func originalPath(of rowID: Int64, page: Int64) throws -> ViewIndexPath? {
            guard page != 0 else { return nil }
            let group = try self.group(ofPage: page, in: context)
            if originalOffsets[group] == nil {
                originalOffsets[group] = try offsets(of: originalGroupPages[group] ?? pages(ofGroup: group, in: context))
            }
            let rows = try originalPageRows[page] ?? self.rows(ofPage: page, in: context)
            guard let offset = originalOffsets[group]?[page], let index = rows.firstIndex(of: rowID) else {
                throw TroveError.viewDamaged(viewName, "a row is not in the page that it was in before the transaction")
            }
            return ViewIndexPath(group: group, index: offset + index)
        }

        func currentPath(of rowID: Int64) throws -> ViewIndexPath? {
            let page = try currentPage(of: rowID, in: context)
            guard page != 0 else { return nil }
            let group = try self.group(ofPage: page, in: context)
            if currentOffsets[group] == nil {
                currentOffsets[group] = try offsets(of: pages(ofGroup: group, in: context))
            }
            let rows = try self.rows(ofPage: page, in: context)
            guard let offset = currentOffsets[group]?[page], let index = rows.firstIndex(of: rowID) else {
                throw TroveError.viewDamaged(viewName, "a row is not in the page that its list of rows names")
            }
            return ViewIndexPath(group: group, index: offset + index)
        }

        // By collection and key: the keys of two collections may be equal.
        var removedByKey: [ViewRowName: (path: ViewIndexPath, parts: ViewRowChange.Parts)] = [:]
        for row in departed {
            guard let path = try originalPath(of: row.rowID, page: row.originalPage) else { continue }
            removedByKey[ViewRowName(collection: row.collection, key: row.key)] = (path, row.parts)
        }
        var rowChanges: [ViewRowChange] = []
        for (rowID, row) in changed {
            var old = try originalPath(of: rowID, page: originalLocation[rowID] ?? currentPage(of: rowID, in: context))
            let new = try currentPath(of: rowID)
            var repositioned = row.repositioned
            var parts = row.parts
            if old == nil,
                let removed = removedByKey.removeValue(forKey: ViewRowName(collection: row.collection, key: row.key))
            {
                // The item was removed and stored again: the same item, moved or updated.
                old = removed.path
                repositioned = true
                parts.formUnion(removed.parts)
                parts.insert(.item)
            }
            switch (old, new) {
            case (nil, nil):
                continue
            case (nil, let new?):
                rowChanges.append(
                    ViewRowChange(
                        kind: .inserted, key: row.key, from: nil, to: new, changedParts: parts,
                        collection: row.collection))
            case (let old?, nil):
                rowChanges.append(
                    ViewRowChange(
                        kind: .removed, key: row.key, from: old, to: nil, changedParts: parts,
                        collection: row.collection))
            case (let old?, let new?):
                rowChanges.append(
                    ViewRowChange(
                        kind: repositioned ? .moved : .updated, key: row.key, from: old, to: new, changedParts: parts,
                        collection: row.collection))
            }
        }
        for (name, removed) in removedByKey {
            rowChanges.append(
                ViewRowChange(
                    kind: .removed, key: name.key, from: removed.path, to: nil, changedParts: [],
                    collection: name.collection))
        }
        var groupChanges: [ViewGroupChange] = []
        for (group, original) in originalGroupPages {
            let wasPresent = !original.isEmpty
            let isPresent = try !pages(ofGroup: group, in: context).isEmpty
            if wasPresent != isPresent {
                groupChanges.append(ViewGroupChange(kind: isPresent ? .inserted : .removed, group: group))
            }
        }
        guard !rowChanges.isEmpty || !groupChanges.isEmpty else { return false }
        context.core.changes.viewChanges[name] = ViewChanges(
            groupChanges: groupChanges.sorted(), rowChanges: rowChanges.sorted())
        return true
    }
}

extension ViewWriteState {
    /// Publishes the pages of an in-memory view as the version of the commit.
    func didCommit(name: String, commit: ExtensionCommit) {
        guard let memory else { return }
        commit.database.viewVersions.publish(
            memory.state, of: name, commit: commit.snapshot, writerToken: commit.writerToken)
    }
}

/// A row of a view by name: its collection (for a view over several collections) and key.
private struct ViewRowName: Hashable {
    var collection: String?
    var key: String
}

// Explicit non-conformance to Sendable: the state belongs to one write transaction.
@available(*, unavailable)
extension ViewWriteState: Sendable {}
