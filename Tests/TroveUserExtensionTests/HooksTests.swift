import Foundation
import Synchronization
import Testing
import Trove
import TroveTestSupport

/// Hooks run inside the write transaction, before and after each write of the collections they
/// allow, from every kind of write: their events are exactly those a model of the writes expects.
@Suite struct HooksTests {
    /// What the hooks heard, in order.
    final class Heard: Sendable {
        let events = Mutex<[String]>([])

        func take() -> [String] {
            events.withLock { events in
                defer { events.removeAll() }
                return events
            }
        }
    }

    static func describe(_ event: HookEvent) -> String {
        let moment = event.moment == .before ? "before" : "after"
        let inserted = event.inserted.map { $0 ? " new" : " old" } ?? ""
        let typed = event.item is CrashItem ? " typed" : ""
        return "\(moment) \(event.change) \(event.collection ?? "*")/\(event.key ?? "*")\(inserted)\(typed)"
    }

    /// Random writes of two collections, one of which the hooks allow: the events heard are,
    /// write after write, those the model of the stored keys expects; after `removeHooks`, none.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func eventsMatchAModelOfTheWrites(seed: UInt64) throws {
        let database = try Database(path: try makeTemporaryFolder() + "/hooks.trove")
        let heard = Heard()
        database.addHooks(
            Hooks("log", collections: [CrashItem.collection]) { event, _ in
                heard.events.withLock { $0.append(HooksTests.describe(event)) }
            })
        let connection = try database.newConnection()
        var random = SeededGenerator(seed: seed)
        var stored: Set<String> = []
        let collection = CrashItem.collection
        for step in 0..<150 {
            let key = "k\(random.next() % 8)"
            var expected: [String] = []
            try connection.write { tx in
                switch random.next() % 9 {
                case 0, 1:
                    try tx.write(CrashWorkload.item(id: key, group: step, salt: 1))
                    expected = [
                        "before write \(collection)/\(key) typed",
                        "after write \(collection)/\(key) \(stored.contains(key) ? "old" : "new") typed",
                    ]
                    stored.insert(key)
                case 2:
                    try tx.setData(Data([1, 2]), forKey: key, in: collection)
                    expected = [
                        "before write \(collection)/\(key)",
                        "after write \(collection)/\(key) \(stored.contains(key) ? "old" : "new")",
                    ]
                    stored.insert(key)
                case 3:
                    try tx.replaceMetadata(Data([3]), forKey: key, in: collection)
                    if stored.contains(key) {
                        expected = ["before metadataUpdate \(collection)/\(key)", "after metadataUpdate \(collection)/\(key)"]
                    }
                case 4:
                    try tx.touch(key: key, in: collection)
                    if stored.contains(key) {
                        expected = ["before touch \(collection)/\(key)", "after touch \(collection)/\(key)"]
                    }
                case 5:
                    let other = "k\(random.next() % 8)"
                    _ = try tx.removeItems(forKeys: [key, other, key], in: collection)
                    let present = [key, other].reduce(into: [String]()) { list, key in
                        if stored.contains(key), !list.contains(key) { list.append(key) }
                    }
                    expected =
                        present.map { "before removal \(collection)/\($0)" }
                        + present.map { "after removal \(collection)/\($0)" }
                    stored.subtract(present)
                case 6:
                    // Another collection: not heard.
                    try tx.setData(Data([9]), forKey: key, in: "unheard")
                case 7:
                    if try tx.removeAllItems(in: collection) > 0 {
                        expected = ["before removalOfAll \(collection)/*", "after removalOfAll \(collection)/*"]
                    } else {
                        expected = ["before removalOfAll \(collection)/*"]
                    }
                    stored.removeAll()
                default:
                    let removed = try tx.removeAllItems()
                    expected = ["before removalOfAll */*"] + (removed > 0 ? ["after removalOfAll */*"] : [])
                    stored.removeAll()
                }
            }
            #expect(heard.take() == expected, "seed \(seed) step \(step)")
        }
        #expect(database.removeHooks(named: "log"))
        try connection.write { tx in try tx.write(CrashWorkload.item(id: "after", group: 1, salt: 1)) }
        #expect(heard.take().isEmpty)
    }

    /// A hook writes in the transaction that calls it: its write commits and rolls back with the
    /// item's; a hook that throws fails the transaction and nothing of it is stored.
    @Test func aHookWritesInTheTransactionAndCanFailIt() throws {
        let database = try Database(path: try makeTemporaryFolder() + "/audit.trove")
        database.addHooks(
            Hooks("audit", collections: [CrashItem.collection]) { event, tx in
                guard event.moment == .after, event.change == .write, let key = event.key else { return }
                if key == "refused" { throw Refused() }
                try tx.setData(Data(key.utf8), forKey: key, in: "audit")
            })
        let connection = try database.newConnection()
        try connection.write { tx in try tx.write(CrashWorkload.item(id: "a", group: 1, salt: 1)) }
        #expect(try connection.read { tx in try tx.data(forKey: "a", in: "audit") } == Data("a".utf8))

        struct RolledBack: Error {}
        #expect(throws: RolledBack.self) {
            try connection.write { tx in
                try tx.write(CrashWorkload.item(id: "b", group: 1, salt: 1))
                throw RolledBack()
            }
        }
        #expect(try connection.read { tx in try tx.data(forKey: "b", in: "audit") } == nil)

        let error = #expect(throws: TroveError.self) {
            try connection.write { tx in
                try tx.write(CrashWorkload.item(id: "c", group: 1, salt: 1))
                try? tx.write(CrashWorkload.item(id: "refused", group: 1, salt: 1))
            }
        }
        #expect(error?.extensionName == "audit")
        #expect(try connection.read { tx in try tx.read(CrashItem.self, key: "c") } == nil)
        #expect(try connection.read { tx in try tx.data(forKey: "c", in: "audit") } == nil)
    }

    struct Refused: Error {}
}
