import TroveCSQLite
import Foundation
import Synchronization
import Testing
import Trove
import TroveTestSupport

/// Registration, versions, orphans, other processes, unique columns and errors of a secondary
/// index, on real files.
struct SecondaryIndexLifecycleTests {
    private func withFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder + "/index.trove")
    }

    private func ages(_ index: SecondaryIndex<Member>, _ connection: Connection, in range: Range<Int>) throws -> [String] {
        try connection.read { tx in try index.query.filter(.column("age", in: range)).keys(tx) }
    }

    private static let members = (0..<10).map { Member(id: "m\($0)", age: $0, city: $0 % 2 == 0 ? "Paris" : nil) }

    // MARK: Versions

    @Test func registeringAgainDoesNothingAndANewVersionOrDefinitionRebuilds() throws {
        try withFolder { path in
            let database = try Database(path: path)
            try database.newConnection().write(Self.members)
            #expect(try database.register(MemberIndexes.members.databaseExtension) == .created)
            #expect(try database.register(MemberIndexes.members.databaseExtension) == .unchanged)

            let reopened = try Database(path: path)
            #expect(reopened.orphanedExtensions == ["members"])
            #expect(try reopened.register(MemberIndexes.members.databaseExtension) == .unchanged)
            #expect(reopened.orphanedExtensions.isEmpty)
            #expect(reopened.registeredExtensions == ["members"])

            // A new version, with a column computed differently: rebuilt from the items.
            let doubled = SecondaryIndex<Member>("members", version: 2, columns: [.column("age") { $0.age * 2 }])
            #expect(try reopened.register(doubled.databaseExtension) == .rebuilt)
            let connection = try reopened.newConnection()
            #expect(try connection.read { tx in try doubled.query.filter(.column("age", equals: 8)).keys(tx) } == ["m4"])
            // The same version with other columns: rebuilt too.
            let renamed = SecondaryIndex<Member>("members", version: 2, columns: [.column("years") { $0.age }])
            #expect(try reopened.register(renamed.databaseExtension) == .rebuilt)
            #expect(try connection.read { tx in try renamed.query.filter(.column("years", equals: 8)).keys(tx) } == ["m8"])
            // The definition registered before is not queryable any more.
            #expect(throws: TroveError.self) { try connection.read { tx in try doubled.query.count(tx) } }
        }
    }

    @Test func registrationIsACommitThatObserversHear() async throws {
        let database = try makeTemporaryDatabase()
        var changes = database.changes.makeAsyncIterator()
        try database.register(MemberIndexes.members.databaseExtension)
        let changeset = try #require(await changes.next())
        #expect(changeset.changedExtensions == ["members"])
        #expect(changeset.changedKeys.isEmpty)
        // Unchanged: no commit.
        try database.register(MemberIndexes.members.databaseExtension)
        try await database.newConnection().write(Note(id: "n", text: ""))
        #expect(try #require(await changes.next()).changedKeys == ["notes": ["n"]])
    }

    @Test func unregisteringDropsTheTables() throws {
        try withFolder { path in
            let database = try Database(path: path, extensions: [MemberIndexes.members.databaseExtension])
            try database.newConnection().write(Self.members)
            #expect(try database.unregister("members"))
            #expect(try !database.unregister("members"))
            #expect(database.registeredExtensions.isEmpty)
            #expect(try tableNames(path).filter { $0.hasPrefix("trove_ext_") }.isEmpty)
            // Writes go on without it; registering again builds it from the items.
            try database.newConnection().write(Member(id: "m10", age: 10))
            #expect(try database.register(MemberIndexes.members.databaseExtension) == .created)
            #expect(try ages(MemberIndexes.members, database.newConnection(), in: 9..<11) == ["m10", "m9"].sorted())
        }
    }

    // MARK: Orphans and other processes

    @Test func anOrphanIsKeptUntilAWriteToItsCollectionMakesItStale() throws {
        try withFolder { path in
            do {
                let database = try Database(path: path, extensions: [MemberIndexes.members.databaseExtension])
                try database.newConnection().write(Self.members)
            }
            do {
                // Opened without the index: it is an orphan, kept; writes elsewhere leave it alone.
                let database = try Database(path: path)
                #expect(database.orphanedExtensions == ["members"])
                try database.newConnection().write(Note(id: "n", text: ""))
            }
            do {
                let database = try Database(path: path)
                #expect(try database.register(MemberIndexes.members.databaseExtension) == .unchanged)
            }
            do {
                // A write to its collection without it: marked stale in the same transaction.
                let database = try Database(path: path)
                try database.newConnection().write(Member(id: "m3", age: 30))
                #expect(database.orphanedExtensions == ["members"])
            }
            let database = try Database(path: path)
            #expect(try database.register(MemberIndexes.members.databaseExtension) == .rebuilt)
            #expect(try ages(MemberIndexes.members, database.newConnection(), in: 30..<31) == ["m3"])
        }
    }

    @Test func aRolledBackWriteLeavesTheOrphanUnmarked() throws {
        struct Failure: Error {}
        try withFolder { path in
            do {
                let database = try Database(path: path, extensions: [MemberIndexes.members.databaseExtension])
                try database.newConnection().write(Self.members)
            }
            do {
                let database = try Database(path: path)
                _ = try? database.newConnection().write { tx in
                    try tx.write(Member(id: "m3", age: 30))
                    throw Failure()
                }
                #expect(database.orphanedExtensions == ["members"])
            }
            let database = try Database(path: path)
            #expect(try database.register(MemberIndexes.members.databaseExtension) == .unchanged)
        }
    }

    /// Two instances on one file, one maintaining the index and one not (two processes, or two
    /// versions of an app): the first learns at its next transaction that the index is stale,
    /// refuses to query it, and rebuilds it in its next write transaction.
    @Test func anIndexAnotherInstanceWroteAroundIsRebuiltByTheNextWrite() throws {
        try withFolder { path in
            let maintaining = try Database(path: path, extensions: [MemberIndexes.members.databaseExtension])
            let other = try Database(path: path)
            let connection = try maintaining.newConnection()
            try connection.write(Self.members)
            #expect(try ages(MemberIndexes.members, connection, in: 0..<2) == ["m0", "m1"])

            try other.newConnection().write(Member(id: "m1", age: 50))
            let error = try #require(throws: TroveError.self) { try ages(MemberIndexes.members, connection, in: 0..<2) }
            #expect(error.code == .extensionFailed)
            #expect(error.extensionName == "members")

            try connection.write(Note(id: "unrelated", text: ""))
            #expect(try ages(MemberIndexes.members, connection, in: 0..<2) == ["m0"])
            #expect(try ages(MemberIndexes.members, connection, in: 50..<51) == ["m1"])
            // Again after the rebuild: every write of the other instance makes it stale.
            try other.newConnection().write(Member(id: "m2", age: 51))
            #expect(throws: TroveError.self) { try ages(MemberIndexes.members, connection, in: 0..<2) }
            try connection.write(Note(id: "unrelated", text: "2"))
            #expect(try ages(MemberIndexes.members, connection, in: 50..<52) == ["m1", "m2"])
            // Both maintaining it: in step.
            try other.register(MemberIndexes.members.databaseExtension)
            try other.newConnection().write(Member(id: "m0", age: 60))
            #expect(try ages(MemberIndexes.members, connection, in: 60..<61) == ["m0"])
        }
    }

    /// An instance that opened before another registered an index: its writes reach the index
    /// as an orphan (marked stale), whatever transaction of its connections first saw the
    /// registration. Without that, the other instance's queries miss its items without an error.
    @Test(arguments: RegistrationSeenBy.allCases)
    func anIndexRegisteredAfterAnotherInstanceOpenedIsNeverSilentlyIncomplete(_ seenBy: RegistrationSeenBy) throws {
        try withFolder { path in
            let early = try Database(path: path)
            let writer = try early.newConnection()
            let other = try early.newConnection()
            try writer.write(Self.members)
            try other.read { tx in _ = try tx.count(of: Member.self) }

            let late = try Database(path: path, extensions: [MemberIndexes.members.databaseExtension])
            let connection = try late.newConnection()
            #expect(try ages(MemberIndexes.members, connection, in: 0..<10).count == 10)

            switch seenBy {
            case .theWritingConnection:
                break
            case .anotherConnectionReading:
                try other.read { tx in _ = try tx.count(of: Member.self) }
                try writer.read { tx in _ = try tx.count(of: Member.self) }
            case .aNewConnection:
                _ = try early.newConnection().read { tx in try tx.count(of: Member.self) }
            case .thePool:
                _ = try early.read { tx in try tx.count(of: Member.self) }
            }
            try writer.write(Member(id: "m10", age: 5))
            #expect(early.orphanedExtensions == ["members"])

            // The late instance either answers with every item or refuses; then rebuilds.
            do {
                let keys = try ages(MemberIndexes.members, connection, in: 5..<6)
                #expect(keys == ["m10", "m5"])
            } catch let error as TroveError {
                #expect(error.code == .extensionFailed)
                #expect(error.extensionName == "members")
            }
            try connection.write(Note(id: "unrelated", text: ""))
            #expect(try ages(MemberIndexes.members, connection, in: 5..<6) == ["m10", "m5"])

            // A third instance that registers it trusts only a complete index.
            try writer.write(Member(id: "m11", age: 5))
            let third = try Database(path: path, extensions: [MemberIndexes.members.databaseExtension])
            #expect(try ages(MemberIndexes.members, third.newConnection(), in: 5..<6) == ["m10", "m11", "m5"])
        }
    }

    /// A connection's first transaction, after another instance wrote around the index, refuses
    /// the index as every later transaction does: it has no earlier snapshot to compare with.
    @Test func aNewConnectionSeesThatAnotherInstanceLeftTheIndexStale() throws {
        try withFolder { path in
            let maintaining = try Database(path: path, extensions: [MemberIndexes.members.databaseExtension])
            try maintaining.newConnection().write(Self.members)
            try Database(path: path).newConnection().write(Member(id: "m1", age: 50))
            for connection in [try maintaining.newConnection(), try maintaining.newConnection()] {
                let error = try #require(throws: TroveError.self) {
                    try ages(MemberIndexes.members, connection, in: 0..<2)
                }
                #expect(error.code == .extensionFailed)
            }
            let error = try #require(throws: TroveError.self) {
                try maintaining.read { tx in
                    try MemberIndexes.members.query.filter(.column("age", in: 0..<2)).keys(tx)
                }
            }
            #expect(error.code == .extensionFailed)
        }
    }

    /// Which transaction of the early instance is the first to see the other's registration.
    enum RegistrationSeenBy: CaseIterable, Sendable {
        case theWritingConnection, anotherConnectionReading, aNewConnection, thePool
    }

    // MARK: Unique columns

    @Test func aUniqueViolationNamesTheIndexTheValueAndBothKeysAndRollsBack() throws {
        let database = try makeTemporaryDatabase()
        try database.register(MemberIndexes.byHandle.databaseExtension)
        let connection = try database.newConnection()
        try connection.write(Member(id: "a", age: 1, handle: "ada"))
        let error = try #require(throws: TroveError.self) {
            try connection.write { tx in
                try tx.write(Member(id: "c", age: 3, handle: "cy"))
                try tx.write(Member(id: "b", age: 2, handle: "ada"))
            }
        }
        #expect(error.code == .uniqueViolation)
        #expect(error.extensionName == "members_by_handle")
        #expect(error.key == "b")
        #expect(error.field == "handle")
        #expect(error.message.contains("'ada'") && error.message.contains("'a'") && error.message.contains("'b'"))
        #expect(try connection.read { tx in try tx.keys(of: Member.self) } == ["a"])

        // Caught inside the transaction: the commit throws it again and nothing is stored.
        let caught = try #require(throws: TroveError.self) {
            try connection.write { tx in
                try tx.write(Member(id: "c", age: 3, handle: "cy"))
                _ = try? tx.write(Member(id: "b", age: 2, handle: "ada"))
            }
        }
        #expect(caught.code == .uniqueViolation)
        #expect(try connection.read { tx in try tx.keys(of: Member.self) } == ["a"])

        // nil is never in conflict; a value freed in the same transaction can be taken.
        try connection.write { tx in
            try tx.write(Member(id: "n1", age: 0))
            try tx.write(Member(id: "n2", age: 0))
            try tx.write(Member(id: "a", age: 1, handle: "ada2"))
            try tx.write(Member(id: "b", age: 2, handle: "ada"))
        }
        let byHandle = try connection.read { tx in
            try MemberIndexes.byHandle.query.filter(.column("handle", equals: "ada")).first(tx)
        }
        #expect(byHandle?.id == "b")
    }

    @Test func registeringAUniqueIndexOverDuplicatesFailsAndRegistersNothing() throws {
        let database = try makeTemporaryDatabase()
        try database.newConnection().write([Member(id: "a", age: 1, handle: "x"), Member(id: "b", age: 1, handle: "x")])
        let error = try #require(throws: TroveError.self) { try database.register(MemberIndexes.byHandle.databaseExtension) }
        #expect(error.code == .uniqueViolation)
        #expect(database.registeredExtensions.isEmpty)
        #expect(try tableNames(database.path).filter { $0.hasPrefix("trove_ext_") }.isEmpty)
    }

    // MARK: Errors

    @Test func badNamesAndUnknownColumnsAreClearErrors() throws {
        let database = try makeTemporaryDatabase()
        let badName = SecondaryIndex<Member>("members by age", columns: [.column("age") { $0.age }])
        #expect(throws: TroveError.self) { try database.register(badName.databaseExtension) }
        let badColumn = SecondaryIndex<Member>("bad_column", columns: [.column("rowid") { $0.age }])
        #expect(throws: TroveError.self) { try database.register(badColumn.databaseExtension) }
        let twice = SecondaryIndex<Member>("twice", columns: [.column("age") { $0.age }, .column("AGE") { $0.age }])
        #expect(throws: TroveError.self) { try database.register(twice.databaseExtension) }
        #expect(throws: TroveError.self) {
            try database.register([MemberIndexes.members.databaseExtension, MemberIndexes.members.databaseExtension])
        }
        #expect(database.registeredExtensions.isEmpty)

        let connection = try database.newConnection()
        let unregistered = try #require(throws: TroveError.self) {
            try connection.read { tx in try MemberIndexes.members.query.count(tx) }
        }
        #expect(unregistered.code == .extensionFailed)
        try database.register(MemberIndexes.members.databaseExtension)
        let unknown = try #require(throws: TroveError.self) {
            try connection.read { tx in try MemberIndexes.members.query.filter(.column("height", equals: 1)).count(tx) }
        }
        #expect(unknown.field == "height")
    }

    /// An untyped write of bytes the index cannot decode is stored and left out of the index (see
    /// `BadInputUnreadableItemTests`): one bad item never fails the writes of others.
    @Test func anUntypedWriteThatDoesNotDecodeIsStoredAndLeftOut() throws {
        let database = try makeTemporaryDatabase(extensions: [MemberIndexes.members.databaseExtension])
        let connection = try database.newConnection()
        try connection.write { tx in try tx.setData(Data([0xFF, 0x00]), forKey: "bad", in: Member.collection) }
        #expect(try connection.read { tx in try tx.count(in: Member.collection) } == 1)
        #expect(try connection.read { tx in try MemberIndexes.members.query.count(tx) } == 0)
        let listed = try connection.read { tx in try tx.unreadableItems() }
        #expect(listed.map(\.key) == ["bad"])
        #expect(listed.first?.extensionNames == ["members"])
    }

    // MARK: Registration off the caller's thread

    @Test func asyncRegistrationReportsProgressWhileReadsGoOn() async throws {
        let database = try makeTemporaryDatabase()
        let items = (0..<2_500).map { Member(id: String(format: "m%05d", $0), age: $0 % 50) }
        try await database.newConnection().write(items)
        let reports = ProgressReports()
        let registration = Task {
            try await database.register(MemberIndexes.members.databaseExtension) { reports.append($0) }
        }
        #expect(try await database.newConnection().read { tx in try tx.count(in: Member.collection) } == 2_500)
        #expect(try await registration.value == .created)
        #expect(reports.values == [1_000, 2_000, 2_500])
        let count = try await MemberIndexes.members.query.filter(.column("age", equals: 7)).count(in: database.newConnection())
        #expect(count == 50)
    }

    // MARK: Upgrade

    /// An index kept in the layout of Trove before issue 29 (no copy of the keys in its table,
    /// an SQLite index on each column alone) is rebuilt when the file opens with the same
    /// definition: its fingerprint says so. The old table is made here with half its rows
    /// missing, so that answers from it, had it been kept, would be wrong.
    @Test func anIndexInTheLayoutBeforeKeysWereKeptIsRebuiltOnOpen() throws {
        try withFolder { path in
            let byAge = SecondaryIndex<Member>("by_age", columns: [.column("age") { $0.age }])
            do {
                let database = try Database(path: path, extensions: [byAge.databaseExtension])
                try database.newConnection().write(Self.members)
            }
            try executeRawSQL(
                path: path,
                """
                DROP TABLE trove_ext_by_age;
                CREATE TABLE trove_ext_by_age (rowid INTEGER PRIMARY KEY, "age" INTEGER);
                CREATE INDEX "trove_ext_by_age_age" ON trove_ext_by_age ("age");
                INSERT INTO trove_ext_by_age (rowid, "age")
                    SELECT rowid, 0 FROM trove_items WHERE collection = 'members' AND rowid % 2 = 0;
                UPDATE trove_extensions SET fingerprint = 'secondaryIndex v1 members: age INTEGER' WHERE name = 'by_age';
                """)
            let database = try Database(path: path, extensions: [byAge.databaseExtension])
            let connection = try database.newConnection()
            #expect(try ages(byAge, connection, in: 0..<10) == Self.members.map(\.id))
            #expect(try connection.read { tx in try byAge.query.filter(.column("age", equals: 4)).items(tx) } == [Self.members[4]])
            #expect(try rawQuery(path, "SELECT count(*) FROM trove_ext_by_age WHERE trove_key IS NOT NULL") == ["10"])
        }
    }


    /// A file written by the runtime before extensions existed (schema 1) opens, upgrades in
    /// place, and takes an index over the items it has.
    @Test func aSchemaOneFileUpgradesAndTakesAnIndex() throws {
        try withFolder { path in
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/schema-1.trove")
            try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
            #expect(try userVersion(path) == 1)

            let byText = SecondaryIndex<Note>("notes_by_text", columns: [.column("text") { $0.text }])
            let database = try Database(path: path, extensions: [byText.databaseExtension])
            #expect(try userVersion(path) == 2)
            let connection = try database.newConnection()
            let keys = try connection.read { tx in try byText.query.filter(.column("text", equals: "text 3")).keys(tx) }
            #expect(keys == ["note-03", "note-08", "note-13", "note-18"])
            #expect(try connection.read { tx in try tx.data(forKey: "raw", in: "bytes") } == Data([1, 2, 3]))
        }
    }
}

/// Progress values reported from the registering thread.
private final class ProgressReports: Sendable {
    private let state = Mutex<[Int]>([])
    func append(_ value: Int) { state.withLock { $0.append(value) } }
    var values: [Int] { state.withLock { $0 } }
}

/// The names of the tables of the file at `path`.
func tableNames(_ path: String) throws -> [String] {
    try rawQuery(path, "SELECT name FROM sqlite_master WHERE type = 'table'").map { $0 }
}

/// The schema version of the file at `path`.
func userVersion(_ path: String) throws -> Int {
    Int(try rawQuery(path, "PRAGMA user_version").first ?? "0") ?? 0
}

/// The first column of every row of `sql`, as text, through a raw SQLite handle.
func rawQuery(_ path: String, _ sql: String) throws -> [String] {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
        sqlite3_close_v2(handle)
        throw TroveError(code: .sqlite, message: "raw open failed", path: path)
    }
    defer { sqlite3_close_v2(handle) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
        throw TroveError(code: .sqlite, message: "raw prepare failed", sql: sql, path: path)
    }
    defer { sqlite3_finalize(statement) }
    var rows: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
    }
    return rows
}
