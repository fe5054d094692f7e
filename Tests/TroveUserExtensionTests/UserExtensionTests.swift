import Foundation
import Testing
import Trove
import TroveTestSupport
import TroveUserExtension

/// An extension written against the public API alone (``Tally``, in a module that imports Trove
/// without `@testable` or SPI) is kept like the built-in ones: it follows every write, typed or
/// untyped, in the writing transaction; it survives reopening, rebuilds on a version change,
/// rolls back with its transaction, and is never half-written by a kill. Its SQL is held to its
/// own tables.
@Suite struct UserExtensionTests {
    /// The brute-force model of a tally: the stored items' groups by key.
    struct Model {
        var groups: [String: Int] = [:]
        var commits = 0

        func totals(version: Int = 1) -> Totals {
            let counted = groups.values.filter { version < 2 || $0 % 2 == 0 }
            return Totals(items: counted.count, total: counted.reduce(0, +), commits: commits)
        }
    }

    static let name = "tally"

    /// Random transactions (typed and untyped writes, metadata writes, touches, removals of keys
    /// and of the whole collection, rollbacks) leave the tally equal to the model after each one,
    /// read from another connection (its cache told of every commit) and from the writer's.
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func followsEveryWriteLikeAModel(seed: UInt64) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tally = Tally<CrashItem>(value: { $0.group })
        let database = try Database(
            path: folder + "/tally.trove", extensions: [tally.databaseExtension(name: Self.name)])
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        var random = SeededGenerator(seed: seed)
        var model = Model()
        for step in 0..<60 {
            var next = model
            var changed = false
            let rollsBack = random.next() % 7 == 0
            do {
                try writer.write { tx in
                    for _ in 0..<(1 + Int(random.next() % 4)) {
                        let key = "k\(random.next() % 12)"
                        let group = Int(random.next() % 50)
                        switch random.next() % 8 {
                        case 0, 1, 2:
                            try tx.write(CrashWorkload.item(id: key, group: group, salt: 1))
                            next.groups[key] = group
                            changed = true
                        case 3:
                            // Untyped: the extension decodes the bytes.
                            let item = CrashWorkload.item(id: key, group: group, salt: 2)
                            try tx.write(item)
                            if let data = try tx.data(forKey: key, in: CrashItem.collection) {
                                try tx.setData(data, forKey: key + "u", in: CrashItem.collection)
                                next.groups[key + "u"] = group
                            }
                            next.groups[key] = group
                            changed = true
                        case 4:
                            if try tx.setMetadata(CrashStamp(group: group, checksum: 0), for: CrashItem.self, key: key) {
                                changed = true
                            }
                        case 5:
                            try tx.touch(key: key, in: CrashItem.collection)
                        case 6:
                            let removed = try tx.remove(CrashItem.self, keys: [key, key + "u"])
                            next.groups[key] = nil
                            next.groups[key + "u"] = nil
                            if removed > 0 { changed = true }
                        default:
                            if random.next() % 4 == 0 {
                                if try tx.removeAll(CrashItem.self) > 0 { changed = true }
                                next.groups.removeAll()
                            }
                        }
                    }
                    if rollsBack { throw RolledBack() }
                }
            } catch is RolledBack {
                next = model
                changed = false
            }
            if changed { next.commits += 1 }
            model = next
            let expected = model.totals()
            let seen = try reader.read { tx in try tally.totals(named: Self.name, in: tx) }
            let seenByWriter = try writer.read { tx in try tally.totals(named: Self.name, in: tx) }
            #expect(seen.items == expected.items && seen.total == expected.total, "seed \(seed) step \(step): \(seen) \(expected)")
            #expect(seenByWriter == seen, "seed \(seed) step \(step)")
            let log = try reader.read { tx in try tally.log(named: Self.name, in: tx) }
            #expect(Set(log.keys) == Set(model.groups.keys), "seed \(seed) step \(step)")
        }
        // A read that nothing changed since is answered by the connection's cache.
        let hitsBefore = try reader.read { tx in try tally.cacheHits(named: Self.name, in: tx) }
        _ = try reader.read { tx in try tally.totals(named: Self.name, in: tx) }
        #expect(try reader.read { tx in try tally.cacheHits(named: Self.name, in: tx) } == hitsBefore + 1)
    }

    /// The tally's transaction state runs once per transaction: the commit count and the log's
    /// commit numbers, the changeset's part, and the did-commit and did-rollback steps.
    @Test func itsTransactionStateRunsAroundEachCommit() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = "tally_state"
        let tally = Tally<CrashItem>(failingKey: "poison", value: { $0.group })
        let database = try Database(path: folder + "/state.trove", extensions: [tally.databaseExtension(name: name)])
        _ = TallyEvents.shared.take(of: name)
        let connection = try database.newConnection()
        // Synchronous writes and reads (the async ones are ambiguous in an async function).
        func write(_ body: (ReadWriteTransaction) throws -> Void) throws { try connection.write(body) }
        func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T { try connection.read(body) }
        try write { tx in
            try tx.write(CrashWorkload.item(id: "a", group: 1, salt: 1))
            try tx.write(CrashWorkload.item(id: "b", group: 2, salt: 1))
        }
        try write { tx in try tx.write(CrashWorkload.item(id: "b", group: 5, salt: 1)) }
        #expect(try read { tx in try tally.totals(named: name, in: tx) } == Totals(items: 2, total: 6, commits: 2))
        #expect(try read { tx in try tally.log(named: name, in: tx) } == ["a": 1, "b": 2])
        let events = TallyEvents.shared.take(of: name)
        #expect(events.count == 2 && events.allSatisfy { $0.hasPrefix("committed \(name) ") }, "\(events)")

        // A will-commit step that throws fails the commit: nothing of the transaction is stored.
        #expect(throws: TroveError.self) {
            try write { tx in
                try tx.write(CrashWorkload.item(id: "c", group: 7, salt: 1))
                try tx.write(CrashWorkload.item(id: "poison", group: 7, salt: 1))
            }
        }
        #expect(try read { tx in try tx.read(CrashItem.self, key: "c") } == nil)
        #expect(try read { tx in try tally.totals(named: name, in: tx) } == Totals(items: 2, total: 6, commits: 2))
        #expect(TallyEvents.shared.take(of: name) == ["rolled back \(name)"])

        // The extension's part of the changeset reaches the database's observers.
        var changes = database.changes.makeAsyncIterator()
        try write { tx in try tx.write(CrashWorkload.item(id: "d", group: 3, salt: 1)) }
        let changeset = await changes.next()
        #expect(changeset?.extensionNotes[name] == ["1 keys"], "\(String(describing: changeset))")
    }

    /// The tally survives closing and reopening (registering it again does no work), rebuilds for
    /// a new version (whose definition counts differently), and is rebuilt after another
    /// instance that does not register it wrote its collection.
    @Test func itSurvivesReopenVersionChangeAndAnotherWriter() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/reopen.trove"
        let version1 = Tally<CrashItem>(value: { $0.group })
        var model = Model()
        do {
            let database = try Database(path: path, extensions: [version1.databaseExtension(name: Self.name)])
            try database.newConnection().write { tx in
                for n in 0..<30 {
                    try tx.write(CrashWorkload.item(id: "i\(n)", group: n, salt: 1))
                    model.groups["i\(n)"] = n
                }
            }
            model.commits = 1
        }
        do {
            let database = try Database(path: path)
            #expect(try database.register(version1.databaseExtension(name: Self.name)) == .unchanged)
            #expect(try database.newConnection().read { tx in try version1.totals(named: Self.name, in: tx) } == model.totals())
        }
        // Another instance, without the tally, writes the collection: the tally is stale, refused,
        // then rebuilt by the next write of an instance that registers it.
        try Database(path: path).newConnection().write { tx in
            try tx.write(CrashWorkload.item(id: "other", group: 100, salt: 1))
        }
        model.groups["other"] = 100
        do {
            let database = try Database(path: path)
            #expect(try database.register(version1.databaseExtension(name: Self.name)) == .rebuilt)
            let totals = try database.newConnection().read { tx in try version1.totals(named: Self.name, in: tx) }
            #expect(totals.items == model.groups.count && totals.total == model.totals().total)
        }
        let version2 = Tally<CrashItem>(version: 2, value: { $0.group })
        let database = try Database(path: path)
        #expect(try database.register(version2.databaseExtension(name: Self.name)) == .rebuilt)
        let totals = try database.newConnection().read { tx in try version2.totals(named: Self.name, in: tx) }
        let expected = model.totals(version: 2)
        #expect(totals.items == expected.items && totals.total == expected.total, "\(totals) \(expected)")
        #expect(try database.unregister(Self.name))
        #expect(throws: TroveError.self) {
            try database.newConnection().read { tx in try version2.totals(named: Self.name, in: tx) }
        }
    }

    /// A process killed with SIGKILL while it writes with the tally registered leaves the tally
    /// equal to the items it stored, at every kill: the tally and the items commit together, and
    /// every acknowledged commit is there.
    @Test func aKilledWriterLeavesTheTallyInStepWithTheItems() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/killed.trove"
        var acknowledged = -1
        for round in 0..<4 {
            let child = try CrashWriterProcess(mode: "tally", path: path)
            let target = acknowledged + 20 + round * 15
            let reached = child.waitForLine(timeout: .seconds(60)) { $0 == "committed \(target)" }
            if let problem = child.sigkill() {
                Issue.record("round \(round): \(problem)")
                return
            }
            #expect(reached, "round \(round): the child never reached commit \(target): \(child.lines.suffix(3))")
            acknowledged = child.lines.compactMap { $0.hasPrefix("committed ") ? Int($0.dropFirst(10)) : nil }.max()
                ?? acknowledged
            let database = try Database(path: path)
            #expect(try database.integrityCheck().isOK, "round \(round)")
            #expect(try database.register(TallyWorkload.tally.databaseExtension(name: TallyWorkload.name)) == .unchanged)
            try database.newConnection().read { tx in
                let items = try tx.readAll(CrashItem.self)
                let totals = try TallyWorkload.tally.totals(named: TallyWorkload.name, in: tx)
                #expect(totals.items == items.count, "round \(round)")
                #expect(totals.total == items.map(\.group).reduce(0, +), "round \(round)")
                #expect(
                    Set(try TallyWorkload.tally.log(named: TallyWorkload.name, in: tx).keys) == Set(items.map(\.id)),
                    "round \(round)")
                // Every acknowledged commit is stored: the item of the last one is there.
                #expect(try tx.read(CrashItem.self, key: "t-\(acknowledged)") != nil, "round \(round)")
            }
        }
    }

    /// An extension's SQL may use its own tables only: another table, a transaction statement or
    /// a write in a read is refused before it runs, with an error that names the extension.
    @Test func itsSQLIsHeldToItsOwnTables() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Database(path: folder + "/narrow.trove")
        for statement in Trespass.Statement.allCases {
            let trespass = Trespass(statement: statement)
            let error = #expect(throws: TroveError.self) {
                try database.register(DatabaseExtension(name: "trespass", version: 1, implementation: trespass))
            }
            #expect(error?.code == .misuse, "\(statement)")
            #expect(error?.extensionName == "trespass", "\(statement)")
            #expect(error?.message.contains(statement.refusal) == true, "\(statement): \(error?.message ?? "")")
        }
        // Nothing of the refused registrations is in the file.
        #expect(database.orphanedExtensions.isEmpty)

        let tally = Tally<CrashItem>(value: { $0.group })
        try database.register(tally.databaseExtension(name: Self.name))
        let error = #expect(throws: TroveError.self) {
            try database.newConnection().read { tx in
                try tx.extensionTables(named: Self.name).select("DELETE FROM trove_ext_\(Self.name)_log") { _ in }
            }
        }
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("it writes in a read transaction") == true, "\(error?.message ?? "")")
        // A table name outside the extension's own is refused at registration.
        let misnamed = #expect(throws: TroveError.self) {
            try database.register(
                DatabaseExtension(name: "misnamed", version: 1, implementation: Trespass(statement: .items, table: "trove_ext_other")))
        }
        #expect(misnamed?.message.contains("begins with 'trove_ext_misnamed'") == true, "\(misnamed?.message ?? "")")
    }
}

/// An extension whose creation runs one statement that an extension may not run.
struct Trespass: ExtensionImplementation {
    enum Statement: CaseIterable {
        case items, otherExtension, begin, savepoint, attach, pragma, trigger

        var sql: String {
            switch self {
            case .items: "SELECT count(*) FROM trove_items"
            case .otherExtension: "CREATE TABLE trove_ext_tally (x)"
            case .begin: "COMMIT"
            case .savepoint: "SAVEPOINT getaway"
            case .attach: "ATTACH DATABASE ':memory:' AS elsewhere"
            case .pragma: "PRAGMA journal_mode = DELETE"
            case .trigger: "CREATE TRIGGER trove_ext_trespass_t AFTER INSERT ON trove_ext_trespass BEGIN SELECT 1; END"
            }
        }

        var refusal: String {
            switch self {
            case .items: "it reads the table 'trove_items'"
            case .otherExtension: "it creates or drops the table 'trove_ext_tally'"
            case .begin, .savepoint: "it begins or ends a transaction"
            case .attach: "it attaches or detaches a database"
            case .pragma: "it runs the pragma 'journal_mode'"
            case .trigger: "a trigger"
            }
        }
    }

    var statement: Statement
    var table: String?

    var kind: String { "trespass" }
    var collection: String { "trespass" }
    var fingerprint: String { "trespass" }

    func tableNames(name: String) -> [String] { [table ?? "trove_ext_\(name)"] }

    func create(name: String, in context: ExtensionContext) throws {
        try context.execute("CREATE TABLE trove_ext_\(name) (x)")
        try context.execute(statement.sql)
    }

    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {}

    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {}
}

/// Thrown to roll a transaction back.
struct RolledBack: Error {}
