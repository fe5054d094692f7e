// Enumerating a group of a view, with writes in the body: the rule of the collections'
// enumerations (see the article "Enumeration"), for a list whose order is the view's sort.

extension ViewReader {
    /// Calls `body` with the index and item of each row of `group`, first to last or last to
    /// first, until `body` sets its `stop` argument to `true`.
    ///
    /// ```swift
    /// try connection.write { tx in
    ///     try inbox.read(tx).enumerate(in: conversationID) { index, message, stop in
    ///         if message.isSpam { try tx.remove(Message.self, key: message.id) }
    ///     }
    /// }
    /// ```
    ///
    /// Pages of rows are read one at a time, and no statement is in the middle of a read while
    /// `body` runs: it may read, enumerate again and, in a ``ReadWriteTransaction``, write. Writes
    /// follow the rule of the collections' enumerations (<doc:Enumeration>): every row is visited
    /// as it is when the enumeration reaches it, none twice, none skipped. The enumeration's
    /// position is the place in the view's order of the last item it handed out, as it was then;
    /// the rows after that place (before it, when `reversed`) are the ones still to come:
    ///
    /// - A row written after the position (inserted, updated, moved there from before it or
    ///   from another group) is visited at its new place, with its latest item.
    /// - A row removed, or moved before the position or out of the group, before it is reached
    ///   is not visited. A row written before the position is not visited.
    /// - No row is visited twice, even when a write moves a visited row after the position.
    ///
    /// A ``ManualView`` has no sort: after a write, its walk goes on from the index that the last
    /// row handed out had, and skips the rows already handed out. The rows still to come after a
    /// removal or a move (of the row handed out, or of rows before it) are all visited; a row put
    /// before that index is not.
    ///
    /// `index` is the row's index in the group when `body` receives it.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - reversed: Whether to go from the last row to the first.
    ///   - body: Called with each index and item; set `stop` to end the enumeration. A write it
    ///     makes stays when it stops: it belongs to the transaction, not to the enumeration.
    /// - Throws: What ``items(in:range:)`` throws, or what `body` throws.
    /// - Complexity: Without writes, one page read per 50 rows. After a write, the next row is
    ///   found again by comparing the last item handed out with the rows: O(log p) page reads and
    ///   O(log n) item reads, p pages and n rows in the group. In a read-write transaction, the
    ///   enumeration keeps the keys it handed out (a write may move one of them after its
    ///   position), so its memory grows with the rows visited.
    public func enumerate(
        in group: String, reversed: Bool = false, _ body: (Int, Item, inout Bool) throws -> Void
    ) throws {
        let enumerator = ViewEnumerator(reader: self, group: group, reversed: reversed)
        var stop = false
        while let (index, item) = try enumerator.next() {
            try body(index, item, &stop)
            if stop { return }
        }
    }
}

/// Walks one group of a view in its order, one row at a time, reading a page at a time, and
/// finds its place again after every write of the transaction (see
/// ``ViewReader/enumerate(in:reversed:_:)`` for the rule it follows).
///
/// While no write happens, it goes through the page it holds and then the next page of the list
/// it read. A write may have split, merged, emptied or reordered any page, and moved, removed or
/// inserted any row, so after one (the connection's count of changed rows moved) it reads the
/// group's page list again and searches it for the first row after its position: the last item
/// handed out, as it was then, with its key, compared with the view's sort.
final class ViewEnumerator<Item: Persistable> {
    private let reader: ViewReader<Item>
    private let group: String
    private let reversed: Bool
    /// +1 or -1: the direction of the walk through pages and rows.
    private let step: Int

    /// The pages as last read: the page source, the group's page list, and the index in the
    /// group of the first row of each page.
    private var source: (any ViewPageSource)?
    private var pages: [ViewPageRef] = []
    private var offsets: [Int] = []
    /// The position in ``pages`` of the page being read (outside the list when the walk is
    /// over), and its rows.
    private var pagePosition = 0
    private var rows: [Int64] = []
    /// The position in ``rows`` of the next row to look at.
    private var rowPosition = 0
    /// The connection's count of changed rows when the pages were read; -1 before.
    private var changesAtRead: Int64 = -1
    /// The last row handed out: its item as it was then, and its stored key.
    private var position: (item: Item, key: String)?
    /// The index in the group of the last row handed out, when it was handed out: where a
    /// manual view's walk goes on when a write took that row out of the group.
    private var positionIndex = 0
    /// The keys handed out, in a read-write transaction (`nil` in a read transaction, where
    /// nothing moves): a write may move one of them after the position.
    private var visited: Set<String>?

    init(reader: ViewReader<Item>, group: String, reversed: Bool) {
        self.reader = reader
        self.group = group
        self.reversed = reversed
        step = reversed ? -1 : 1
        visited = reader.transaction is ReadWriteTransaction ? [] : nil
    }

    /// The index in the group and the item of the next row, or `nil` after the last one.
    func next() throws -> (index: Int, item: Item)? {
        let sqlite = reader.transaction.checkedCore.sqlite
        while true {
            if sqlite.totalChanges != changesAtRead {
                try findPosition()
            }
            guard pages.indices.contains(pagePosition) else { return nil }
            guard rows.indices.contains(rowPosition) else {
                try readPage(at: pagePosition + step)
                continue
            }
            let index = offsets[pagePosition] + rowPosition
            let key = try reader.key(ofRow: rows[rowPosition], group: group, index: index)
            rowPosition += step
            if visited?.contains(key) == true { continue }
            guard let item = try reader.transaction.read(Item.self, key: reader.itemKey(key)) else {
                throw TroveError.viewRowWithoutItem(
                    view: reader.view.name, collections: [Item.collection], key: key, group: group, index: index)
            }
            position = (item, key)
            positionIndex = index
            visited?.insert(key)
            return (index, item)
        }
    }

    // MARK: Pages

    /// Reads the page at `position` of ``pages`` and starts at its first row in the direction
    /// of the walk; outside the list, ends the walk.
    private func readPage(at position: Int) throws {
        pagePosition = position
        guard let source, pages.indices.contains(position) else {
            rows = []
            return
        }
        rows = try source.page(pages[position].id).rows
        rowPosition = reversed ? rows.count - 1 : 0
    }

    /// Reads the group's pages as they are now, and goes to the first row after the position
    /// (the first row of the walk when nothing was handed out yet).
    private func findPosition() throws {
        changesAtRead = reader.transaction.checkedCore.sqlite.totalChanges
        let source = try reader.view.pageSource(in: reader.transaction)
        self.source = source
        pages = try source.groupPages(group)
        offsets = []
        offsets.reserveCapacity(pages.count)
        var total = 0
        for page in pages {
            offsets.append(total)
            total += page.count
        }
        guard let position else {
            try readPage(at: reversed ? pages.count - 1 : 0)
            return
        }
        if reader.view.isManual {
            try findManualPosition()
            return
        }

        // Whether a row comes after the position in the direction of the walk: in the order of
        // the rows, false for a run of rows and then true (forward), or true and then false.
        var pageRows: [Int64: [Int64]] = [:]
        func rows(ofPage index: Int) throws -> [Int64] {
            let id = pages[index].id
            if let rows = pageRows[id] { return rows }
            let rows = try source.page(id).rows
            pageRows[id] = rows
            return rows
        }
        func isAhead(_ rowID: Int64) throws -> Bool {
            let (key, item) = try row(rowID)
            return reversed
                ? reader.view.sortsBefore(item, key: key, position.item, key: position.key)
                : reader.view.sortsBefore(position.item, key: position.key, item, key: key)
        }

        if !reversed {
            // The first page whose last row is ahead holds the first row ahead.
            var low = 0
            var high = pages.count
            while low < high {
                let middle = (low + high) / 2
                if let last = try rows(ofPage: middle).last, try isAhead(last) {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            guard low < pages.count else {
                try readPage(at: pages.count)
                return
            }
            let found = try rows(ofPage: low)
            var lowRow = 0
            var highRow = found.count
            while lowRow < highRow {
                let middle = (lowRow + highRow) / 2
                if try isAhead(found[middle]) { highRow = middle } else { lowRow = middle + 1 }
            }
            pagePosition = low
            self.rows = found
            rowPosition = lowRow
        } else {
            // The last page whose first row is ahead holds the last row ahead, the next of a
            // walk from last to first.
            var low = 0
            var high = pages.count
            while low < high {
                let middle = (low + high) / 2
                if let first = try rows(ofPage: middle).first, try isAhead(first) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            guard low > 0 else {
                try readPage(at: -1)
                return
            }
            let found = try rows(ofPage: low - 1)
            var lowRow = 0
            var highRow = found.count
            while lowRow < highRow {
                let middle = (lowRow + highRow) / 2
                if try isAhead(found[middle]) { lowRow = middle + 1 } else { highRow = middle }
            }
            pagePosition = low - 1
            self.rows = found
            rowPosition = lowRow - 1
        }
    }

    /// Goes back to the row before the index that the last row handed out had, in the
    /// direction of the walk, from where the rows already handed out are skipped: a manual view
    /// has no sort to find the place by. A write that removed or moved that row, or rows before
    /// it, shifted the rows to come by as many places, so the first row not handed out from
    /// there is the next one.
    private func findManualPosition() throws {
        let total = offsets.last.map { $0 + pages[pages.count - 1].count } ?? 0
        let next = Swift.min(Swift.max(positionIndex - step, 0), total - 1)
        guard next >= 0, let page = offsets.lastIndex(where: { $0 <= next }) else {
            try readPage(at: -1)
            return
        }
        pagePosition = page
        rows = try source?.page(pages[page].id).rows ?? []
        rowPosition = next - offsets[page]
    }

    /// The stored key and the item of the row `rowID`, as the transaction has them now.
    private func row(_ rowID: Int64) throws -> (key: String, item: Item) {
        let statement = try reader.transaction.checkedCore.sqlite.cachedStatement(FileLayout.selectRowByID)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        guard try statement.step() else {
            throw TroveError.viewRowWithoutItem(view: reader.view.name, collections: [Item.collection], group: group)
        }
        let key = statement.string(at: 0)
        let item = try ExtensionItems<Item>.decode(
            key: key, data: statement.bytes(at: 1), metadata: statement.isNull(at: 2) ? nil : statement.bytes(at: 2))
        return (key, item)
    }
}

// Explicit non-conformance to Sendable: an enumerator belongs to its transaction.
@available(*, unavailable)
extension ViewEnumerator: Sendable {}
