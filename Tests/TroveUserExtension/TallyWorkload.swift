import Trove
import TroveTestSupport

/// The writes of the tally crash test (`trove-crash-writer tally`), the same in the process that
/// is killed and in the test that checks what it left.
public enum TallyWorkload {
    /// The name the tally is registered under.
    public static let name = "crash_tally"
    /// The tally of the crash items, summing their groups.
    public static let tally = Tally<CrashItem>(value: { $0.group })

    /// Commit `n`: writes the item `t-n` (group `n`); every third commit also removes `t-(n-2)`,
    /// and every fifth updates `t-(n-1)` to group `2n` when it is there.
    public static func commit(_ n: Int, in tx: ReadWriteTransaction) throws {
        try tx.write(CrashWorkload.item(id: "t-\(n)", group: n, salt: 11))
        if n % 3 == 2 {
            try tx.remove(CrashItem.self, key: "t-\(n - 2)")
        }
        if n % 5 == 4, try tx.read(CrashItem.self, key: "t-\(n - 1)") != nil {
            try tx.write(CrashWorkload.item(id: "t-\(n - 1)", group: 2 * n, salt: 12))
        }
    }
}
