import Foundation
import Testing
import TroveTestSupport

@testable import Trove

/// The in-memory storage of a view: nothing in the file, versions read at each transaction's
/// snapshot, rolled back with their transaction, dropped once no transaction reads them. (The
/// random model of ``ViewModelTests`` runs against both storages.)
struct ViewMemoryTests {
    private static let members = (0..<200).map {
        Member(id: "m\($0)", age: $0, city: ["a", "b", "c"][$0 % 3], score: Double($0 % 17), active: $0 % 2 == 0)
    }

    private static let view = ViewTestViews.byCity(storage: .inMemory)
    private static let active = ViewTestViews.activeByCity(storage: .inMemory)

    private func contents(_ view: View<Member>, _ connection: Connection) throws -> [String: [String]] {
        try connection.read { tx in try ViewTestViews.contents(view, tx) }
    }

    private func expected(_ connection: Connection, filter: (Member) -> Bool = { _ in true }) throws -> [String: [String]] {
        ViewTestViews.expected(try connection.read { tx in try tx.readAll(Member.self) }, filter: filter)
    }

    /// The view works, and the file has none of its tables.
    @Test func nothingOfItInTheFile() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = (folder as NSString).appendingPathComponent("memory.trove")
        let database = try Database(path: path)
        let connection = try database.newConnection()
        try connection.write(Self.members)
        #expect(try database.register([Self.view.databaseExtension, Self.active.databaseExtension]) == [.created, .created])
        try connection.write(Member(id: "new", age: 1, city: "d", score: 3))
        #expect(try contents(Self.view, connection) == expected(connection))
        #expect(try contents(Self.active, connection) == expected(connection, filter: \.active))
        let tables = try tableNames(path)
        #expect(tables.contains("trove_items"))
        #expect(!tables.contains { $0.hasPrefix("trove_ext_members_by_city") || $0.hasPrefix("trove_ext_members_active") })
        #expect(tables.allSatisfy { !$0.hasPrefix("trove_ext_") }, "tables: \(tables)")
    }

    /// A transaction that began before commits keeps the view of its snapshot, with its items;
    /// one that begins after sees the commits. Reads by index and position agree.
    @Test func aReaderKeepsItsSnapshotAcrossCommits() throws {
        let database = try makeTemporaryDatabase(extensions: [Self.view.databaseExtension])
        let writer = try database.newConnection()
        try writer.write(Self.members)
        let reader = try database.newConnection()
        let late = try database.newConnection()
        let before = try expected(writer)
        try reader.read { tx in
            let first = try ViewTestViews.contents(Self.view, tx)
            #expect(first == before)
            // Commits while this transaction is open: moves across groups, removals, inserts.
            for round in 0..<20 {
                try writer.write { tx in
                    try tx.write(Member(id: "m\(round)", age: 1, city: ["b", "c", "d"][round % 3], score: 50))
                    _ = try tx.remove(Member.self, key: "m\(100 + round)")
                    try tx.write(Member(id: "n\(round)", age: 1, city: "a", score: Double(round % 5)))
                }
                let now = try expected(writer)
                #expect(try contents(Self.view, late) == now, "a later transaction sees commit \(round)")
            }
            #expect(try ViewTestViews.contents(Self.view, tx) == before)
            let reader = Self.view.read(tx)
            #expect(try reader.count() == Self.members.count)
            #expect(try reader.indexPath(ofKey: "m0") == ViewIndexPath(group: "a", index: before["a"]!.firstIndex(of: "m0")!))
            #expect(try reader.keys(in: "a", range: 0..<10) == Array(before["a"]![0..<10]))
            #expect(try reader.items(in: "a", range: 0..<3).map(\.id) == Array(before["a"]![0..<3]))
            #expect(try reader.groups() == ["a", "b", "c"])
        }
        #expect(try contents(Self.view, reader) == expected(writer))
    }

    /// Readers on many connections, while a writer commits: each transaction's view is what its
    /// own snapshot of the items gives (a reader that took another commit's version would differ).
    @Test func concurrentReadersSeeTheirSnapshot() async throws {
        let database = try makeTemporaryDatabase(extensions: [Self.view.databaseExtension])
        try await database.newConnection().write(Self.members)
        let writer = try database.newConnection()
        let commits = 150
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for round in 0..<commits {
                    try await writer.write { tx in
                        let key = "m\((round * 7) % 200)"
                        try tx.write(
                            Member(id: key, age: round, city: ["a", "b", "c", nil][round % 4], score: Double(round % 13)))
                        _ = try tx.remove(Member.self, key: "m\((round * 11 + 3) % 200)")
                    }
                }
                return 0
            }
            for _ in 0..<2 {
                let reader = try database.newConnection()
                group.addTask {
                    var mismatches = 0
                    for _ in 0..<150 {
                        mismatches += try await reader.read { tx in
                            let items = try tx.readAll(Member.self)
                            let view = try ViewTestViews.contents(Self.view, tx)
                            return view == ViewTestViews.expected(items, filter: { _ in true }) ? 0 : 1
                        }
                    }
                    return mismatches
                }
            }
            var mismatches = 0
            for try await count in group { mismatches += count }
            #expect(mismatches == 0)
        }
    }

    /// A write transaction reads its own changes; a rollback leaves the view as it was, and the
    /// next commit starts from the committed pages.
    @Test func rollbackLeavesTheViewUnchanged() throws {
        let database = try makeTemporaryDatabase(extensions: [Self.view.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.members)
        let before = try expected(connection)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try connection.write { tx in
                try tx.write(Member(id: "m1", age: 1, city: "z", score: 0))
                _ = try tx.remove(Member.self, key: "m2")
                #expect(try Self.view.read(tx).keys(in: "z") == ["m1"])
                #expect(try Self.view.read(tx).indexPath(ofKey: "m2") == nil)
                throw Abort()
            }
        }
        #expect(try contents(Self.view, connection) == before)
        try connection.write(Member(id: "m4", age: 1, city: "z", score: 0))
        #expect(try contents(Self.view, connection) == expected(connection))
    }

    /// Commits keep only the versions that a transaction under way reads: the latest, and the
    /// one of an open reader's snapshot while it is open.
    @Test func oldVersionsAreDropped() throws {
        let database = try makeTemporaryDatabase(extensions: [Self.view.databaseExtension])
        let writer = try database.newConnection()
        let idle = try database.newConnection()
        _ = try contents(Self.view, idle)
        for index in 0..<30 {
            try writer.write(Member(id: "k\(index)", age: index, city: "a", score: Double(index)))
        }
        // An idle connection keeps nothing alive.
        #expect(database.viewVersions.versionCount(of: Self.view.name) == 1)
        try idle.read { tx in
            let pinned = try ViewTestViews.contents(Self.view, tx)
            for index in 0..<30 {
                try writer.write(Member(id: "j\(index)", age: index, city: "b", score: Double(index)))
            }
            #expect(database.viewVersions.versionCount(of: Self.view.name) == 2)
            #expect(try ViewTestViews.contents(Self.view, tx) == pinned)
        }
        try writer.write(Member(id: "last", age: 1, city: "c", score: 1))
        #expect(database.viewVersions.versionCount(of: Self.view.name) == 1)
    }

    /// Another `Database` on the same file (as another process would) builds its own pages when
    /// it registers the view; a commit of one leaves the other's view behind: reading it throws
    /// until its next write transaction rebuilds it.
    @Test func anotherWriterLeavesTheViewBehindUntilTheNextWrite() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = (folder as NSString).appendingPathComponent("memory.trove")
        let first = try Database(path: path, extensions: [Self.view.databaseExtension])
        let firstConnection = try first.newConnection()
        try firstConnection.write(Self.members)
        let second = try Database(path: path, extensions: [Self.view.databaseExtension])
        let secondConnection = try second.newConnection()
        #expect(try contents(Self.view, secondConnection) == expected(secondConnection))

        try secondConnection.write(Member(id: "m5", age: 1, city: "q", score: 1))
        #expect(throws: TroveError.self) { try contents(Self.view, firstConnection) }
        try firstConnection.write(Member(id: "m6", age: 1, city: "q", score: 2))
        #expect(try contents(Self.view, firstConnection) == expected(firstConnection))
        #expect(try contents(Self.view, firstConnection)["q"] == ["m5", "m6"])
    }

    /// Pages split and merge in the middle of a group, in one transaction and across several;
    /// the next transaction reads the pages as they were stored (in the file or in memory).
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func splitsAndMergesInTheMiddleOfAGroup(storage: View<Member>.Storage) throws {
        let view = ViewTestViews.byCity(storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        // Each item sorts before the ones already there: every split is at the front page.
        try connection.write((0..<300).map { Member(id: "k\(1000 + $0)", age: 0, city: "a", score: Double(1000 - $0)) })
        #expect(try contents(view, connection) == expected(connection))
        for round in 0..<6 {
            try connection.write { tx in
                for index in stride(from: round, to: 300, by: 7) {
                    _ = try tx.remove(Member.self, key: "k\(1000 + index)")
                }
                for index in 0..<20 {
                    try tx.write(Member(id: "r\(round)_\(index)", age: 0, city: "a", score: Double(700 + index * 13)))
                }
            }
            #expect(try contents(view, connection) == expected(connection), "round \(round)")
        }
    }

    /// Unregistering drops the versions; registering again builds the view anew.
    @Test func unregisterAndRegisterAgain() throws {
        let database = try makeTemporaryDatabase(extensions: [Self.view.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(Self.members)
        #expect(try database.unregister(Self.view.name))
        #expect(database.viewVersions.versionCount(of: Self.view.name) == 0)
        #expect(throws: TroveError.self) { try contents(Self.view, connection) }
        #expect(try database.register(Self.view.databaseExtension) == .created)
        #expect(try contents(Self.view, connection) == expected(connection))
    }
}
