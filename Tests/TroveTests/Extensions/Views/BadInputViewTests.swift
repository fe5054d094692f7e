import Foundation
import Testing
import TroveTestSupport

@testable import Trove

/// What a user gets wrong, or meets, with views and with the order of ties by key (issue 30):
/// writes inside a view enumeration, rows removed ahead of it, a view whose pages name an item
/// that is gone, a row index past a section's end, and integer keys that tie; and (issue 31) the
/// changes of a manual view at an index its group does not have, or of a key with no item.
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

    // MARK: Manual views (issue 31)

    /// A manual view of three rows in the group "inbox" ("a", "b", "c"), and an item "d" that is
    /// stored but has no row, on `storage`.
    static func manualInbox(storage: View<Member>.Storage) throws -> (ManualView<Member>, Connection) {
        let view = ManualView<Member>("inbox", storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        try connection.write { tx in
            try tx.write(["a", "b", "c", "d"].map { Member(id: $0, age: 1) })
            for key in ["a", "b", "c"] { try view.write(tx).append(key, to: "inbox") }
        }
        return (view, connection)
    }

    /// Checks that `change` throws a misuse error naming the manual view "inbox", `group` and
    /// `index`, with no internals, and that the view is left as it was.
    static func expectIndexOutOfRange(
        storage: View<Member>.Storage, group: String, index: Int, accepted: String,
        _ change: (ManualViewWriter<Member>) throws -> Void
    ) throws {
        let (view, connection) = try manualInbox(storage: storage)
        try connection.write { tx throws in
            let error = #expect(throws: TroveError.self) { try change(view.write(tx)) }
            #expect(error?.code == .misuse, "\(String(describing: error))")
            #expect(error?.extensionName == "inbox" && error?.collection == "members")
            let message = error?.message ?? ""
            #expect(
                message.contains("manual view 'inbox'") && message.contains("group '\(group)'")
                    && message.contains("index \(index)") && message.contains(accepted),
                "\(message)")
            #expect(internalsShown(in: error?.description ?? "") == [], "\(error?.description ?? "")")
            // Nothing changed: the transaction goes on with the view as it was.
            #expect(try view.read(tx).keys(in: "inbox") == ["a", "b", "c"])
        }
    }

    /// An insert past the end of a group (the end is the number of rows) is refused.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func manualInsertPastTheEndIsRefused(storage: View<Member>.Storage) throws {
        try Self.expectIndexOutOfRange(storage: storage, group: "inbox", index: 4, accepted: "0 to 3") {
            try $0.insert("d", at: 4, in: "inbox")
        }
    }

    /// An insert of a key already in the group counts the group without its row: inserting "a"
    /// at 3 in a group of 3 rows that holds it is past the end.
    @Test func manualInsertOfAKeyInTheGroupCountsTheGroupWithoutIt() throws {
        try Self.expectIndexOutOfRange(storage: .persistent, group: "inbox", index: 3, accepted: "0 to 2") {
            try $0.insert("a", at: 3, in: "inbox")
        }
    }

    /// A negative index is refused.
    @Test func manualInsertAtANegativeIndexIsRefused() throws {
        try Self.expectIndexOutOfRange(storage: .persistent, group: "inbox", index: -1, accepted: "0 to 3") {
            try $0.insert("d", at: -1, in: "inbox")
        }
    }

    /// A move from an index the group does not have is refused.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func manualMoveFromAMissingIndexIsRefused(storage: View<Member>.Storage) throws {
        try Self.expectIndexOutOfRange(storage: storage, group: "inbox", index: 3, accepted: "0 to 2") {
            try $0.move(from: 3, in: "inbox", to: 0, in: "later")
        }
    }

    /// A move to an index past the end of the group it goes to is refused; within one group the
    /// end is the count without the row moved.
    @Test func manualMoveToAnIndexPastTheEndIsRefused() throws {
        try Self.expectIndexOutOfRange(storage: .persistent, group: "later", index: 1, accepted: "0 to 0") {
            try $0.move(from: 0, in: "inbox", to: 1, in: "later")
        }
        try Self.expectIndexOutOfRange(storage: .persistent, group: "inbox", index: 3, accepted: "0 to 2") {
            try $0.move(from: 0, in: "inbox", to: 3, in: "inbox")
        }
    }

    /// A removal at an index the group does not have is refused, in a group with rows and in a
    /// group without.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func manualRemovalAtAMissingIndexIsRefused(storage: View<Member>.Storage) throws {
        try Self.expectIndexOutOfRange(storage: storage, group: "inbox", index: 7, accepted: "0 to 2") {
            try $0.remove(at: 7, in: "inbox")
        }
        try Self.expectIndexOutOfRange(storage: storage, group: "empty", index: 0, accepted: "the group has no row") {
            try $0.remove(at: 0, in: "empty")
        }
    }

    /// Adding or inserting a key whose item does not exist is refused with an error naming the
    /// view, the collection and the key, and changes nothing.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func manualAddOfAnUnknownKeyIsRefused(storage: View<Member>.Storage) throws {
        let (view, connection) = try Self.manualInbox(storage: storage)
        let changes: [(String, (ManualViewWriter<Member>) throws -> Void)] = [
            ("append", { try $0.append("ghost", to: "inbox") }),
            ("insert", { try $0.insert("ghost", at: 0, in: "inbox") }),
        ]
        for (name, change) in changes {
            try connection.write { tx throws in
                let error = #expect(throws: TroveError.self, "\(name)") { try change(view.write(tx)) }
                #expect(error?.code == .invalidKey, "\(name): \(String(describing: error))")
                #expect(error?.extensionName == "inbox" && error?.collection == "members" && error?.key == "ghost")
                let message = error?.message ?? ""
                #expect(
                    message.contains("manual view 'inbox'") && message.contains("'ghost'")
                        && message.contains("collection 'members'"),
                    "\(name): \(message)")
                #expect(internalsShown(in: error?.description ?? "") == [], "\(name): \(error?.description ?? "")")
                #expect(try view.read(tx).keys(in: "inbox") == ["a", "b", "c"])
            }
        }
    }

    /// A manual view that is not registered on the database cannot be written: the error names
    /// it and says to register it.
    @Test func manualWriteOfAnUnregisteredViewIsRefused() throws {
        let (_, connection) = try Self.manualInbox(storage: .persistent)
        let other = ManualView<Member>("elsewhere")
        try connection.write { tx throws in
            let error = #expect(throws: TroveError.self) { try other.write(tx).append("a", to: "inbox") }
            #expect(error?.code == .extensionFailed, "\(String(describing: error))")
            #expect(error?.message.contains("'elsewhere'") == true && error?.message.contains("register") == true)
            #expect(internalsShown(in: error?.description ?? "") == [], "\(error?.description ?? "")")
        }
    }
}
