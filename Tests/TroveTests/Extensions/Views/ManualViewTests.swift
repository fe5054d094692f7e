import Foundation
import Testing
import Trove
import TroveTestSupport

/// What a manual view promises besides its contents (see ``ManualViewModelTests`` for those):
/// the kinds of its row changes, the changeset of a commit that only placed rows, its reading
/// surface, its life across opens, versions and rollbacks, enumeration and observation.
struct ManualViewTests {
    static func makeInbox(
        storage: View<Member>.Storage, keys: [String] = ["a", "b", "c"]
    ) throws -> (ManualView<Member>, Database, Connection) {
        let view = ManualView<Member>("inbox", storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        try connection.write { tx in
            try tx.write(keys.map { Member(id: $0, age: 1) })
            for key in keys { try view.write(tx).append(key, to: "inbox") }
        }
        return (view, database, connection)
    }

    /// Storing an item again, changing its metadata or touching it keeps its row where it is
    /// and reports it as updated, with the part that changed.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func writesOfAnItemKeepItsRowAndReportItUpdated(storage: View<Member>.Storage) async throws {
        let (view, database, connection) = try Self.makeInbox(storage: storage)
        var changes = database.changes.makeAsyncIterator()
        let writes: [(String, ViewRowChange.Parts, @Sendable (ReadWriteTransaction) throws -> Void)] = [
            ("write", .item, { tx in try tx.write(Member(id: "b", age: 9)) }),
            (
                "metadata", .metadata,
                { tx in _ = try tx.setMetadata(MemberStats(visits: 3), for: Member.self, key: "b") }
            ),
            ("touch", [], { tx in try tx.touch(key: "b", in: Member.collection) }),
        ]
        for (name, parts, write) in writes {
            try await connection.write { tx in try write(tx) }
            let changeset = try #require(await changes.next())
            let rowChanges = changeset.viewChanges["inbox"]?.rowChanges ?? []
            #expect(rowChanges.map(\.kind) == [.updated], "\(name): \(rowChanges)")
            #expect(rowChanges.first?.from == rowChanges.first?.to && rowChanges.first?.to?.index == 1, "\(name)")
            #expect(rowChanges.first?.changedParts == parts, "\(name): \(rowChanges)")
        }
        let keys = try await connection.read { tx in try view.read(tx).keys(in: "inbox") }
        #expect(keys == ["a", "b", "c"])
    }

    /// A commit that only placed rows has a changeset: the view's changes, and the items placed
    /// counted as updated, so that observations see it.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func aCommitThatOnlyMovesRowsHasItsChangeset(storage: View<Member>.Storage) async throws {
        let (view, database, connection) = try Self.makeInbox(storage: storage)
        var changes = database.changes.makeAsyncIterator()
        try await connection.write { tx in try view.write(tx).move(from: 2, in: "inbox", to: 0, in: "inbox") }
        // A commit of another item after it: without a changeset of its own, the move's changes
        // would be missing, not waited for.
        try await connection.write(Member(id: "other", age: 1))
        let changeset = try #require(await changes.next())
        let viewChanges = try #require(changeset.viewChanges["inbox"], "the move's commit has no changeset")
        #expect(viewChanges.rowChanges.map(\.kind) == [.moved])
        #expect(viewChanges.applied(to: ["inbox": ["a", "b", "c"]]) == ["inbox": ["c", "a", "b"]])
        #expect(changeset.updatedKeys[Member.collection] == ["c"])
        #expect(try #require(await changes.next()).insertedKeys[Member.collection] == ["other"])
        // A move to another group: a group inserted; emptying it: the group removed.
        try await connection.write { tx in try view.write(tx).move(from: 0, in: "inbox", to: 0, in: "later") }
        #expect(try #require(await changes.next()).viewChanges["inbox"]?.groupChanges.map(\.kind) == [.inserted])
        try await connection.write { tx in _ = try view.write(tx).removeGroup("later") }
        let removal = try #require(await changes.next()).viewChanges["inbox"]
        #expect(removal?.groupChanges.map(\.kind) == [.removed] && removal?.rowChanges.map(\.kind) == [.removed])
    }

    /// The reading surface of a view answers for a manual view: groups, counts, keys and items
    /// by index and range, first and last, positions, and queries.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func aManualViewReadsAsAView(storage: View<Member>.Storage) throws {
        let keys = (0..<120).map { String(format: "k%03d", $0) }
        let (view, _, connection) = try Self.makeInbox(storage: storage, keys: keys)
        try connection.write { tx in
            let writer = view.write(tx)
            // Reverse the group by moves: every row to the front in turn.
            for index in 1..<keys.count { try writer.move(from: index, in: "inbox", to: 0, in: "inbox") }
            try writer.append("k000", to: "tail")
        }
        let order = Array(keys.reversed().dropLast())
        try connection.read { tx throws in
            let reader = view.read(tx)
            #expect(try reader.groups() == ["inbox", "tail"])
            #expect(try reader.count(in: "inbox") == 119 && reader.count() == 120)
            #expect(try reader.keys(in: "inbox") == order)
            #expect(try reader.keys(in: "inbox", range: 50..<60) == Array(order[50..<60]))
            #expect(try reader.key(at: 70, in: "inbox") == order[70])
            #expect(try reader.item(at: 3, in: "inbox")?.id == order[3])
            #expect(try reader.first(in: "inbox")?.id == "k119" && reader.last(in: "inbox")?.id == "k001")
            #expect(try reader.indexPath(ofKey: "k010") == ViewIndexPath(group: "inbox", index: 109))
            #expect(try reader.indexPath(ofKey: "k000") == ViewIndexPath(group: "tail", index: 0))
            #expect(try view.rows(in: "inbox", range: 100..<200).keys(tx) == Array(order[100...]))
            #expect(try view.rows(in: "inbox").count(tx) == 119)
            #expect(try view.rows(in: "inbox", range: 0..<2).items(tx).map(\.id) == ["k119", "k118"])
        }
    }

    /// A persistent manual view keeps its rows from one open of the file to the next; a new
    /// version starts it empty.
    @Test func persistentRowsSurviveAReopenAndANewVersionStartsEmpty() throws {
        let (view, database, _) = try Self.makeInbox(storage: .persistent)
        let path = database.path
        let reopened = try Database(path: path, extensions: [view.databaseExtension])
        try reopened.newConnection().read { tx throws in
            #expect(try view.read(tx).keys(in: "inbox") == ["a", "b", "c"])
        }
        let next = ManualView<Member>("inbox", version: 2)
        let third = try Database(path: path, extensions: [next.databaseExtension])
        try third.newConnection().read { tx throws in #expect(try next.read(tx).count() == 0) }
    }

    /// Another process that does not register the view removes items, stores one again, and
    /// stores a new item that takes the row id of a removed one: the view falls behind, and its
    /// rebuild keeps the rows of the items still stored, in the app's order, under their row ids
    /// now, and gives no row to the newcomer. A rebuilt-at-launch or in-memory view does too,
    /// within its process.
    @Test(arguments: [View<Member>.Storage.persistent, .rebuiltAtLaunch, .inMemory])
    func aStaleRebuildKeepsTheRowsOfTheItemsStillStored(storage: View<Member>.Storage) throws {
        let keys = (0..<60).map { String(format: "k%02d", $0) }
        let (view, database, connection) = try Self.makeInbox(storage: storage, keys: keys)
        try connection.write { tx in
            let writer = view.write(tx)
            try writer.move(from: 59, in: "inbox", to: 0, in: "inbox")
            for index in stride(from: 40, to: 30, by: -1) {
                try writer.move(from: index, in: "inbox", to: 0, in: "later")
            }
        }
        let expected = try connection.read { tx throws in
            (try view.read(tx).keys(in: "inbox"), try view.read(tx).keys(in: "later"))
        }
        let other = try Database(path: database.path)
        try other.newConnection().write { (tx: ReadWriteTransaction) throws -> Void in
            _ = try tx.remove(Member.self, key: "k59")  // the highest row id: the next insert takes it
            try tx.write(Member(id: "newcomer", age: 1))
            _ = try tx.remove(Member.self, key: "k05")
            _ = try tx.remove(Member.self, key: "k35")
            _ = try tx.remove(Member.self, key: "k10")
            try tx.write(Member(id: "k10", age: 2))  // stored again, under another row id
            try tx.write(Member(id: "k20", age: 3))
        }
        try connection.write(Member(id: "unrelated", age: 1))  // rebuilds the stale view
        let gone: Set = ["k59", "k05", "k35"]
        try connection.read { tx throws in
            let reader = view.read(tx)
            #expect(try reader.keys(in: "inbox") == expected.0.filter { !gone.contains($0) })
            #expect(try reader.keys(in: "later") == expected.1.filter { !gone.contains($0) })
            #expect(try reader.indexPath(ofKey: "newcomer") == nil)
            #expect(try view.rows(in: "inbox").items(tx).map(\.id) == expected.0.filter { !gone.contains($0) })
        }
        // The kept rows are followed as before: removing an item takes its row out.
        try connection.write { tx in _ = try tx.remove(Member.self, key: "k10") }
        try connection.read { tx throws in
            #expect(try view.read(tx).keys(in: "inbox").contains("k10") == false)
        }
    }

    /// The changes belong to the transaction: a rollback takes them back.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func aRollbackUndoesTheChanges(storage: View<Member>.Storage) throws {
        struct Abort: Error {}
        let (view, _, connection) = try Self.makeInbox(storage: storage)
        #expect(throws: Abort.self) {
            try connection.write { tx in
                let writer = view.write(tx)
                try writer.move(from: 0, in: "inbox", to: 2, in: "inbox")
                try writer.remove(at: 0, in: "inbox")
                throw Abort()
            }
        }
        try connection.read { tx throws in #expect(try view.read(tx).keys(in: "inbox") == ["a", "b", "c"]) }
    }

    /// An enumeration whose body removes the item it was handed, or moves its row to the end of
    /// the group, visits every row once, in the app's order, forward and reversed.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory], [false, true])
    func enumerationWithWritesVisitsEveryRowOnce(storage: View<Member>.Storage, reversed: Bool) throws {
        let keys = (0..<80).map { String(format: "k%02d", $0) }
        let (view, _, connection) = try Self.makeInbox(storage: storage, keys: keys)
        let (removedVisits, movedVisits) = try connection.write { tx in
            var removedVisits: [String] = []
            try view.read(tx).enumerate(in: "inbox", reversed: reversed) { _, member, _ in
                removedVisits.append(member.id)
                if member.id.hasSuffix("0") { _ = try tx.remove(Member.self, key: member.id) }
            }
            var movedVisits: [String] = []
            try view.read(tx).enumerate(in: "inbox", reversed: reversed) { index, member, _ in
                movedVisits.append(member.id)
                if member.id.hasSuffix("5") {
                    let writer = view.write(tx)
                    try writer.move(
                        from: index, in: "inbox", to: reversed ? 0 : try view.read(tx).count(in: "inbox") - 1,
                        in: "inbox")
                }
            }
            return (removedVisits, movedVisits)
        }
        let order = reversed ? Array(keys.reversed()) : keys
        #expect(removedVisits == order)
        #expect(movedVisits == order.filter { !$0.hasSuffix("0") })
    }

    /// Items removed by a relationship's delete rule take their rows with them, in the same
    /// transaction, and the commit reports the rows removed.
    @Test(arguments: [View<RPost>.Storage.persistent, .inMemory])
    func itemsRemovedByADeleteRuleLeaveTheView(storage: View<RPost>.Storage) async throws {
        let view = ManualView<RPost>("reading_list", storage: storage)
        let database = try makeTemporaryDatabase(extensions: [
            RelationshipFixtures.posts.databaseExtension, view.databaseExtension,
        ])
        let connection = try database.newConnection()
        try await connection.write { tx in
            try tx.write([RUser(id: "ada"), RUser(id: "grace")])
            try tx.write([
                RPost(id: "p1", authorID: "ada"), RPost(id: "p2", authorID: "grace"), RPost(id: "p3", authorID: "ada"),
            ])
            for key in ["p1", "p2", "p3"] { try view.write(tx).append(key, to: "later") }
        }
        var changes = database.changes.makeAsyncIterator()
        try await connection.write { tx in _ = try tx.remove(RUser.self, key: "ada") }
        let (p1, keys) = try await connection.read { tx in
            (try tx.read(RPost.self, key: "p1"), try view.read(tx).keys(in: "later"))
        }
        #expect(p1 == nil, "the delete rule did not run")
        #expect(keys == ["p2"])
        let changeset = try #require(await changes.next())
        let viewChanges = try #require(changeset.viewChanges["reading_list"])
        #expect(viewChanges.applied(to: ["later": ["p1", "p2", "p3"]]) == ["later": ["p2"]])
    }

    /// ``Database/observe(_:mappings:)`` follows a manual view: a move yields the sections and
    /// the changes that replay it.
    @Test func observationWithMappingsFollowsAMove() async throws {
        let (view, database, connection) = try Self.makeInbox(storage: .persistent)
        var iterator = database.observe(view, mappings: ViewMappings(groups: .all)).makeAsyncIterator()
        let first = try #require(try await iterator.next())
        #expect(first.sections.contents == [ViewSectionContent(group: "inbox", keys: ["a", "b", "c"])])
        try await connection.write { tx in try view.write(tx).move(from: 0, in: "inbox", to: 2, in: "inbox") }
        let update = try #require(try await iterator.next())
        #expect(update.sections.contents == [ViewSectionContent(group: "inbox", keys: ["b", "c", "a"])])
        #expect(try #require(update.changes).applied(to: first.sections.contents) == update.sections.contents)
    }
}
