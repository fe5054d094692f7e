import Foundation
import Testing
import TroveTestSupport

@testable import Trove

/// The rule of a view enumeration whose body writes (``ViewReader/enumerate(in:reversed:_:)``),
/// against a model that computes it by brute force: after every visit, the next row is the first
/// row of the group, in the view's order as it is now, that comes after the last item handed out
/// (as it was then) and was not handed out before.
struct ViewEnumerationModelTests {
    /// Random views, random enumerations (forward and reversed) whose bodies insert, update,
    /// move and remove rows before, at and after the position, in the same group and in others,
    /// in bursts that split and merge pages; each visit is checked against the model, on both
    /// storages. Set `TROVE_SEED` to replay one seed.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory], [UInt64(1), 2, 3, 4, 0xC0FFEE])
    func writesInTheBodyFollowTheRule(storage: View<Member>.Storage, seed: UInt64) throws {
        let seed = ProcessInfo.processInfo.environment["TROVE_SEED"].flatMap { UInt64($0) } ?? seed
        print("ViewEnumerationModelTests: seed \(seed), storage \(storage)")
        let pages = try ViewEnumerationModel.run(storage: storage, seed: seed, enumerations: 6)
        #expect(pages.created > 0, "no page split or group was created (seed \(seed))")
        #expect(pages.deleted > 0, "no page was merged or emptied (seed \(seed))")
    }

    /// Enumerations without writes visit the rows of a group in order, from the snapshot, with
    /// their indexes, forward and reversed, and stop where asked.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func withoutWritesEveryRowInOrder(storage: View<Member>.Storage) throws {
        let definition = ViewEnumerationModel.definitions[0]
        let view = definition.view(storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        var random = SplitMix64(seed: 7)
        let members = (0..<260).map { ViewEnumerationModel.randomMember("m\($0)", random: &random) }
        try connection.write(members)
        let model = ViewEnumerationModel(
            items: Dictionary(uniqueKeysWithValues: members.map { ($0.id, $0) }), definition: definition)
        try connection.read { tx in
            for group in try view.read(tx).groups() {
                let expected = model.rows(of: group)
                var forward: [(Int, String)] = []
                try view.read(tx).enumerate(in: group) { index, member, _ in forward.append((index, member.id)) }
                #expect(forward.map(\.0) == Array(expected.indices))
                #expect(forward.map(\.1) == expected.map(\.id))
                var backward: [(Int, String)] = []
                try view.read(tx).enumerate(in: group, reversed: true) { index, member, stop in
                    backward.append((index, member.id))
                    if backward.count == 60 { stop = true }
                }
                #expect(backward.map(\.0) == Array(expected.indices.reversed().prefix(60)))
                #expect(backward.map(\.1) == expected.reversed().prefix(60).map(\.id))
            }
        }
    }
}

/// The brute-force model of a view over ``Member`` and of the rule its enumerations follow.
struct ViewEnumerationModel {
    /// A view's definition, as the view takes it and as the model computes it.
    struct Definition: Sendable {
        var name: String
        var filter: @Sendable (Member) -> Bool
        var group: @Sendable (Member) -> String?
        var criteria: [ViewSort<Member>]
        /// The order of `criteria`, written out for the model.
        var sortsBefore: @Sendable (Member, Member) -> Bool

        func view(storage: View<Member>.Storage) -> View<Member> {
            let filter = filter
            let group = group
            return View<Member>(
                name, storage: storage, filter: { member, _ in filter(member) },
                grouping: { member, _ in group(member) },
                sortedBy: criteria)
        }
    }

    /// Views with many ties (scores 0 to 5), grouped and filtered in several ways, so that writes
    /// move rows within a group, between groups and in and out of the view.
    static let definitions: [Definition] = [
        Definition(
            name: "by_city_score", filter: { _ in true }, group: { $0.city }, criteria: [.ascending(\.score)],
            sortsBefore: { $0.score < $1.score }),
        Definition(
            name: "active_by_city", filter: { $0.active }, group: { $0.city }, criteria: [.descending(\.score)],
            sortsBefore: { $0.score > $1.score }),
        Definition(
            name: "few_visits", filter: { ($0.metadata?.visits ?? 0) < 8 }, group: { _ in "all" },
            criteria: [.ascending(\.age), .descending(\.score)],
            sortsBefore: { ($0.age, -$0.score) < ($1.age, -$1.score) }),
        Definition(
            name: "by_age_class", filter: { _ in true }, group: { "\($0.age % 3)" }, criteria: [],
            sortsBefore: { _, _ in false }),
    ]

    /// A view drawn at random: a filter, a grouping and a sort out of a few of each.
    static func randomDefinition(random: inout SplitMix64) -> Definition {
        let filters: [(String, @Sendable (Member) -> Bool)] = [
            ("all", { _ in true }), ("active", { $0.active }), ("few_visits", { ($0.metadata?.visits ?? 0) < 8 }),
        ]
        let groupings: [(String, @Sendable (Member) -> String?)] = [
            ("city", { $0.city }), ("one", { _ in "all" }), ("age_class", { "\($0.age % 3)" }),
        ]
        let sorts: [(String, [ViewSort<Member>], @Sendable (Member, Member) -> Bool)] = [
            ("score", [.ascending(\.score)], { $0.score < $1.score }),
            ("score_down", [.descending(\.score)], { $0.score > $1.score }),
            ("age_score", [.ascending(\.age), .descending(\.score)], { ($0.age, -$0.score) < ($1.age, -$1.score) }),
            ("key", [], { _, _ in false }),
            (
                "coarse", [.by { Int($0.score) % 3 < Int($1.score) % 3 }],
                { Int($0.score) % 3 < Int($1.score) % 3 }
            ),
        ]
        let filter = filters.randomElement(using: &random)!
        let grouping = groupings.randomElement(using: &random)!
        let sort = sorts.randomElement(using: &random)!
        return Definition(
            name: "\(filter.0)_by_\(grouping.0)_\(sort.0)", filter: filter.1, group: grouping.1, criteria: sort.1,
            sortsBefore: sort.2)
    }

    static let cities: [String?] = ["a", "b", "c", nil]

    var items: [String: Member]
    let definition: Definition

    /// The rows of `group` in the view's order: the sort, then the key.
    func rows(of group: String) -> [Member] {
        items.values.filter { definition.filter($0) && definition.group($0) == group }
            .sorted { lhs, rhs in
                if definition.sortsBefore(lhs, rhs) { return true }
                if definition.sortsBefore(rhs, lhs) { return false }
                return lhs.id < rhs.id
            }
    }

    /// The keys of every group, in order.
    func contents() -> [String: [String]] {
        var groups: Set<String> = []
        for member in items.values where definition.filter(member) {
            if let group = definition.group(member) { groups.insert(group) }
        }
        return Dictionary(uniqueKeysWithValues: groups.map { ($0, rows(of: $0).map(\.id)) })
    }

    /// Whether `member` comes after `position` in the direction of the walk.
    func isAhead(_ member: Member, of position: Member, reversed: Bool) -> Bool {
        func before(_ lhs: Member, _ rhs: Member) -> Bool {
            if definition.sortsBefore(lhs, rhs) { return true }
            if definition.sortsBefore(rhs, lhs) { return false }
            return lhs.id < rhs.id
        }
        return reversed ? before(member, position) : before(position, member)
    }

    /// The row the rule visits next: the first of the group, in the direction of the walk, that
    /// comes after `position` and is not in `visited`, with its index in the group now.
    func next(in group: String, reversed: Bool, after position: Member?, visited: Set<String>) -> (
        index: Int, member: Member
    )? {
        let rows = rows(of: group)
        let order = reversed ? Array(rows.indices.reversed()) : Array(rows.indices)
        for index in order {
            let member = rows[index]
            if visited.contains(member.id) { continue }
            if let position, !isAhead(member, of: position, reversed: reversed) { continue }
            return (index, member)
        }
        return nil
    }

    static func randomMember(_ key: String, random: inout SplitMix64, city: String?? = nil) -> Member {
        Member(
            id: key, age: Int.random(in: 0..<40, using: &random),
            city: city ?? cities.randomElement(using: &random)!, score: Double(Int.random(in: 0..<6, using: &random)),
            active: Int.random(in: 0..<4, using: &random) != 0,
            metadata: Bool.random(using: &random) ? MemberStats(visits: Int.random(in: 0..<10, using: &random)) : nil)
    }

    /// How often pages were created and deleted in a run: splits and merges happened.
    struct PageCounts {
        var created = 0
        var deleted = 0
    }

    /// Runs `enumerations` enumerations of random views over random members, each in a write
    /// transaction (committed or rolled back at random), checking each visit against the model
    /// and the contents after each transaction.
    ///
    /// - Returns: How many pages the writes created and deleted.
    static func run(storage: View<Member>.Storage, seed: UInt64, enumerations: Int) throws -> PageCounts {
        var random = SplitMix64(seed: seed)
        let definition = randomDefinition(random: &random)
        let view = definition.view(storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        let initial = (0..<Int.random(in: 250...500, using: &random)).map { randomMember("m\($0)", random: &random) }
        try connection.write(initial)
        var model = ViewEnumerationModel(
            items: Dictionary(uniqueKeysWithValues: initial.map { ($0.id, $0) }), definition: definition)
        var counts = PageCounts()
        var nextKey = 0
        let context = "seed \(seed), storage \(storage), view \(definition.name)"

        for run in 0..<enumerations {
            let groups = model.contents().keys.sorted()
            guard let group = groups.randomElement(using: &random) else { break }
            let reversed = Bool.random(using: &random)
            let before = model
            let rollBack = Int.random(in: 0..<4, using: &random) == 0
            var failed = false
            do {
                try connection.write { tx in
                    let pagesBefore = try pageIDs(view, tx)
                    var position: Member?
                    var visited: Set<String> = []
                    var stopped = false
                    try view.read(tx).enumerate(in: group, reversed: reversed) { index, member, stop in
                        let expected = model.next(in: group, reversed: reversed, after: position, visited: visited)
                        guard let expected, expected.index == index, expected.member == member else {
                            Issue.record(
                                "\(context), enumeration \(run) of '\(group)'\(reversed ? " reversed" : ""): visited \(member.id) at \(index), the rule gives \(expected.map { "\($0.member.id) at \($0.index)" } ?? "nothing") after \(visited.count) visits"
                            )
                            failed = true
                            stop = true
                            return
                        }
                        position = member
                        visited.insert(member.id)
                        try writeAtRandom(
                            tx, model: &model, random: &random, group: group, reversed: reversed, current: member,
                            nextKey: &nextKey)
                        if Int.random(in: 0..<500, using: &random) == 0 {
                            stop = true
                            stopped = true
                        }
                    }
                    if !failed && !stopped {
                        let missed = model.next(in: group, reversed: reversed, after: position, visited: visited)
                        #expect(
                            missed == nil,
                            "\(context), enumeration \(run) of '\(group)': ended before \(missed?.member.id ?? "") at \(missed?.index ?? -1)"
                        )
                        if missed != nil { failed = true }
                    }
                    let pagesAfter = try pageIDs(view, tx)
                    counts.created += pagesAfter.subtracting(pagesBefore).count
                    counts.deleted += pagesBefore.subtracting(pagesAfter).count
                    if rollBack { throw RollBack() }
                }
            } catch is RollBack {
                model = before
            }
            if failed { break }
            let contents = try connection.read { tx in try ViewTestViews.contents(view, tx) }
            #expect(
                contents == model.contents(), "\(context): the view after enumeration \(run) differs from the model")
        }
        return counts
    }

    private struct RollBack: Error {}

    /// The ids of every page of `view` now.
    static func pageIDs(_ view: View<Member>, _ tx: ReadTransaction) throws -> Set<Int64> {
        let source = try view.pageSource(in: tx)
        var ids: Set<Int64> = []
        for (group, _) in try source.groupCounts() {
            for page in try source.groupPages(group) { ids.insert(page.id) }
        }
        return ids
    }

    /// Zero to three random writes, mirrored in the model: the current row updated or removed;
    /// rows after or before the position updated or removed; new rows; rows moved in from other
    /// groups; and now and then a burst of 20 to 40 rows inserted next to each other, or 10 to 30
    /// consecutive rows removed, so that pages split and merge.
    static func writeAtRandom(
        _ tx: ReadWriteTransaction, model: inout ViewEnumerationModel, random: inout SplitMix64, group: String,
        reversed: Bool, current: Member, nextKey: inout Int
    ) throws {
        func write(_ member: Member) throws {
            try tx.write(member)
            model.items[member.id] = member
        }
        func remove(_ key: String) throws {
            _ = try tx.remove(Member.self, key: key)
            model.items[key] = nil
        }
        func changed(_ member: Member) -> Member {
            let keepsCity = Bool.random(using: &random)
            return randomMember(member.id, random: &random, city: keepsCity ? .some(member.city) : .none)
        }
        func newKey() -> String {
            nextKey += 1
            return "n\(nextKey)"
        }
        let rows = model.rows(of: group)
        let here = rows.firstIndex { $0.id == current.id }
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<12:
                if let now = model.items[current.id] { try write(changed(now)) }
            case 12..<18:
                try remove(current.id)
            case 18..<36:
                // A row after the position (or any row of the group).
                if let row = rows.randomElement(using: &random), let now = model.items[row.id] {
                    try write(changed(now))
                }
            case 36..<44:
                // A row before the position, moved anywhere (after it too).
                if let here, here > 0 {
                    let row = rows[
                        reversed
                            ? Int.random(in: here..<rows.count, using: &random)
                            : Int.random(in: 0..<here, using: &random)]
                    if let now = model.items[row.id] { try write(changed(now)) }
                }
            case 44..<58:
                let sameCity = Bool.random(using: &random)
                try write(randomMember(newKey(), random: &random, city: sameCity ? .some(current.city) : .none))
            case 58..<70:
                if let key = model.items.keys.randomElement(using: &random) { try remove(key) }
            case 70..<80:
                // A row of another group moved into this one (or out of the view).
                if let key = model.items.keys.randomElement(using: &random), var member = model.items[key] {
                    member.city = current.city
                    member.age = current.age + Int.random(in: -1...1, using: &random)
                    try write(member)
                }
            case 80..<86:
                if let key = model.items.keys.randomElement(using: &random), var member = model.items[key] {
                    let metadata =
                        Bool.random(using: &random) ? MemberStats(visits: Int.random(in: 0..<10, using: &random)) : nil
                    _ = try tx.setMetadata(metadata, for: Member.self, key: key)
                    member.metadata = metadata
                    model.items[key] = member
                }
            case 86..<88:
                try tx.touch(key: current.id, in: Member.collection)
            case 88..<94:
                // A burst of rows that sort next to each other: the same values, adjacent keys.
                nextKey += 1
                var template = randomMember("", random: &random, city: current.city)
                template.age = current.age
                template.score = current.score
                for offset in 0..<Int.random(in: 20...40, using: &random) {
                    template.id = String(format: "b%05d-%02d", nextKey, offset)
                    try write(template)
                }
            default:
                // Consecutive rows removed, after the position or around it.
                guard !rows.isEmpty else { continue }
                let start = Int.random(in: 0..<rows.count, using: &random)
                for row in rows[start..<Swift.min(rows.count, start + Int.random(in: 10...30, using: &random))] {
                    try remove(row.id)
                }
            }
        }
    }
}
