import Trove

/// The index that the crash tests kill a process in the middle of building
/// (`trove-crash-writer index`).
public enum CrashIndex {
    /// An index of the crash items by group.
    public static let byGroup = SecondaryIndex<CrashItem>("crash_by_group", columns: [.column("group") { $0.group }])
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
