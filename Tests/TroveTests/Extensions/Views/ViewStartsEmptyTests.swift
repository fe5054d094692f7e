import Foundation
import Testing
import Trove
import TroveTestSupport

/// Views that start empty (`startsEmpty: true`): only the items written after the view was built
/// enter it, checked against a model that remembers which keys were written since.
struct ViewStartsEmptyTests {
    static func recent(storage: View<Member>.Storage, version: Int = 1) -> View<Member> {
        View<Member>(
            "members_recent", version: version, storage: storage, startsEmpty: true,
            filter: { _, metadata in (metadata?.visits ?? 0) < 8 },
            grouping: { member, _ in member.city },
            sortedBy: [.ascending(\.score)])
    }

    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func onlyItemsWrittenAfterTheBuildAreInTheView(storage: View<Member>.Storage) async throws {
        let view = Self.recent(storage: storage)
        let database = try makeTemporaryDatabase()
        var random = SplitMix64(seed: 0x0E_0E57)
        let keys = (0..<150).map { "m\($0)" }
        func randomMember(_ key: String) -> Member {
            Member(
                id: key, age: 1, city: ["a", "b", nil].randomElement(using: &random)!,
                score: Double(Int.random(in: 0..<6, using: &random)),
                metadata: Bool.random(using: &random) ? MemberStats(visits: Int.random(in: 0..<10, using: &random)) : nil)
        }
        // Items stored before the view exists: none of them is in it at first.
        func storeFirstItems() throws {
            try database.write { tx in
                for key in keys.prefix(100) { try tx.write(randomMember(key)) }
            }
        }
        try storeFirstItems()
        try await database.register(view.databaseExtension) { _ in }
        let connection = try database.newConnection()
        var written: Set<String> = []
        var previous: [String: [String]] = [:]
        var changes = database.changes.makeAsyncIterator()
        func read() throws -> (all: [Member], contents: [String: [String]]) {
            try connection.read { tx in (try tx.readAll(Member.self), try ViewTestViews.contents(view, tx)) }
        }
        #expect(try read().contents == [:])

        func commitRandomBatch() throws {
            try connection.write { tx in
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    let key = keys.randomElement(using: &random)!
                    switch Int.random(in: 0..<100, using: &random) {
                    case 0..<45:
                        try tx.write(randomMember(key))
                        written.insert(key)
                    case 45..<60:
                        if try tx.setMetadata(
                            MemberStats(visits: Int.random(in: 0..<10, using: &random)), for: Member.self, key: key)
                        {
                            written.insert(key)
                        }
                    case 60..<75:
                        // A touch reports a row already in the view, and adds none.
                        if try tx.read(Member.self, key: key) != nil { try tx.touch(key: key, in: Member.collection) }
                    case 75..<98:
                        if try tx.remove(Member.self, key: key) { written.remove(key) }
                    default:
                        _ = try tx.removeAll(Member.self)
                        written.removeAll()
                    }
                }
                let key = keys.randomElement(using: &random)!
                try tx.write(randomMember(key))
                written.insert(key)
            }
        }
        for step in 0..<150 {
            try commitRandomBatch()
            let changeset = try #require(await changes.next())
            let (all, current) = try read()
            let expected = ViewTestViews.expected(all.filter { written.contains($0.id) }, filter: { _ in true })
            #expect(current == expected, "step \(step): the view differs from the items written since it was built")
            let replayed = (changeset.viewChanges[view.name] ?? ViewChanges()).applied(to: previous)
            #expect(replayed == current, "step \(step): the changes do not replay")
            if current != expected || replayed != current { return }
            previous = current
        }
        #expect(previous.values.map(\.count).reduce(0, +) > 20, "the run should fill the view")
    }

    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func aNewVersionStartsEmptyAgain(storage: View<Member>.Storage) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = (folder as NSString).appendingPathComponent("db.trove")
        let first = Self.recent(storage: storage)
        let second = Self.recent(storage: storage, version: 2)
        do {
            let database = try Database(path: path, extensions: [first.databaseExtension])
            try database.write { tx in try tx.write(Member(id: "m1", age: 1, city: "a")) }
            #expect(try database.read { tx in try ViewTestViews.contents(first, tx) } == ["a": ["m1"]])
        }
        do {
            let database = try Database(path: path, extensions: [second.databaseExtension])
            #expect(try database.read { tx in try ViewTestViews.contents(second, tx) } == [:])
            try database.write { tx in try tx.write(Member(id: "m2", age: 1, city: "b")) }
        }
        // The same definition, opened again: a persistent view keeps its rows; an in-memory one
        // is built again, empty.
        let database = try Database(path: path, extensions: [second.databaseExtension])
        let contents = try database.read { tx in try ViewTestViews.contents(second, tx) }
        #expect(contents == (storage == .persistent ? ["b": ["m2"]] : [:]))
    }

    @Test func aViewThatStartsEmptyIsNotTheViewThatDoesNot() async throws {
        let database = try makeTemporaryDatabase()
        try await database.write { tx in try tx.write(Member(id: "m1", age: 1, city: "a")) }
        let full = ViewTestViews.byCity(storage: .persistent)
        try await database.register(full.databaseExtension) { _ in }
        #expect(try await database.read { tx in try ViewTestViews.contents(full, tx) } == ["a": ["m1"]])
        // The same name and version, starting empty: another definition, so a rebuild.
        let empty = View<Member>(
            full.name, startsEmpty: true, filter: { _, metadata in (metadata?.visits ?? 0) < 8 },
            grouping: { member, _ in member.city }, sortedBy: [.ascending(\.score)])
        try await database.register(empty.databaseExtension) { _ in }
        #expect(try await database.read { tx in try ViewTestViews.contents(empty, tx) } == [:])
        let filtered = empty.filtered("members_recent_active") { member, _ in member.active }
        #expect(filtered.startsEmpty)
    }
}
