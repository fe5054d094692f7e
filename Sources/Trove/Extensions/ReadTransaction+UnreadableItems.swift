import Foundation

extension ReadTransaction {
    /// The stored items whose bytes do not decode, which extensions left out, sorted by
    /// collection and key (see ``UnreadableItem``).
    ///
    /// An item is listed while its stored bytes are those that failed: once it is removed or
    /// written again, it is no longer listed, whichever process changed it.
    ///
    /// - Returns: The unreadable items; empty when every extension could read every item.
    /// - Throws: ``TroveError`` when SQLite fails.
    /// - Complexity: O(n) in the number of items left out.
    public func unreadableItems() throws -> [UnreadableItem] {
        let core = checkedCore
        guard try UnreadableItems.tableExists(in: core.sqlite) else { return [] }
        let statement = try core.sqlite.cachedStatement(FileLayout.selectUnreadable)
        defer { statement.reset() }
        var items: [UnreadableItem] = []
        while try statement.step() {
            let digest = UnreadableItems.digest(
                data: statement.bytes(at: 6), metadata: statement.isNull(at: 7) ? nil : statement.bytes(at: 7))
            // Bytes that changed since they failed are another item now: its extensions saw the write.
            guard digest == statement.int64(at: 5) else { continue }
            let collection = statement.string(at: 0)
            let key = statement.string(at: 1)
            let name = statement.string(at: 2)
            if let last = items.last, last.collection == collection, last.key == key {
                items[items.count - 1].extensionNames.append(name)
            } else {
                items.append(
                    UnreadableItem(
                        collection: collection, key: key, reason: statement.string(at: 4),
                        field: statement.isNull(at: 3) ? nil : statement.string(at: 3), extensionNames: [name]))
            }
        }
        return items
    }
}
