import Foundation
import Testing
import Trove
import TroveTestSupport

/// The cache of a persistent view's pages that each connection keeps (see `ViewPageCache`):
/// every read, on any connection, in or after any transaction, gives what the items give.
struct ViewPageCacheTests {
    /// The promise of the cache, against a brute-force model: random commits and rollbacks of
    /// writes, moves between groups and places, removals and removals of the collection through
    /// one connection, interleaved with reads of random ranges through two other connections,
    /// through the writing connection inside its transactions (of its own writes) and after them
    /// (after commits and rollbacks), and commits of another `Database` on the file (another
    /// process). Groups hold several pages, so that pages split and merge, and rows are inserted
    /// and removed again in one transaction, which rewrites pages with no row change to report.
    @Test(arguments: [UInt64(0xCA_C4E5), 7, 2_026])
    func readsOnEveryConnectionMatchTheModel(seed: UInt64) throws {
        print("ViewPageCacheTests seed \(seed)")
        let views = [ViewTestViews.byCity, ViewTestViews.activeByCity]
        let database = try makeTemporaryDatabase(extensions: views.map(\.databaseExtension))
        let writer = try database.newConnection()
        let readers = [try database.newConnection(), try database.newConnection(), writer]
        let otherWriter = try Database(path: database.path, extensions: views.map(\.databaseExtension)).newConnection()
        var random = SplitMix64(seed: seed)
        let keys = (0..<240).map { "m\($0)" }
        var model: [String: Member] = [:]
        // Groups of about 70 rows: two or three pages each.
        let cities: [String?] = ["x", "y", "z", nil]

        func randomMember(_ key: String) -> Member {
            Member(
                id: key, age: 1, city: cities.randomElement(using: &random)!,
                score: Double(Int.random(in: 0..<20, using: &random)), active: Bool.random(using: &random),
                metadata: Int.random(in: 0..<6, using: &random) == 0 ? MemberStats(visits: 9) : nil)
        }

        var matches = true
        for step in 0..<300 {
            let action = Int.random(in: 0..<10, using: &random)
            if action < 6 {
                let rollsBack = action >= 4
                var working = model
                do {
                    try writer.write { tx in
                        for _ in 0..<Int.random(in: 1...12, using: &random) {
                            let key = keys.randomElement(using: &random)!
                            switch Int.random(in: 0..<100, using: &random) {
                            case 0..<55:
                                let member = randomMember(key)
                                try tx.write(member)
                                working[key] = member
                            case 55..<70:
                                // A row that comes and goes in the transaction: a page it fills
                                // splits and stays split, with no row change to report.
                                let transient = randomMember("transient")
                                try tx.write(transient)
                                matches =
                                    try Self.checkReads(
                                        tx, views: views, model: working.merging([("transient", transient)]) { $1 },
                                        random: &random, label: "step \(step), inside, with the transient row")
                                    && matches
                                _ = try tx.remove(Member.self, key: "transient")
                            case 70..<97:
                                _ = try tx.remove(Member.self, key: key)
                                working[key] = nil
                            default:
                                _ = try tx.removeAll(Member.self)
                                working.removeAll()
                            }
                            if Int.random(in: 0..<3, using: &random) == 0 {
                                matches =
                                    try Self.checkReads(
                                        tx, views: views, model: working, random: &random,
                                        label: "step \(step), inside")
                                    && matches
                            }
                        }
                        if rollsBack { throw RolledBack() }
                    }
                } catch is RolledBack {}
                if !rollsBack { model = working }
                let moment = rollsBack ? "after a rollback" : "after a commit"
                matches =
                    try writer.read { tx in
                        try Self.checkReads(
                            tx, views: views, model: model, random: &random, label: "step \(step), writer \(moment)")
                    } && matches
            }
            if action == 6 {
                // A commit of another Database on the file: another process to this one.
                var working = model
                try otherWriter.write { tx in
                    for _ in 0..<Int.random(in: 1...6, using: &random) {
                        let key = keys.randomElement(using: &random)!
                        if Bool.random(using: &random) {
                            let member = randomMember(key)
                            try tx.write(member)
                            working[key] = member
                        } else {
                            _ = try tx.remove(Member.self, key: key)
                            working[key] = nil
                        }
                    }
                }
                model = working
            }
            let reader = readers.randomElement(using: &random)!
            matches =
                try reader.read { tx in
                    #expect(try tx.readAll(Member.self).count == model.count, "step \(step): the model is off")
                    return try Self.checkReads(
                        tx, views: views, model: model, random: &random, label: "step \(step), reader")
                } && matches
            // The first step that reads wrong is enough.
            if !matches { return }
        }
    }

    /// A connection whose caches hold pages and no item (it read keys only) still drops the
    /// pages that another connection's commit changed.
    @Test func aCommitOfAnotherConnectionReachesACacheOfPagesOnly() throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write((0..<80).map { Member(id: "m\($0 + 10)", age: 1, city: "x", score: Double($0)) })
        var expected = (0..<80).map { "m\($0 + 10)" }
        #expect(try reader.read { try view.read($0).keys(in: "x", range: 0..<60) } == Array(expected[0..<60]))
        #expect(reader.cacheCounts.items == 0)

        try writer.write(Member(id: "m89", age: 1, city: "x", score: -1))
        expected = ["m89"] + expected.dropLast()
        #expect(try reader.read { try view.read($0).keys(in: "x", range: 0..<60) } == Array(expected[0..<60]))
    }

    /// A row inserted into a full page and removed again in one transaction splits the page for
    /// good, with no row change to report: another connection that cached the group's page list
    /// drops it all the same.
    @Test func aPageSplitWithNoRowChangeReachesTheOtherConnections() async throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        // 50 rows inserted in order fill one page.
        let members = (0..<50).map { Member(id: "m\($0 + 10)", age: 1, city: "x", score: Double($0)) }
        try syncReadWrite(writer) { try $0.write(members) }
        let expected = (0..<50).map { "m\($0 + 10)" }
        // The reader caches the page list only (one page of 50 rows).
        #expect(try syncRead(reader) { try view.read($0).count(in: "x") } == 50)

        var changes = database.changes.makeAsyncIterator()
        try syncReadWrite(writer) { tx in
            try tx.write(Member(id: "m00", age: 1, city: "x", score: 0.5))
            _ = try tx.remove(Member.self, key: "m00")
            // Every commit changes something, so that it has a changeset.
            try tx.write(Member(id: "elsewhere", age: 1, city: nil))
        }
        let changeset = try #require(await changes.next())
        #expect(changeset.viewChanges[view.name] == nil, "the split was to leave no row change")

        try syncRead(reader) { tx throws in
            #expect(try view.read(tx).keys(in: "x", range: 0..<50) == expected)
            #expect(try view.read(tx).items(in: "x", range: 20..<40).map(\.id) == Array(expected[20..<40]))
        }
    }

    /// A view registered again with another definition under the same name is rebuilt: a
    /// connection that cached its pages reads the new ones.
    @Test func aViewRebuiltUnderTheSameNameIsReadAnew() throws {
        let ascending = ViewTestViews.byCity
        let descending = View<Member>(
            "members_by_city", version: 2, storage: .persistent, grouping: { member, _ in member.city },
            sortedBy: [.descending(\.score)])
        let database = try makeTemporaryDatabase(extensions: [ascending.databaseExtension])
        let reader = try database.newConnection()
        try database.write((0..<80).map { Member(id: "m\($0 + 10)", age: 1, city: "x", score: Double($0)) })
        let keys = (0..<80).map { "m\($0 + 10)" }
        #expect(try reader.read { try ascending.read($0).keys(in: "x", range: 0..<60) } == Array(keys[0..<60]))

        #expect(try database.register(descending.databaseExtension) == .rebuilt)
        #expect(
            try reader.read { try descending.read($0).keys(in: "x", range: 0..<60) }
                == Array(keys.reversed()[0..<60]))

        // Removed and registered again: page ids may start over.
        #expect(try database.unregister(descending.name))
        #expect(try database.register(ascending.databaseExtension) == .created)
        #expect(try reader.read { try ascending.read($0).keys(in: "x", range: 0..<60) } == Array(keys[0..<60]))
    }

    /// Another `Database` on the same file is another process to this one: its commits empty the
    /// caches of pages as they empty the item caches, and the reads that follow are exact again.
    @Test func aCommitThroughAnotherDatabaseOnTheFileIsSeen() throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let other = try Database(path: database.path, extensions: [view.databaseExtension])
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write((0..<80).map { Member(id: "m\($0 + 10)", age: 1, city: "x", score: Double($0)) })
        var expected = (0..<80).map { "m\($0 + 10)" }
        #expect(try reader.read { try view.read($0).keys(in: "x", range: 0..<60) } == Array(expected[0..<60]))

        // The other database moves the last row first, and removes the second.
        try other.newConnection().write { tx in
            try tx.write(Member(id: "m89", age: 1, city: "x", score: -1))
            _ = try tx.remove(Member.self, key: "m11")
        }
        expected = ["m89"] + expected.dropLast().filter { $0 != "m11" }
        #expect(try reader.read { try view.read($0).keys(in: "x", range: 0..<60) } == Array(expected[0..<60]))
        #expect(try reader.read { try view.read($0).items(in: "x", range: 0..<3).map(\.id) } == ["m89", "m10", "m12"])

        // Then this database commits, and the other again, and this one: each read is exact.
        try writer.write(Member(id: "m10", age: 1, city: "y", score: 0))
        expected.removeAll { $0 == "m10" }
        #expect(try reader.read { try view.read($0).keys(in: "x", range: 0..<60) } == Array(expected[0..<60]))
        try other.newConnection().write(Member(id: "m12", age: 1, city: nil, score: 0))
        try writer.write(Member(id: "unrelated", age: 1, city: nil))
        expected.removeAll { $0 == "m12" }
        #expect(try reader.read { try view.read($0).keys(in: "x", range: 0..<60) } == Array(expected[0..<60]))
    }

    /// A write behind Trove's back (a tool that is not Trove) followed by a commit of this
    /// database goes unnoticed until ``Database/invalidateCaches()``, which empties the caches of
    /// pages too.
    @Test func invalidateCachesEmptiesTheCachedPages() throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write((0..<10).map { Member(id: "m\($0 + 10)", age: 1, city: "x", score: Double($0)) })
        let keys = (0..<10).map { "m\($0 + 10)" }
        #expect(try reader.read { try view.read($0).keys(in: "x") } == keys)

        // Another tool moves the first row of the group's one page to its end, then this
        // database commits.
        try executeRawSQL(
            path: database.path,
            """
            UPDATE "trove_ext_members_by_city_pages" SET rows = CAST(substr(rows, 9) || substr(rows, 1, 8) AS BLOB) \
            WHERE grp = 'x'
            """)
        try writer.write(Member(id: "unrelated", age: 1, city: nil))
        database.invalidateCaches()
        #expect(try reader.read { try view.read($0).keys(in: "x") } == Array(keys.dropFirst()) + [keys[0]])
    }

    /// Reads of random ranges of random groups of each view, and the positions of random keys,
    /// checked against `model`; some reads only count, so that a group's page list is cached
    /// without its pages. Returns `false` when a read differs (and records the issue).
    @discardableResult
    static func checkReads(
        _ tx: ReadTransaction, views: [View<Member>], model: [String: Member], random: inout SplitMix64,
        label: String
    ) throws -> Bool {
        var matches = true
        func check<T: Equatable>(_ read: T, _ expected: T, _ what: String) {
            guard read != expected else { return }
            Issue.record("\(label): \(what) is \(read), not \(expected)")
            matches = false
        }
        for (offset, view) in views.enumerated() {
            let expected = ViewTestViews.expected(
                Array(model.values), filter: offset == 0 ? { _ in true } : { $0.active })
            let reader = view.read(tx)
            for _ in 0..<3 {
                let group = ["x", "y", "z", "none"].randomElement(using: &random)!
                let rows = expected[group] ?? []
                let lower = Int.random(in: 0...80, using: &random)
                let range = lower..<(lower + Int.random(in: 0...60, using: &random))
                let wanted = Array(rows[range.clamped(to: 0..<rows.count)])
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    check(try reader.count(in: group), rows.count, "the count of \(view.name)/\(group)")
                case 1:
                    check(
                        try reader.keys(in: group, range: range), wanted, "the keys of \(view.name)/\(group) \(range)")
                case 2:
                    check(
                        try reader.items(in: group, range: range).map(\.id), wanted,
                        "the items of \(view.name)/\(group) \(range)")
                default:
                    let key = "m\(Int.random(in: 0..<240, using: &random))"
                    let position = expected.lazy.compactMap { group, keys in
                        keys.firstIndex(of: key).map { ViewIndexPath(group: group, index: $0) }
                    }.first
                    check(try reader.indexPath(ofKey: key), position, "the position of \(key) in \(view.name)")
                }
            }
        }
        return matches
    }

    private struct RolledBack: Error {}
}
