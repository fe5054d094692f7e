import Foundation
import Testing
import Trove
import TroveTestSupport

/// A registered filtered view follows the view it filters: rebuilt over a new definition of it,
/// unregistered with it.
struct FilteredViewFollowsParentTests {
    /// The first definition of the parent: members with fewer than 8 visits, by city, by score.
    static func parent(version: Int, storage: View<Member>.Storage) -> View<Member> {
        version == 1
            ? ViewTestViews.byCity(storage: storage)
            : View<Member>(
                "members_by_city", version: version, storage: storage,
                filter: { _, metadata in (metadata?.visits ?? 0) < 4 },
                grouping: { member, _ in member.age.isMultiple(of: 2) ? "even" : "odd" },
                sortedBy: [.descending(\.score)])
    }

    static func active(of parent: View<Member>) -> View<Member> {
        parent.filtered("members_active") { member, _ in member.active }
    }

    static func members(count: Int) -> [Member] {
        var random = SplitMix64(seed: 0xF0110)
        return (0..<count).map { index in
            Member(
                id: "m\(index)", age: Int.random(in: 0..<90, using: &random), city: ["a", "b"].randomElement(using: &random)!,
                score: Double(Int.random(in: 0..<20, using: &random)), active: Bool.random(using: &random),
                metadata: MemberStats(visits: Int.random(in: 0..<10, using: &random)))
        }
    }

    /// What the second parent's active members are, by brute force.
    static func expectedActiveOfSecond(_ members: [Member]) -> [String: [String]] {
        var groups: [String: [Member]] = [:]
        for member in members where (member.metadata?.visits ?? 0) < 4 && member.active {
            groups[member.age.isMultiple(of: 2) ? "even" : "odd", default: []].append(member)
        }
        return groups.mapValues { $0.sorted { ($1.score, $0.id) < ($0.score, $1.id) }.map(\.id) }
    }

    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func aNewParentRebuildsTheFilteredViewOverIt(storage: View<Member>.Storage) throws {
        let first = Self.parent(version: 1, storage: storage)
        let database = try makeTemporaryDatabase(
            extensions: [first.databaseExtension, Self.active(of: first).databaseExtension])
        let members = Self.members(count: 300)
        try database.write { tx in try tx.write(members) }
        #expect(
            try database.read { tx in try ViewTestViews.contents(Self.active(of: first), tx) }
                == ViewTestViews.expected(members, filter: \.active))

        // Only the parent is registered again; the filtered view follows it.
        let second = Self.parent(version: 2, storage: storage)
        try database.register(second.databaseExtension)
        let expected = Self.expectedActiveOfSecond(members)
        #expect(try database.read { tx in try ViewTestViews.contents(Self.active(of: second), tx) } == expected)
        // Writes after the change reach it as the new definition says.
        let added = Member(id: "new", age: 4, city: "a", score: 100, active: true, metadata: MemberStats(visits: 1))
        try database.write { tx in try tx.write(added) }
        #expect(
            try database.read { tx in try ViewTestViews.contents(Self.active(of: second), tx) }
                == Self.expectedActiveOfSecond(members + [added]))
        // The value made from the old parent reads the old definition, which is gone.
        #expect(throws: TroveError.self) {
            try database.read { tx in try ViewTestViews.contents(Self.active(of: first), tx) }
        }
    }

    @Test func aChainOfFilteredViewsFollowsAndGoesWithItsRoot() throws {
        let first = Self.parent(version: 1, storage: .persistent)
        let active = Self.active(of: first)
        let rich = active.filtered("members_rich") { member, _ in member.score >= 10 }
        let database = try makeTemporaryDatabase(extensions: [first.databaseExtension, active.databaseExtension, rich.databaseExtension])
        let members = Self.members(count: 200)
        try database.write { tx in try tx.write(members) }

        let second = Self.parent(version: 2, storage: .persistent)
        try database.register(second.databaseExtension)
        let richOfSecond = Self.active(of: second).filtered("members_rich") { member, _ in member.score >= 10 }
        let expected = Self.expectedActiveOfSecond(members).mapValues { keys in
            keys.filter { key in members.first { $0.id == key }!.score >= 10 }
        }.filter { !$0.value.isEmpty }
        #expect(try database.read { tx in try ViewTestViews.contents(richOfSecond, tx) } == expected)

        #expect(try database.unregister("members_by_city"))
        #expect(database.registeredExtensions.isEmpty)
        // Gone from the file too: another database on it sees no orphan.
        let other = try Database(path: database.path)
        #expect(other.orphanedExtensions.isEmpty)
    }

    /// Two filtered views made of each other, registered together: refused, naming one of them
    /// (it recursed without end).
    @Test func filteredViewsOfEachOtherAreRefused() throws {
        let first = Self.parent(version: 1, storage: .persistent)
        let b = first.filtered("view_b") { member, _ in member.active }
        let a = b.filtered("members_by_city") { member, _ in member.score >= 10 }
        let error = #expect(throws: TroveError.self) {
            try makeTemporaryDatabase(extensions: [a.databaseExtension, b.databaseExtension])
        }
        #expect(error?.code == .extensionFailed)
        #expect(error?.message.contains("'members_by_city'") == true)
        let shown = internalsShown(in: error?.description ?? "")
        #expect(shown.isEmpty)
    }

    @Test func aFilteredViewRegisteredBeforeItsParentFollowsItOnceRegistered() throws {
        let first = Self.parent(version: 1, storage: .persistent)
        let database = try makeTemporaryDatabase(extensions: [Self.active(of: first).databaseExtension])
        let members = Self.members(count: 150)
        try database.write { tx in try tx.write(members) }
        #expect(
            try database.read { tx in try ViewTestViews.contents(Self.active(of: first), tx) }
                == ViewTestViews.expected(members, filter: \.active))
        let second = Self.parent(version: 2, storage: .persistent)
        try database.register(second.databaseExtension)
        #expect(
            try database.read { tx in try ViewTestViews.contents(Self.active(of: second), tx) }
                == Self.expectedActiveOfSecond(members))
        #expect(database.registeredExtensions == ["members_active", "members_by_city"])
    }
}
