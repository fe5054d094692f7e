/// Placing the rows of a view again under another grouping or sort, in the transaction, with the
/// fewest row changes (see ``ReadWriteTransaction/redefine(_:)``).
extension ViewImplementation {
    /// Re-places the rows of the view `name`, whose pages the registered definition placed, under
    /// this definition: rows that leave the view or enter it, or change group, are taken out and
    /// put in; within a group, the rows of a longest run that keeps its relative order stay
    /// where they are and the others are taken out and put back at their sorted place. Every row
    /// taken out or put in is noted repositioned, so the commit reports it as a move, an insert
    /// or a delete, and nothing else.
    ///
    /// A view that starts empty re-places the rows it has; any other view places every stored
    /// item its filter and grouping accept, as a build does.
    ///
    /// - Parameters:
    ///   - name: The name of the view.
    ///   - context: The write transaction.
    ///   - storedKey: The stored key of a row (row id, group and index, for the error of a damaged
    ///     view), for a row that leaves the view and that the items did not name.
    /// - Throws: ``TroveError`` when SQLite fails or the pages are damaged; the pages are then
    ///   half placed, and the caller fails the transaction.
    /// - Complexity: O(n log n) in the rows, plus O(log n) page reads and writes for each row
    ///   taken out or put in.
    func replacePlacement(
        name: String, in context: ExtensionContext, storedKey: (Int64, String, Int) throws -> String
    ) throws {
        let state = try self.state(name: name, in: context)
        // The rows as they are placed now.
        var oldPlace: [Int64: (group: String, index: Int)] = [:]
        var oldGroups: [String: [Int64]] = [:]
        for (group, _) in try state.store.groupCounts() {
            let rowIDs = try state.rowIDs(ofGroup: group, in: context)
            oldGroups[group] = rowIDs
            for (index, rowID) in rowIDs.enumerated() { oldPlace[rowID] = (group, index) }
        }
        // The rows as the new definition places them.
        var rows: [Int64: (key: String, row: Definition.Row)] = [:]
        var newGroups: [String: [Int64]] = [:]
        func place(_ rowID: Int64, key: String, row: Definition.Row) throws {
            rows[rowID] = (key, row)
            if let group = try readable(rowID: rowID, name: name, in: context, { try view.group(of: row) }) ?? nil {
                newGroups[group, default: []].append(rowID)
            }
        }
        if view.populatesStoredItems {
            try view.forEachStored(in: context, progress: { _ in }) { rowID, key, row in
                try place(rowID, key: key, row: row)
            }
        } else {
            for rowID in oldPlace.keys.sorted() {
                if let (key, row) = try readable(
                    rowID: rowID, name: name, in: context, { try view.row(rowID, in: context) })
                {
                    try place(rowID, key: key, row: row)
                }
            }
        }
        func sortsBefore(_ lhs: Int64, _ rhs: Int64) throws -> Bool {
            guard let left = rows[lhs], let right = rows[rhs] else { return false }
            return try view.sortsBefore(left.row, key: left.key, right.row, key: right.key)
        }
        var kept: Set<Int64> = []
        for (group, unsorted) in newGroups {
            let sorted = try unsorted.sorted(by: sortsBefore)
            newGroups[group] = sorted
            // The rows already in this group, in the new order, by their old index: a longest
            // increasing run of them keeps its place.
            let stayers = sorted.filter { oldPlace[$0]?.group == group }
            let run = ViewContents.longestIncreasingRun(stayers.map { oldPlace[$0]?.index ?? 0 })
            for position in run { kept.insert(stayers[position]) }
        }
        let reported: String? = view.reportsCollections ? view.primaryCollection : nil
        func note(_ rowID: Int64, key: String) {
            state.noteChange(rowID, key: key, collection: reported, parts: [], repositioned: true)
        }
        // Out first: what stays of each group is then in the new order, where the others go in.
        for (group, rowIDs) in oldGroups.sorted(by: { $0.key < $1.key }) {
            for (index, rowID) in rowIDs.enumerated() where !kept.contains(rowID) {
                try state.remove(rowID, in: context)
                note(rowID, key: try rows[rowID]?.key ?? storedKey(rowID, group, index))
            }
        }
        for (group, rowIDs) in newGroups.sorted(by: { $0.key < $1.key }) {
            for rowID in rowIDs where !kept.contains(rowID) {
                try state.insert(rowID, into: group, in: context) { other in try sortsBefore(rowID, other) }
                if let key = rows[rowID]?.key { note(rowID, key: key) }
            }
        }
    }
}
