import Foundation
import Testing
import Trove
import TroveTestSupport

/// A registered view's grouping or sort changed inside a write transaction
/// (``ReadWriteTransaction/redefine(_:)``), against a brute-force model.
struct ViewRedefinitionTests {
    static let name = "members_redefined"

    /// One definition of the view: a filter, a grouping and a sort out of a few.
    struct Spec: Equatable, CustomStringConvertible {
        var filter: Int
        var grouping: Int
        var sort: Int

        static let filterCount = 2
        static let groupingCount = 5
        static let sortCount = 6

        var description: String { "filter \(filter) grouping \(grouping) sort \(sort)" }

        static func random(using random: inout SplitMix64) -> Spec {
            Spec(
                filter: Int.random(in: 0..<filterCount, using: &random),
                grouping: Int.random(in: 0..<groupingCount, using: &random),
                sort: Int.random(in: 0..<sortCount, using: &random))
        }

        static func accepts(_ filter: Int, _ member: Member) -> Bool {
            filter == 0 ? (member.metadata?.visits ?? 0) < 8 : true
        }

        static func group(_ grouping: Int, _ member: Member) -> String? {
            switch grouping {
            case 0: member.city
            case 1: member.age.isMultiple(of: 2) ? "even" : "odd"
            case 2: member.active ? "on" : "off"
            case 3: "all"
            default: member.score < 5 ? nil : member.city
            }
        }

        static func inOrder(_ sort: Int, _ lhs: Member, _ rhs: Member) -> Bool {
            switch sort {
            case 0: lhs.score < rhs.score
            case 1: lhs.score > rhs.score
            case 2: lhs.age < rhs.age
            case 3: lhs.age < rhs.age || (lhs.age == rhs.age && lhs.score > rhs.score)
            case 4: false
            default: lhs.age > rhs.age
            }
        }

        func view(version: Int, storage: View<Member>.Storage) -> View<Member> {
            let (filter, grouping, sort) = (filter, grouping, sort)
            return View<Member>(
                ViewRedefinitionTests.name, version: version, storage: storage,
                filter: { member, _ in Spec.accepts(filter, member) },
                grouping: { member, _ in Spec.group(grouping, member) },
                areInIncreasingOrder: { Spec.inOrder(sort, $0, $1) })
        }

        /// What the definition gives for `members`, by brute force: keys by group, sorted with
        /// ties broken by key.
        func expected(_ members: [String: Member]) -> [String: [String]] {
            var groups: [String: [Member]] = [:]
            for member in members.values where Spec.accepts(filter, member) {
                if let group = Spec.group(grouping, member) { groups[group, default: []].append(member) }
            }
            return groups.mapValues { members in
                members.sorted { lhs, rhs in
                    if Spec.inOrder(sort, lhs, rhs) { return true }
                    if Spec.inOrder(sort, rhs, lhs) { return false }
                    return lhs.id < rhs.id
                }.map(\.id)
            }
        }
    }

    static func randomMember(_ key: String, using random: inout SplitMix64) -> Member {
        Member(
            id: key, age: Int.random(in: 0..<30, using: &random),
            city: ["a", "b", "c", nil].randomElement(using: &random)!,
            score: Double(Int.random(in: 0..<10, using: &random)), active: Bool.random(using: &random),
            metadata: MemberStats(visits: Int.random(in: 0..<10, using: &random)))
    }

    /// The row changes a re-sort from `old` to `new` needs at least, by brute force: rows that
    /// enter are inserts, rows that leave are removals, rows that change group are moves, and
    /// in a group the rows outside a longest run that kept its relative order are moves.
    static func minimalCounts(from old: [String: [String]], to new: [String: [String]]) -> [ViewRowChange.Kind: Int] {
        var oldPlace: [String: (group: String, index: Int)] = [:]
        for (group, keys) in old { for (index, key) in keys.enumerated() { oldPlace[key] = (group, index) } }
        let newKeys = Set(new.values.joined())
        var counts: [ViewRowChange.Kind: Int] = [:]
        counts[.removed] = oldPlace.keys.filter { !newKeys.contains($0) }.count
        for (group, keys) in new {
            counts[.inserted, default: 0] += keys.filter { oldPlace[$0] == nil }.count
            counts[.moved, default: 0] += keys.filter { oldPlace[$0].map { $0.group != group } ?? false }.count
            // Longest increasing run of the old indexes, quadratic.
            let indexes = keys.compactMap { key in oldPlace[key].flatMap { $0.group == group ? $0.index : nil } }
            var longest = [Int](repeating: 1, count: indexes.count)
            for later in indexes.indices {
                for earlier in 0..<later where indexes[earlier] < indexes[later] {
                    longest[later] = max(longest[later], longest[earlier] + 1)
                }
            }
            counts[.moved, default: 0] += indexes.count - (longest.max() ?? 0)
        }
        return counts.filter { $0.value > 0 }
    }

    static func contents(_ connection: Connection, _ view: View<Member>) throws -> [String: [String]] {
        try connection.read { tx in try ViewTestViews.contents(view, tx) }
    }

    // MARK: The property

    /// After every commit of a long random run of writes, touches, removals and collection
    /// removals, with redefinitions among them (writes before and after in the same
    /// transaction), (a) the view read through the current definition is the model's, also
    /// inside the transaction right after the redefinition, (b) the reported changes turn the
    /// previous contents into the new ones, (c) a commit that only redefines reports exactly
    /// the fewest changes the re-sort needs, and no update, and (d) the former definition can
    /// no longer be read.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func randomRedefinitionsMatchModelAndChangesReplay(storage: View<Member>.Storage) async throws {
        let (redefinitions, pure) = try await runModel(storage: storage, seed: 0x31_5E50, commits: 250, keyCount: 120)
        #expect(redefinitions > 40 && pure > 10, "the run redefined \(redefinitions) times, \(pure) alone")
    }

    func runModel(storage: View<Member>.Storage, seed: UInt64, commits: Int, keyCount: Int) async throws -> (
        redefinitions: Int, pure: Int
    ) {
        print("ViewRedefinitionTests seed \(seed) storage \(storage)")
        var random = SplitMix64(seed: seed)
        var spec = Spec(filter: 0, grouping: 0, sort: 0)
        var version = 1
        let database = try makeTemporaryDatabase(extensions: [
            spec.view(version: version, storage: storage).databaseExtension
        ])
        let connection = try database.newConnection()
        let reader = try database.newConnection()
        let keys = (0..<keyCount).map { "m\($0)" }
        var members: [String: Member] = [:]
        for key in keys where Bool.random(using: &random) { members[key] = Self.randomMember(key, using: &random) }
        try Self.write(connection) { tx in try tx.write(Array(members.values)) }
        var changes = database.changes.makeAsyncIterator()
        var previous = try Self.contents(reader, spec.view(version: version, storage: storage))
        #expect(previous == spec.expected(members))
        var redefinitions = 0
        var pureRedefinitions = 0

        for step in 0..<commits {
            let redefines = Int.random(in: 0..<3, using: &random) > 0
            let pure = redefines && Int.random(in: 0..<3, using: &random) == 0
            let before = pure ? 0 : Int.random(in: 0...4, using: &random)
            let after = pure ? 0 : Int.random(in: 0...4, using: &random)
            let oldView = spec.view(version: version, storage: storage)
            let newSpec = redefines ? Spec.random(using: &random) : spec
            let newVersion = redefines ? version + 1 : version
            let newView = newSpec.view(version: newVersion, storage: storage)
            var insideTransaction: [String: [String]]?
            var expectedInside: [String: [String]]?
            try Self.write(connection) { tx in
                for _ in 0..<before { try Self.randomWrite(tx, members: &members, keys: keys, random: &random) }
                if redefines {
                    try tx.redefine(newView)
                    insideTransaction = try ViewTestViews.contents(newView, tx)
                    expectedInside = newSpec.expected(members)
                }
                for _ in 0..<after { try Self.randomWrite(tx, members: &members, keys: keys, random: &random) }
                if !pure {
                    // Every commit changes something, so that it has a changeset (a redefinition
                    // alone has one: the file's registry changes).
                    let member = Self.randomMember(keys.randomElement(using: &random)!, using: &random)
                    try tx.write(member)
                    members[member.id] = member
                }
            }
            spec = newSpec
            version = newVersion
            let next = await changes.next()
            let changeset = try #require(next)
            #expect(insideTransaction == expectedInside, "seed \(seed): inside the transaction at commit \(step)")
            let current = try Self.contents(reader, newView)
            let expected = spec.expected(members)
            #expect(current == expected, "seed \(seed): the view at commit \(step) (\(spec)) differs from the model")
            let viewChanges = changeset.viewChanges[Self.name] ?? ViewChanges()
            let replayed = viewChanges.applied(to: previous)
            #expect(
                replayed == current,
                "seed \(seed): replaying the changes at commit \(step) gives \(replayed), not \(current); changes: \(viewChanges.rowChanges)"
            )
            viewChanges.expectGroupChanges(from: previous, to: current, at: "commit \(step)")
            if pure {
                var counts: [ViewRowChange.Kind: Int] = [:]
                for change in viewChanges.rowChanges { counts[change.kind, default: 0] += 1 }
                let minimal = Self.minimalCounts(from: previous, to: current)
                #expect(
                    counts == minimal, "seed \(seed): the re-sort at commit \(step) reported \(counts), not \(minimal)")
                pureRedefinitions += 1
            }
            if redefines {
                redefinitions += 1
                #expect(throws: TroveError.self, "the former definition at commit \(step)") {
                    try Self.contents(reader, oldView)
                }
            }
            if current != expected || replayed != current { break }
            previous = current
        }
        return (redefinitions, pureRedefinitions)
    }

    /// One random write, touch, removal or removal of the collection, applied to the model too.
    static func randomWrite(
        _ tx: ReadWriteTransaction, members: inout [String: Member], keys: [String], random: inout SplitMix64
    ) throws {
        let key = keys.randomElement(using: &random)!
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<55:
            let member = randomMember(key, using: &random)
            try tx.write(member)
            members[key] = member
        case 55..<70:
            if members[key] != nil { try tx.touch(key: key, in: Member.collection) }
        case 70..<98:
            _ = try tx.remove(Member.self, key: key)
            members[key] = nil
        default:
            _ = try tx.removeAll(Member.self)
            members.removeAll()
        }
    }

    // MARK: Minimal changes, by hand

    /// A redefinition whose sort keeps the order reports no row change; one that reverses a
    /// group of distinct scores moves all its rows but one.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func aSortThatKeepsTheOrderReportsNothingAndAReversalMovesAllButOne(storage: View<Member>.Storage) async throws {
        let byScore = View<Member>(
            Self.name, storage: storage, grouping: { _, _ in "all" }, sortedBy: [.ascending(\.score)])
        let database = try makeTemporaryDatabase(extensions: [byScore.databaseExtension])
        let members = (0..<40).map { Member(id: "m\($0)", age: 40 - $0, score: Double($0)) }
        try Self.write(database.newConnection()) { tx in try tx.write(members) }
        var changes = database.changes.makeAsyncIterator()

        // By age descending: the same order, as the ages fall as the scores rise.
        let byAge = View<Member>(
            Self.name, version: 2, storage: storage, grouping: { _, _ in "all" }, sortedBy: [.descending(\.age)])
        try redefine(byAge, in: database)
        let same = await changes.next()
        #expect(try #require(same).viewChanges[Self.name] == nil)

        let reversed = View<Member>(
            Self.name, version: 3, storage: storage, grouping: { _, _ in "all" }, sortedBy: [.descending(\.score)])
        try redefine(reversed, in: database)
        let next = await changes.next()
        let changeset = try #require(next)
        let rowChanges = try #require(changeset.viewChanges[Self.name]).rowChanges
        #expect(rowChanges.count == 39 && rowChanges.allSatisfy { $0.kind == .moved })
        let keys = try Self.contents(database.newConnection(), reversed)["all"]
        #expect(keys == members.reversed().map(\.id))
    }

    private func redefine(_ view: View<Member>, in database: Database) throws {
        try Self.write(database.newConnection()) { tx in try tx.redefine(view) }
    }

    /// A write transaction, from an async function too.
    static func write<T>(_ connection: Connection, _ body: (ReadWriteTransaction) throws -> T) throws -> T {
        try connection.write(body)
    }

    // MARK: Rollback, reopen, followers, errors

    /// A transaction that redefines the view and then throws leaves the former definition
    /// registered, readable and maintained, with its rows as they were.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func aRollbackKeepsTheFormerDefinition(storage: View<Member>.Storage) throws {
        let first = Spec(filter: 0, grouping: 0, sort: 0)
        let second = Spec(filter: 1, grouping: 1, sort: 1)
        let database = try makeTemporaryDatabase(extensions: [
            first.view(version: 1, storage: storage).databaseExtension
        ])
        var random = SplitMix64(seed: 0x31_B0)
        var members: [String: Member] = [:]
        for index in 0..<100 { members["m\(index)"] = Self.randomMember("m\(index)", using: &random) }
        try database.write { tx in try tx.write(Array(members.values)) }
        let connection = try database.newConnection()
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try connection.write { tx in
                try tx.redefine(second.view(version: 2, storage: storage))
                try tx.write(Member(id: "extra", age: 3, city: "a", score: 1))
                throw Abandon()
            }
        }
        #expect(try Self.contents(connection, first.view(version: 1, storage: storage)) == first.expected(members))
        #expect(throws: TroveError.self) { try Self.contents(connection, second.view(version: 2, storage: storage)) }
        // Writes still reach the former definition.
        let added = Member(id: "added", age: 3, city: "b", score: 4)
        try connection.write { tx in try tx.write(added) }
        members["added"] = added
        #expect(try Self.contents(connection, first.view(version: 1, storage: storage)) == first.expected(members))
        #expect(try database.register(first.view(version: 1, storage: storage).databaseExtension) == .unchanged)
    }

    /// The file records the new definition in the transaction: a database opened later with it
    /// finds the view in step and does not rebuild it (persistent storage: an in-memory view is
    /// built at every open).
    @Test func aReopenWithTheNewDefinitionDoesNotRebuild() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = (folder as NSString).appendingPathComponent("redefined.trove")
        let first = Spec(filter: 0, grouping: 0, sort: 0)
        let second = Spec(filter: 1, grouping: 2, sort: 3)
        var random = SplitMix64(seed: 0x31_0FE)
        var members: [String: Member] = [:]
        for index in 0..<150 { members["m\(index)"] = Self.randomMember("m\(index)", using: &random) }
        do {
            let database = try Database(
                path: path, extensions: [first.view(version: 1, storage: .persistent).databaseExtension])
            try database.write { tx in
                try tx.write(Array(members.values))
                try tx.redefine(second.view(version: 2, storage: .persistent))
            }
        }
        let reopened = try Database(path: path)
        #expect(try reopened.register(second.view(version: 2, storage: .persistent).databaseExtension) == .unchanged)
        #expect(
            try Self.contents(reopened.newConnection(), second.view(version: 2, storage: .persistent))
                == second.expected(members))
    }

    /// A registered filtered view of the view is rebuilt over the new definition in the same
    /// transaction, as at a registration of it.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func aFilteredViewFollowsTheRedefinition(storage: View<Member>.Storage) throws {
        let first = Spec(filter: 0, grouping: 0, sort: 0).view(version: 1, storage: storage)
        let second = Spec(filter: 1, grouping: 1, sort: 2)
        func active(_ parent: View<Member>) -> View<Member> {
            parent.filtered("members_redefined_active") { member, _ in member.active }
        }
        let database = try makeTemporaryDatabase(extensions: [first.databaseExtension, active(first).databaseExtension])
        var random = SplitMix64(seed: 0x31_F1)
        var members: [String: Member] = [:]
        for index in 0..<120 { members["m\(index)"] = Self.randomMember("m\(index)", using: &random) }
        try database.write { tx in try tx.write(Array(members.values)) }
        let secondView = second.view(version: 2, storage: storage)
        let inside = try database.write { tx in
            try tx.redefine(secondView)
            let added = Member(id: "added", age: 8, city: "c", score: 9, active: true)
            try tx.write(added)
            members["added"] = added
            return try ViewTestViews.contents(active(secondView), tx)
        }
        let expected = second.expected(members.filter { $0.value.active })
        #expect(inside == expected)
        #expect(try database.read { tx in try ViewTestViews.contents(active(secondView), tx) } == expected)
        #expect(throws: TroveError.self) { try database.read { tx in try ViewTestViews.contents(active(first), tx) } }
    }

    /// A view that starts empty keeps the rows it has, placed again under the new definition:
    /// the items stored before its registration stay out.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func aViewThatStartsEmptyKeepsItsRows(storage: View<Member>.Storage) throws {
        func view(version: Int, grouping: Int, sort: Int) -> View<Member> {
            View<Member>(
                Self.name, version: version, storage: storage, startsEmpty: true,
                grouping: { member, _ in Spec.group(grouping, member) },
                areInIncreasingOrder: { Spec.inOrder(sort, $0, $1) })
        }
        var random = SplitMix64(seed: 0x31_E0)
        let database = try makeTemporaryDatabase()
        let before = (0..<30).map { Self.randomMember("old\($0)", using: &random) }
        try database.write { tx in try tx.write(before) }
        try database.register(view(version: 1, grouping: 3, sort: 0).databaseExtension)
        var written: [String: Member] = [:]
        for index in 0..<60 { written["m\(index)"] = Self.randomMember("m\(index)", using: &random) }
        try database.write { tx in try tx.write(Array(written.values)) }
        let second = view(version: 2, grouping: 1, sort: 5)
        try database.write { tx in try tx.redefine(second) }
        let expected = Spec(filter: 1, grouping: 1, sort: 5).expected(written)
        #expect(try database.read { tx in try ViewTestViews.contents(second, tx) } == expected)
    }

    /// What cannot be redefined is refused with a message that says why, and the transaction
    /// goes on.
    @Test func whatCannotBeRedefinedIsRefused() throws {
        let view = Spec(filter: 0, grouping: 0, sort: 0).view(version: 1, storage: .persistent)
        let filtered = view.filtered("members_redefined_active") { member, _ in member.active }
        let manual = ManualView<Member>("members_manual")
        let index = SecondaryIndex<Member>("members_index", columns: [.column("age") { $0.age }])
        let database = try makeTemporaryDatabase(
            extensions: [
                view.databaseExtension, filtered.databaseExtension, manual.databaseExtension, index.databaseExtension,
            ])
        func message(_ candidate: View<Member>) -> String {
            do {
                try database.write { tx in
                    try tx.redefine(candidate)
                }
                return "accepted"
            } catch let error as TroveError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        let spec = Spec(filter: 1, grouping: 1, sort: 1)
        #expect(
            message(View<Member>("nowhere", version: 2, grouping: { _, _ in "a" }, sortedBy: [])).contains(
                "no view of that name"))
        #expect(
            message(View<Member>("members_index", version: 2, grouping: { _, _ in "a" }, sortedBy: [])).contains(
                "another kind of extension"))
        #expect(
            message(View<Member>("members_manual", version: 2, grouping: { _, _ in "a" }, sortedBy: [])).contains(
                "manual view"))
        #expect(
            message(View<Member>("members_redefined_active", version: 2, grouping: { _, _ in "a" }, sortedBy: []))
                .contains("filtered views follow their parent"))
        #expect(message(spec.view(version: 2, storage: .inMemory)).contains("another storage"))
        #expect(message(spec.view(version: 1, storage: .persistent)).contains("registered version 1"))
        #expect(message(spec.view(version: 2, storage: .persistent)) == "accepted")
    }
}
