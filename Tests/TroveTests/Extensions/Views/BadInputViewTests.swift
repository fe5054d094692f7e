import Foundation
import Testing
import TroveTestSupport

@testable import Trove

/// What a user gets wrong, or meets, with views and with the order of ties by key (issue 30):
/// writes inside a view enumeration, rows removed ahead of it, a view whose pages name an item
/// that is gone, a row index past a section's end, and integer keys that tie.
@Suite("Bad input: views and ordering")
struct BadInputViewTests {
    /// The orders of the issue: one group of 100 rows, sorted by age, ties by key.
    static func orders(storage: View<Member>.Storage) -> View<Member> {
        View<Member>("order", storage: storage, grouping: { _, _ in "all" }, sortedBy: [.ascending(\.age)])
    }

    static let hundred = (0..<100).map { Member(id: String(format: "m%03d", $0), age: $0) }

    /// Writes in the body that split the pages ahead (30 rows inserted in the middle of the
    /// group) skip none of the 100 rows, persistent or in memory: every row is visited once, the
    /// new rows too, in the view's order as it is when they are reached.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func writesThatSplitPagesAheadSkipNoRow(storage: View<Member>.Storage) throws {
        let view = Self.orders(storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.hundred)
        let inserted = (0..<30).map { Member(id: String(format: "x%02d", $0), age: 50) }
        let (visited, indexes, pagesBefore, pagesAfter) = try connection.write { tx in
            let pagesBefore = try view.pageSource(in: tx).groupPages("all").count
            var visited: [String] = []
            var indexes: [Int] = []
            try view.read(tx).enumerate(in: "all") { index, member, _ in
                visited.append(member.id)
                indexes.append(index)
                if member.id == "m010" { try tx.write(inserted) }
            }
            return (visited, indexes, pagesBefore, try view.pageSource(in: tx).groupPages("all").count)
        }
        #expect(pagesAfter > pagesBefore, "the writes split no page")
        let expected = (Self.hundred + inserted).sorted { ($0.age, $0.id) < ($1.age, $1.id) }.map(\.id)
        #expect(visited == expected, "\(Set(expected).subtracting(visited).count) rows skipped")
        #expect(indexes == Array(0..<130))
    }

    /// Rows removed ahead of the enumeration (in the page it is reading and in later ones) are
    /// not visited, and nothing throws; the others are all visited.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func rowsRemovedAheadAreNotVisitedAndNothingThrows(storage: View<Member>.Storage) throws {
        let view = Self.orders(storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.hundred)
        let removed = Set(stride(from: 3, to: 100, by: 3).map { String(format: "m%03d", $0) })
        let visited = try connection.write { tx in
            var visited: [String] = []
            try view.read(tx).enumerate(in: "all") { _, member, _ in
                visited.append(member.id)
                if member.id == "m001" { _ = try tx.remove(Member.self, keys: removed) }
            }
            return visited
        }
        #expect(visited == Self.hundred.map(\.id).filter { !removed.contains($0) })
    }

    /// A view whose pages list an item that is no longer in the collection (removed behind
    /// Trove's back, outside any transaction of this database) is damage: every read says so,
    /// naming the view, the collection and where the row is, with a way out, and no internals.
    @Test func aViewListingAMissingItemIsReportedAsDamaged() throws {
        let view = Self.orders(storage: .persistent)
        let timeline = MultiCollectionView(
            "timeline", collections: [Member.collection], grouping: { _ in "all" },
            areInIncreasingOrder: { $0.key < $1.key })
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension, timeline.databaseExtension])
        try database.newConnection().write(Self.hundred)
        try executeRawSQL(path: database.path, "DELETE FROM trove_items WHERE collection = 'members' AND key = 'm005'")
        let connection = try database.newConnection()
        let reads: [(String, String, (ReadTransaction) throws -> Void)] = [
            ("keys", "order", { tx in _ = try view.read(tx).keys(in: "all") }),
            ("items", "order", { tx in _ = try view.read(tx).items(in: "all", range: 0..<10) }),
            // Read in one statement: the missing row inside the range, and as its last row.
            ("rows items", "order", { tx in _ = try view.rows(in: "all", range: 3..<10).items(tx) }),
            ("rows items ending there", "order", { tx in _ = try view.rows(in: "all", range: 0..<6).items(tx) }),
            ("enumerate", "order", { tx in try view.read(tx).enumerate(in: "all") { _, _, _ in } }),
            ("contents", "order", { tx in _ = try view.read(tx).contents() }),
            ("rows", "timeline", { tx in _ = try timeline.read(tx).rows(in: "all") }),
        ]
        for (name, viewName, read) in reads {
            let error = #expect(throws: TroveError.self, "\(name)") { try connection.read { tx in try read(tx) } }
            #expect(error?.code == .corruptDatabase, "\(name): \(String(describing: error))")
            #expect(error?.extensionName == viewName && error?.collection == "members", "\(name)")
            let message = error?.message ?? ""
            #expect(message.contains("The view '\(viewName)' is damaged"), "\(name): \(message)")
            #expect(
                message.contains("index 5 of the group 'all'") && message.contains("collection 'members'"),
                "\(name): \(message)")
            #expect(message.contains("new version"), "\(name): \(message)")
            let description = error?.description ?? ""
            #expect(internalsShown(in: description) == [], "\(name): \(description)")
        }
    }

    /// A view's rows read in one statement per 1,000 row ids (`ReadTransaction.rowIDChunk`): a
    /// read of 2,500 rows crosses two chunk ends and comes back whole and in order, a range that
    /// starts inside the second chunk too, and an item missing in the third chunk is reported at
    /// its own index of the group.
    @Test func readsLongerThanAChunkComeBackInOrderAndNameTheMissingRow() throws {
        let view = Self.orders(storage: .persistent)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let members = (0..<2_500).map { Member(id: String(format: "m%04d", $0), age: 2_500 - $0) }
        try database.newConnection().write(members)
        let inOrder = members.sorted { ($0.age, $0.id) < ($1.age, $1.id) }
        #expect(ReadTransaction.rowIDChunk < 1_500, "the reads below cross no chunk end")
        let connection = try database.newConnection()
        try connection.read { tx throws in
            #expect(try view.rows(in: "all").items(tx) == inOrder)
            #expect(try view.rows(in: "all", range: 1_200..<2_300).items(tx) == Array(inOrder[1_200..<2_300]))
        }
        let missing = inOrder[2_100]
        try executeRawSQL(path: database.path, "DELETE FROM trove_items WHERE key = '\(missing.id)'")
        let error = #expect(throws: TroveError.self) {
            try database.newConnection().read { tx in _ = try view.rows(in: "all").items(tx) }
        }
        #expect(error?.code == .corruptDatabase)
        #expect(error?.message.contains("index 2100 of the group 'all'") == true, "\(String(describing: error))")
    }

    /// A row past a section's end, or before its start, has no index in the group (`nil`, as
    /// the section's other lookups answer), shown in order or reversed; an index past the end of
    /// a group has no key, up to `Int.max`; changes that do not fit never trap when applied.
    @Test func rowsOutsideASectionHaveNoGroupIndex() throws {
        let section = ViewSection(
            group: "all", keys: ["a", "b", "c"], groupCount: 10, isReversed: false, groupRange: 4..<7)
        let reversed = ViewSection(
            group: "all", keys: ["c", "b", "a"], groupCount: 10, isReversed: true, groupRange: 4..<7)
        for shown in [section, reversed] {
            #expect((0..<3).map { shown.groupIndex(ofRow: $0) } == (shown.isReversed ? [6, 5, 4] : [4, 5, 6]))
            for row in [3, 4, 100, Int.max, -1, Int.min] {
                #expect(shown.groupIndex(ofRow: row) == nil, "row \(row), reversed \(shown.isReversed)")
            }
            for index in [3, 7, -1, Int.max] {
                #expect(shown.row(ofGroupIndex: index) == nil, "index \(index)")
            }
        }
        let view = Self.orders(storage: .persistent)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        try database.newConnection().write(Self.hundred)
        try database.newConnection().read { tx throws in
            let reader = view.read(tx)
            for index in [100, Int.max, -1, Int.min] {
                #expect(try reader.key(at: index, in: "all") == nil, "index \(index)")
                #expect(try reader.item(at: index, in: "all") == nil, "index \(index)")
            }
        }
        let changes = ViewChanges(rowChanges: [
            ViewRowChange(kind: .inserted, key: "z", from: nil, to: ViewIndexPath(group: "all", index: -4)),
            ViewRowChange(kind: .removed, key: "q", from: ViewIndexPath(group: "all", index: -2), to: nil),
        ])
        #expect(changes.applied(to: ["all": ["a", "b"]]) == ["all": ["z", "a", "b"]])
        let sectionChanges = ViewSectionChanges(
            sectionChanges: [ViewSectionChange(kind: .inserted, index: -3, group: "new", keys: ["n"])],
            rowChanges: [
                ViewSectionRowChange(
                    kind: .inserted, key: "z", from: nil, to: ViewSectionIndexPath(section: 1, row: -9))
            ])
        #expect(
            sectionChanges.applied(to: [ViewSectionContent(group: "all", keys: ["a"])])
                == [ViewSectionContent(group: "new", keys: ["n"]), ViewSectionContent(group: "all", keys: ["z", "a"])])
    }

    /// Integer keys that tie come in the order of their values (9 before 10, -5 before -1), in
    /// a view's ties and in an index query's, sorted or not; string keys by text.
    @Test func integerKeysThatTieComeInTheOrderOfTheirValues() throws {
        let keys = [10, 9, -1, 100, 0, -5, Int.max, Int.min]
        let tickets = keys.map { Ticket(id: $0, rank: 1, lane: "x") }
        let view = ItemKeyOrderTests.ticketsByLane(storage: .persistent)
        let database = try makeTemporaryDatabase(extensions: [
            view.databaseExtension, ItemKeyOrderTests.ticketIndex.databaseExtension,
        ])
        try database.newConnection().write(tickets)
        let byValue = keys.sorted()
        try database.newConnection().read { tx throws in
            #expect(try view.read(tx).keys(in: "x") == byValue)
            #expect(try ItemKeyOrderTests.ticketIndex.query.sorted(by: .column("rank")).keys(tx) == byValue)
            #expect(try ItemKeyOrderTests.ticketIndex.query.keys(tx) == byValue)
            #expect(
                try ItemKeyOrderTests.ticketIndex.query.filter(.column("lane", equals: "x")).limit(3, offset: 2)
                    .keys(tx) == Array(byValue[2..<5]))
        }
    }
}
