import Foundation
import Trove
import TroveTestSupport

/// The scheduled actions of the crash test (`trove-crash-writer actions`), the same in the process
/// that is killed and in the test that checks what it left.
public enum ActionWorkload {
    /// The name the schedule is registered under.
    public static let name = "crash_actions"
    /// The date of the item of group 0's action: long past, so every action is due at once.
    public static let epoch = Date(timeIntervalSince1970: 1_000_000)
    /// Every item declares one action, "send", due `group` seconds after ``epoch``.
    public static let schedule = ActionSchedule<CrashItem>(name) { item in
        [ScheduledAction("send", at: epoch.addingTimeInterval(Double(item.group)), retry: .never)]
    }
    /// The keys of the items, in the order their actions run.
    public static let keys = (0..<6).map { "a-\($0)" }
    /// The key whose first run the test kills.
    public static let killedKey = "a-2"

    /// Writes the items, unless the file has them.
    public static func seed(_ database: Database) throws {
        try database.newConnection().write { tx in
            guard try tx.keys(of: CrashItem.self).isEmpty else { return }
            for (group, key) in keys.enumerated() {
                try tx.write(CrashWorkload.item(id: key, group: group, salt: 21))
            }
        }
    }
}
