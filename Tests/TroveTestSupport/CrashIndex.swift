import Trove

/// The index that the crash tests kill a process in the middle of building
/// (`trove-crash-writer index`).
public enum CrashIndex {
    /// An index of the crash items by group.
    public static let byGroup = SecondaryIndex<CrashItem>("crash_by_group", columns: [.column("group") { $0.group }])
}
