import Foundation
import Testing
import Trove
import TroveTestSupport

struct ViewLifecycleTests {
    private static let members = (0..<200).map {
        Member(id: "m\($0)", age: $0, city: ["a", "b", "c"][$0 % 3], score: Double($0 % 17), active: $0 % 2 == 0)
    }

    private func withFolder(_ body: (String) throws -> Void) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body((folder as NSString).appendingPathComponent("views.trove"))
    }

    /// A reopen with the same definition does no work: registering says `.unchanged`, and the
    /// pages are read as they are (a view whose closures now give other answers still shows the
    /// stored order, which only a rebuild would change).
    @Test func reopenDoesNotRebuildAndANewVersionDoes() throws {
        try withFolder { path in
            do {
                let database = try Database(path: path)
                try database.newConnection().write(Self.members)
                #expect(try database.register(ViewTestViews.byCity.databaseExtension) == .created)
            }
            // Same name and version, another sort: not rebuilt, so the stored order is kept.
            let reversed = View<Member>(
                "members_by_city", filter: { _, metadata in (metadata?.visits ?? 0) < 8 },
                grouping: { member, _ in member.city }, sortedBy: [.descending(\.score)])
            let reopened = try Database(path: path)
            #expect(try reopened.register(reversed.databaseExtension) == .unchanged)
            let stored = try reopened.newConnection().read { tx in try reversed.read(tx).keys(in: "a") }
            let all = try reopened.newConnection().read { tx in try tx.readAll(Member.self) }
            #expect(stored == ViewTestViews.expected(all, filter: { _ in true })["a"])

            let version2 = View<Member>(
                "members_by_city", version: 2, filter: { _, metadata in (metadata?.visits ?? 0) < 8 },
                grouping: { member, _ in member.city }, sortedBy: [.descending(\.score)])
            #expect(try reopened.register(version2.databaseExtension) == .rebuilt)
            let rebuilt = try reopened.newConnection().read { tx in try version2.read(tx).keys(in: "a") }
            let expected = all.filter { $0.city == "a" }.sorted { ($1.score, $0.id) < ($0.score, $1.id) }.map(\.id)
            #expect(rebuilt == expected)
            // The old definition can no longer be read.
            #expect(throws: TroveError.self) {
                try reopened.newConnection().read { tx in try reversed.read(tx).count() }
            }
        }
    }

    /// A build writes pages two thirds full, so that the first insert into a page does not
    /// split it (a split rewrites the map rows of the rows it moves).
    @Test func aBuildLeavesRoomInItsPages() throws {
        try withFolder { path in
            let members = (0..<300).map { Member(id: "k\($0)", age: $0, city: "a", score: Double($0)) }
            let database = try Database(path: path)
            let connection = try database.newConnection()
            try connection.write(members)
            try database.register(ViewTestViews.byCity.databaseExtension)
            let counts = try rawQuery(path, "SELECT count FROM trove_ext_members_by_city_pages ORDER BY ord").compactMap { Int($0) }
            #expect(counts.reduce(0, +) == 300)
            #expect(counts.dropLast().allSatisfy { $0 == 33 }, "page sizes after a build: \(counts)")
            // One insert into each page of the build: no page splits.
            try connection.write { tx in
                for index in stride(from: 0, to: 300, by: 33) {
                    try tx.write(Member(id: "n\(index)", age: 0, city: "a", score: Double(index) + 0.5))
                }
            }
            let after = try rawQuery(path, "SELECT count FROM trove_ext_members_by_city_pages ORDER BY ord").compactMap { Int($0) }
            #expect(after.count == counts.count, "pages after one insert into each: \(after)")
            let all = try connection.read { tx in try tx.readAll(Member.self) }
            #expect(try connection.read { tx in try ViewTestViews.contents(ViewTestViews.byCity, tx) } == ViewTestViews.expected(all, filter: { _ in true }))
        }
    }

    /// An item that changes group is a move from its old group and index to its new ones, and
    /// groups appear and go.
    @Test func moveAcrossGroupsAndGroupChanges() async throws {
        let database = try makeTemporaryDatabase(extensions: [ViewTestViews.byCity.databaseExtension])
        let connection = try database.newConnection()
        try await connection.write([
            Member(id: "x", age: 1, city: "a", score: 1), Member(id: "y", age: 1, city: "a", score: 2),
        ])
        var changes = database.changes.makeAsyncIterator()
        try await connection.write(Member(id: "x", age: 1, city: "b", score: 1))
        let next = await changes.next()
        let changeset = try #require(next)
        let viewChanges = try #require(changeset.viewChanges["members_by_city"])
        #expect(viewChanges.groupChanges == [ViewGroupChange(kind: .inserted, group: "b")])
        #expect(
            viewChanges.rowChanges == [
                ViewRowChange(
                    kind: .moved, key: "x", from: ViewIndexPath(group: "a", index: 0),
                    to: ViewIndexPath(group: "b", index: 0), changedParts: .item)
            ])
        try await connection.write(Member(id: "y", age: 1, city: nil, score: 2))
        let second = await changes.next()
        let removal = try #require(second?.viewChanges["members_by_city"])
        #expect(removal.groupChanges == [ViewGroupChange(kind: .removed, group: "a")])
        #expect(removal.rowChanges.map(\.kind) == [.removed])
    }

    /// An update that keeps the item in place is an update, not a move; metadata that takes it
    /// out of the filter removes it.
    @Test func updateInPlaceAndLeavingTheFilter() async throws {
        let database = try makeTemporaryDatabase(extensions: [ViewTestViews.byCity.databaseExtension])
        let connection = try database.newConnection()
        try await connection.write(Self.members)
        var changes = database.changes.makeAsyncIterator()
        try await connection.write(Member(id: "m3", age: 99, city: "a", score: 3, active: false))
        let first = await changes.next()
        let update = try #require(first?.viewChanges["members_by_city"])
        #expect(update.rowChanges.map(\.kind) == [.updated])
        try await connection.write { tx in
            _ = try tx.setMetadata(MemberStats(visits: 9), for: Member.self, key: "m3")
        }
        let second = await changes.next()
        let removal = try #require(second?.viewChanges["members_by_city"])
        #expect(removal.rowChanges.map(\.kind) == [.removed])
        #expect(removal.rowChanges.first?.key == "m3")
    }

    /// A filtered view keeps its parent's groups and order; replacing its filter with a new
    /// version rebuilds it.
    @Test func filteredViewAndReplacedFilter() throws {
        let parent = ViewTestViews.byCity
        let active = ViewTestViews.activeByCity
        let database = try makeTemporaryDatabase(extensions: [parent.databaseExtension, active.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.members)
        try connection.read { tx in
            for group in try parent.read(tx).groups() {
                let all = try parent.read(tx).items(in: group)
                #expect(try active.read(tx).keys(in: group) == all.filter(\.active).map(\.id))
            }
        }
        let young = active.filtered("members_search", version: 1) { member, _ in member.age < 50 }
        try database.register(young.databaseExtension)
        let old = active.filtered("members_search", version: 2) { member, _ in member.age >= 150 }
        #expect(try database.register(old.databaseExtension) == .rebuilt)
        try connection.read { tx in
            let reader = old.read(tx)
            #expect(try reader.count() == Self.members.filter { $0.active && $0.age >= 150 }.count)
            for group in try reader.groups() {
                let parentKeys = try parent.read(tx).items(in: group).filter { $0.active && $0.age >= 150 }.map(\.id)
                #expect(try reader.keys(in: group) == parentKeys)
            }
        }
    }

    /// Reads by index, ranges, positions, first and last, forward and backward enumeration.
    @Test func readsByIndex() throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.members)
        try connection.read { tx in
            let reader = view.read(tx)
            let expected = ViewTestViews.expected(Self.members, filter: { _ in true })
            #expect(try reader.groups() == ["a", "b", "c"])
            #expect(try reader.count() == 200)
            let a = try #require(expected["a"])
            #expect(try reader.count(in: "a") == a.count)
            #expect(try reader.keys(in: "a", range: 10..<60) == Array(a[10..<60]))
            #expect(try reader.key(at: 57, in: "a") == a[57])
            #expect(try reader.first(in: "a")?.id == a.first)
            #expect(try reader.last(in: "a")?.id == a.last)
            #expect(try reader.item(at: a.count, in: "a") == nil)
            #expect(try reader.indexPath(ofKey: a[42]) == ViewIndexPath(group: "a", index: 42))
            var forward: [String] = []
            try reader.enumerate(in: "a") { index, item, _ in
                #expect(a[index] == item.id)
                forward.append(item.id)
            }
            #expect(forward == a)
            var backward: [String] = []
            try reader.enumerate(in: "a", reversed: true) { index, item, stop in
                #expect(a[index] == item.id)
                backward.append(item.id)
                if backward.count == 5 { stop = true }
            }
            #expect(backward == Array(a.reversed().prefix(5)))
        }
    }
}

struct ViewContentsTests {
    /// Diffing two random contents gives changes that turn the old into the new.
    @Test func changesBetweenContentsReplay() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            func randomContents() -> ViewContents {
                var keys: [String: [String]] = [:]
                for key in (0..<30).map({ "k\($0)" }).shuffled(using: &random) where Bool.random(using: &random) {
                    keys[["a", "b", "c"].randomElement(using: &random)!, default: []].append(key)
                }
                return ViewContents(keysByGroup: keys)
            }
            let old = randomContents()
            let new = randomContents()
            let changes = new.changes(since: old)
            #expect(changes.applied(to: old.keysByGroup) == new.keysByGroup)
        }
        let moveOne = ViewContents(keysByGroup: ["a": ["2", "1", "3", "4"]]).changes(
            since: ViewContents(keysByGroup: ["a": ["1", "2", "3", "4"]]))
        #expect(moveOne.rowChanges.count == 1)
    }

    /// The observation of a view yields its contents after a commit that changes it.
    @Test func observationYieldsContents() async throws {
        let database = try makeTemporaryDatabase(extensions: [ViewTestViews.byCity.databaseExtension])
        let connection = try database.newConnection()
        try await connection.write(Member(id: "x", age: 1, city: "a", score: 1))
        var iterator = database.observe(ViewTestViews.byCity).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.keysByGroup == ["a": ["x"]])
        try await connection.write(Member(id: "y", age: 1, city: "a", score: 0))
        let second = try #require(try await iterator.next())
        #expect(second.keysByGroup == ["a": ["y", "x"]])
        #expect(second.changes(since: first!).rowChanges.map(\.kind) == [.inserted])
    }
}
