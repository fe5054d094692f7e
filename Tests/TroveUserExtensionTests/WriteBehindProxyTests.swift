import Foundation
import Testing
import Trove
import TroveTestSupport

/// A write-behind proxy answers from memory at once, writes back in batches of one transaction,
/// and keeps the order of the writes: after a flush, a database opened anew holds exactly the
/// model's values.
@Suite struct WriteBehindProxyTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func readsWhatWasWrittenAndWritesItBackInOneTransaction(seed: UInt64) async throws {
        let path = try makeTemporaryFolder() + "/proxy.trove"
        let database = try Database(path: path)
        // A delay no test waits for: only flush writes back.
        let proxy = WriteBehindProxy<CrashItem>(database: database, delay: .seconds(3600))
        var random = SeededGenerator(seed: seed)
        var model: [String: Int] = [:]
        var changes = database.changes.makeAsyncIterator()
        for round in 0..<5 {
            let storedBefore = Set(model.keys)
            var changed: Set<String> = []
            for _ in 0..<40 {
                let key = "k\(random.next() % 15)"
                changed.insert(key)
                if random.next() % 4 == 0 {
                    proxy.remove(key: key)
                    model[key] = nil
                } else {
                    let group = Int(random.next() % 1000)
                    proxy.write(CrashWorkload.item(id: key, group: group, salt: 1))
                    model[key] = group
                }
                // Read back at once, from memory.
                #expect(try proxy.value(forKey: key)?.group == model[key], "seed \(seed) round \(round)")
            }
            #expect(proxy.pendingCount == changed.count)
            try proxy.flush()
            #expect(proxy.pendingCount == 0)
            // One transaction per flush, with every pending key: written, or removed when it was
            // stored (a removal of a key never stored changes nothing).
            let changeset = try #require(await changes.next())
            #expect(changeset.changedKeys[CrashItem.collection, default: []] == changed.filter { model[$0] != nil })
            #expect(
                changeset.removedKeys[CrashItem.collection, default: []]
                    == changed.filter { model[$0] == nil && storedBefore.contains($0) }, "seed \(seed) round \(round)")
        }
        let reopened = try Database(path: path)
        let stored = try await reopened.read { tx in try tx.readAll(CrashItem.self) }
        #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.group) }) == model, "seed \(seed)")
    }

    /// Without a flush, the batch is written `delay` after the first pending write.
    @Test func theBatchIsWrittenAfterTheDelay() async throws {
        let path = try makeTemporaryFolder() + "/delayed.trove"
        let database = try Database(path: path)
        let proxy = WriteBehindProxy<CrashItem>(database: database, delay: .milliseconds(50))
        proxy.write(CrashWorkload.item(id: "a", group: 1, salt: 1))
        proxy.write(CrashWorkload.item(id: "b", group: 2, salt: 1))
        // Written back while the test waits (a loaded machine may take a while to run the task).
        let deadline = ContinuousClock.now + .seconds(120)
        var stored: [String] = []
        while stored.count < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            stored = try await database.read { tx in try tx.readAll(CrashItem.self).map(\.id).sorted() }
        }
        #expect(stored == ["a", "b"])
    }
}
