import Trove

/// The index that the crash tests kill a process in the middle of building
/// (`trove-crash-writer index`).
public enum CrashIndex {
    /// An index of the crash items by group.
    public static let byGroup = SecondaryIndex<CrashItem>("crash_by_group", columns: [.column("group") { $0.group }])
    /// An index of the crash items by the remainder of their group by 3: the index that only
    /// some processes of the extension-set tests maintain (`trove-crash-writer extensions`).
    public static let byResidue = SecondaryIndex<CrashItem>(
        "crash_by_residue", columns: [.column("residue") { $0.group % 3 }])

    /// The indexes of set `name` (`a`: ``byGroup``; `b`: ``byGroup`` and ``byResidue``), and
    /// the column each queries with the value each item has in it.
    public static func set(_ name: String) -> [(index: SecondaryIndex<CrashItem>, column: String, value: @Sendable (CrashItem) -> Int)] {
        let group: (index: SecondaryIndex<CrashItem>, column: String, value: @Sendable (CrashItem) -> Int) = (byGroup, "group", { $0.group })
        let residue: (index: SecondaryIndex<CrashItem>, column: String, value: @Sendable (CrashItem) -> Int) = (byResidue, "residue", { $0.group % 3 })
        return name == "b" ? [group, residue] : [group]
    }

    /// Checks every index of set `name` against the items, in one read transaction: for each
    /// value a column can hold, the keys the index finds must be the keys whose items hold it.
    /// An index that refuses to answer (``TroveError/Code/extensionFailed``: stale) is counted,
    /// never checked.
    ///
    /// - Returns: The number of answers checked, of refusals, and a description of each wrong answer.
    public static func check(set name: String, in tx: ReadTransaction) throws -> (checked: Int, refused: Int, wrong: [String]) {
        let items = try tx.readAll(CrashItem.self).filter { $0.id.hasPrefix("x-") }
        var checked = 0
        var refused = 0
        var wrong: [String] = []
        for (index, column, value) in set(name) {
            for target in 0..<(column == "group" ? 20 : 3) {
                let expected = items.filter { value($0) == target }.map(\.id).sorted()
                do {
                    let found = try index.query.filter(.column(column, equals: target)).keys(tx)
                        .filter { $0.hasPrefix("x-") }.sorted()
                    checked += 1
                    if found != expected {
                        wrong.append("\(index.name) \(column) == \(target): \(found.count) keys, \(expected.count) items")
                    }
                } catch let error as TroveError where error.code == .extensionFailed {
                    refused += 1
                    break
                }
            }
        }
        return (checked, refused, wrong)
    }
}

/// The view that the crash tests kill a process in the middle of building
/// (`trove-crash-writer view`). Its two versions group and sort the items differently, so that
/// the contents of one can never pass for the other's.
public enum CrashView {
    /// The name of the view.
    public static let name = "crash_view"

    /// The group of `item` in version `version`, or `nil` when it is left out.
    public static func group(of item: CrashItem, version: Int) -> String? {
        if version == 1 {
            return item.group % 13 == 0 ? nil : "g\(item.group % 10)"
        }
        return item.group % 11 == 0 ? nil : "h\(item.group % 7)"
    }

    /// Whether `lhs` comes before `rhs` in version `version` (ties are ordered by key).
    public static func sortsBefore(_ lhs: CrashItem, _ rhs: CrashItem, version: Int) -> Bool {
        let left = lhs.payload.first ?? 0
        let right = rhs.payload.first ?? 0
        return version == 1 ? left < right : left > right
    }

    /// The view in version `version`: 1 or 2.
    ///
    /// - Parameters:
    ///   - version: The version.
    ///   - comparing: Called with the items the sort compares (the child process uses it to tell
    ///     when a build sorts its groups, after it has read every item).
    public static func view(
        version: Int, comparing: (@Sendable (CrashItem, CrashItem) -> Void)? = nil
    ) -> View<CrashItem> {
        View<CrashItem>(
            name, version: version, grouping: { item, _ in group(of: item, version: version) },
            areInIncreasingOrder: { lhs, rhs in
                comparing?(lhs, rhs)
                return sortsBefore(lhs, rhs, version: version)
            })
    }

    /// The contents that version `version` must have over `items`, computed by brute force:
    /// group, sort, then key.
    public static func expectedContents(of items: [CrashItem], version: Int) -> ViewContents {
        var groups: [String: [CrashItem]] = [:]
        for item in items {
            if let group = group(of: item, version: version) { groups[group, default: []].append(item) }
        }
        return ViewContents(
            keysByGroup: groups.mapValues { rows in
                rows.sorted { lhs, rhs in
                    if sortsBefore(lhs, rhs, version: version) { return true }
                    if sortsBefore(rhs, lhs, version: version) { return false }
                    return lhs.id < rhs.id
                }.map(\.id)
            })
    }
}
