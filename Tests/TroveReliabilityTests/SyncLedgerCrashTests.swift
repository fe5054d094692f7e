import Foundation
import Testing
import Trove
import TroveSync
import TroveTestSupport

/// A process killed while it writes with the sync ledger leaves a ledger in step with the items:
/// every committed change is in the outbox, and nothing else; each item's versions give its
/// stored bytes; the outbox's changes, merged in order, give the versions.
@Suite(.serialized)
struct SyncLedgerCrashTests {
    @Test(arguments: 0..<4)
    func theLedgerStaysInStepWithTheItemsAcrossAKill(round: Int) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/sync.trove"
        let child = try CrashWriterProcess(mode: "sync", path: path)
        // Killed after 5 to 40 commits, in the middle of the next transaction or between two.
        let target = 5 + round * 11
        let reached = child.waitForLine(timeout: .seconds(60)) { $0 == "committed \(target)" }
        if let problem = child.sigkill() {
            Issue.record("\(problem)")
            return
        }
        try #require(reached, "the child did not reach \(target) commits: \(child.lines) \(child.errors)")

        let ledger = SyncWorkload.ledger
        let database = try Database(path: path, extensions: [ledger.databaseExtension])
        #expect(try database.integrityCheck().isOK)
        try database.read { tx in
            let pending = try ledger.pending(in: tx, limit: 1_000_000)
            #expect(pending.map(\.sequence) == Array(1...Int64(pending.count)), "round \(round)")
            var replayed: [String: ItemVersions] = [:]
            for change in pending {
                replayed[change.key, default: ItemVersions()].merge(change.changes)
            }
            var keys = Set(try tx.keys(of: CrashItem.self))
            keys.formUnion(replayed.keys)
            for key in keys {
                let versions = try ledger.versions(ofKey: key, in: CrashItem.collection, transaction: tx)
                #expect(versions == replayed[key], "round \(round), item \(key)")
                // The stored item's fields are the versions' present fields (in the coder's
                // order, where the versions' encoding is in the order of the numbers).
                let stored = try tx.data(forKey: key, in: CrashItem.collection).map { SyncWorkload.fields(of: Array($0)) }
                let present = versions.flatMap { $0.isRemoved ? nil : $0.fields.compactMapValues(\.bytes) }
                #expect(present == stored, "round \(round), item \(key): stored and versions differ")
            }
        }
    }
}
