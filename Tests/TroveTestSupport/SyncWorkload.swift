import TroveSync

/// The sync ledger of the crash tests' items (`trove-crash-writer sync`).
public enum SyncWorkload {
    /// The ledger of `CrashItem`'s collection.
    public static let ledger = SyncLedger(models: [CrashItem.self])
}
