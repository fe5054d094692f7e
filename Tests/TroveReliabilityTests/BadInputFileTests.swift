import Foundation
import Testing
import Trove
import TroveCSQLite
import TroveTestSupport

/// Bad paths, damaged files, unknown names and extreme keys and items: each gives a `TroveError`
/// of the right code whose words say what is wrong and name the path, collection or key, without
/// Trove's SQL or table names; or, for the inputs Trove accepts, round-trips exactly.
///
/// Cases that need another user (permissions do not apply to root) run in an exit test as
/// `nobody`, as `BadFileTests` does.
@Suite("Bad input: files, paths and keys")
struct BadInputFileTests {
    // MARK: Paths

    @Test func anEmptyPathIsRefusedAsMisuse() throws {
        // SQLite opens "" as a private temporary database per connection: the second connection
        // found no tables ("no such table: trove_registry").
        let error = try #require(throws: TroveError.self) { try Database(path: "") }
        #expect(error.code == .misuse, "\(error)")
        #expect(error.message.contains("empty path") && error.message.contains("Database.temporary()"), "\(error)")
        #expect(error.path == "")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
    }

    @Test func anInMemoryPathIsRefusedAsMisuse() throws {
        let error = try #require(throws: TroveError.self) { try Database(path: ":memory:") }
        #expect(error.code == .misuse, "\(error)")
        #expect(error.message.contains("':memory:'"), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
    }

    @Test func aMissingFolderIsNamed() throws {
        let folder = "/nonexistent-\(UUID().uuidString)"
        let path = folder + "/db.trove"
        let error = try #require(throws: TroveError.self) { try Database(path: path) }
        #expect(error.code == .sqlite && error.path == path, "\(error)")
        #expect(error.message.contains("The folder '\(folder)' does not exist"), "\(error)")
        #expect(error.message.contains(path), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
    }

    @Test func aFolderGivenAsTheFileIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = try #require(throws: TroveError.self) { try Database(path: folder) }
        #expect(error.code == .notADatabase && error.path == folder, "\(error)")
        #expect(error.message.contains("'\(folder)' is a folder, not a database file"), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "nothing was created in it")
    }

    @Test func aFileWhereTheFolderShouldBeIsNamed() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/notes.txt"
        _ = FileManager.default.createFile(atPath: file, contents: Data("notes".utf8))
        let path = file + "/db.trove"
        let error = try #require(throws: TroveError.self) { try Database(path: path) }
        #expect(error.code == .sqlite && error.path == path, "\(error)")
        #expect(error.message.contains("'\(file)' is a file, not a folder"), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
    }

    @Test func aCharacterDeviceIsRefused() throws {
        // It read as an empty database, then failed with "SQLite error 1034: disk I/O error"
        // quoting the statement that sets the log mode.
        let error = try #require(throws: TroveError.self) { try Database(path: "/dev/null") }
        #expect(error.code == .notADatabase && error.path == "/dev/null", "\(error)")
        #expect(error.message.contains("'/dev/null' is a character device, not a database file"), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
    }

    @Test func aNamedPipeIsRefusedWithoutWaiting() throws {
        // SQLite opened a named pipe and waited for a writer that never came: the open hung. The
        // open runs on a thread of its own, so that a regression fails this test instead of
        // hanging the run.
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/pipe"
        try #require(mkfifo(path, 0o644) == 0)
        for readOnly in [false, true] {
            let configuration = {
                var configuration = Configuration(); configuration.isReadOnly = readOnly; return configuration
            }()
            let outcome = OpenOutcome()
            Thread.detachNewThread {
                do {
                    _ = try Database(path: path, configuration: configuration)
                } catch {
                    outcome.error = error
                }
                outcome.done.signal()
            }
            guard outcome.done.wait(timeout: .now() + 30) == .success else {
                Issue.record(
                    "opening the named pipe (read-only: \(readOnly)) did not return in 30 s: it waits for a writer")
                // Let a read-only open go on: a writer comes and leaves. (A read-write open is its
                // own writer and waits for data; its thread stays blocked until the process ends.)
                close(open(path, O_WRONLY | O_NONBLOCK))
                return
            }
            let error = try #require(outcome.error as? TroveError, "\(String(describing: outcome.error))")
            #expect(error.code == .notADatabase && error.path == path, "\(error)")
            #expect(error.message.contains("'\(path)' is a named pipe"), "\(error)")
            #expect(internalsShown(in: error.description).isEmpty, "\(error)")
        }
    }

    /// What an open on another thread ended with.
    final class OpenOutcome: @unchecked Sendable {
        // @unchecked because `error` is written before `done` is signalled and read after the
        // wait for it returned.
        var error: (any Error)?
        let done = DispatchSemaphore(value: 0)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/version")))
    func aFileInAFolderThatTakesNoNewFilesIsNamed() throws {
        // The issue's `/proc/version`: an empty regular file, read as an empty database, whose
        // folder takes no new file, so the write-ahead log cannot be set up. It said "SQLite error
        // 14: unable to open database file" and quoted the statement that sets the log mode.
        let path = "/proc/version"
        let error = try #require(throws: TroveError.self) { try Database(path: path) }
        #expect(error.path == path, "\(error)")
        // Root may write to the file and the folder, as far as permissions go; another user may not.
        #expect(error.code == (geteuid() == 0 ? .sqlite : .readOnly), "\(error)")
        #expect(
            geteuid() != 0
                || error.message.contains(
                    "The files that the write-ahead log of the database file '/proc/version' needs ('/proc/version-wal' and '/proc/version-shm') cannot be created or opened in its folder '/proc'"
                ), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
    }

    @Test func aMissingFileOpenedReadOnlyIsNamed() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.trove"
        var configuration = Configuration()
        configuration.isReadOnly = true
        let error = try #require(throws: TroveError.self) { try Database(path: path, configuration: configuration) }
        #expect(error.code == .sqlite && error.path == path, "\(error)")
        #expect(error.message.contains("The database file '\(path)' does not exist"), "\(error)")
        #expect(error.message.contains("read-only"), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "nothing was created")
    }

    @Test func anEmptyFileOpenedReadOnlyIsNamed() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.trove"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        var configuration = Configuration()
        configuration.isReadOnly = true
        let error = try #require(throws: TroveError.self) { try Database(path: path, configuration: configuration) }
        #expect(error.code == .notADatabase && error.path == path, "\(error)")
        #expect(error.message.contains("The file '\(path)' is empty"), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
    }

    @Test func aFileRemovedWhileOpenIsNamedByTheNextConnection() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.trove"
        let database = try Database(path: path)
        try FileManager.default.removeItem(atPath: path)
        let error = try #require(throws: TroveError.self) { try database.newConnection() }
        #expect(error.code == .sqlite && error.path == path, "\(error)")
        #expect(error.message.contains("The database file '\(path)' does not exist any more"), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
    }

    #if compiler(>=6.2)
        @Test func aReadOnlyFileRefusesWritesInWords() async {
            // The write threw `readOnly`, quoting Trove's statement on its registry.
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                var scenario = Scenario()
                do {
                    let (folder, path, _) = try BadFileTests.makeFile()
                    chmod(folder, 0o777)
                    chmod(path, 0o444)
                    Scenario.dropPrivileges()
                    let connection = try Database(path: path).newConnection()
                    do {
                        try connection.write(CrashWorkload.groupItem(0, 1))
                        scenario.fail("a write to a read-only file succeeded")
                    } catch let error as TroveError {
                        scenario.check(error.code == .readOnly && error.path == path, "\(error)")
                        scenario.check(
                            error.message.contains("The database file '\(path)' is read-only")
                                && error.message.contains("permissions"), "\(error)")
                        scenario.check(internalsShown(in: error.description).isEmpty, "internals in: \(error)")
                    }
                    Scenario.restorePrivileges()
                    try? FileManager.default.removeItem(atPath: folder)
                } catch {
                    scenario.fail("\(error)")
                }
                scenario.exit()
            }
            recordScenarioFailures(result)
        }

        @Test func anEmptyReadOnlyFileIsRefusedAsReadOnly() async {
            // SQLite opens a file it may not write read-only without a word; Trove then failed
            // to set up the write-ahead log in it.
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                var scenario = Scenario()
                do {
                    let folder = try makeTemporaryFolder()
                    let path = folder + "/db.trove"
                    _ = FileManager.default.createFile(atPath: path, contents: Data())
                    chmod(folder, 0o777)
                    chmod(path, 0o444)
                    Scenario.dropPrivileges()
                    do {
                        _ = try Database(path: path)
                        scenario.fail("an empty read-only file was opened as a database")
                    } catch let error as TroveError {
                        scenario.check(error.code == .readOnly && error.path == path, "\(error)")
                        scenario.check(
                            error.message.contains("The file '\(path)' holds no database yet and is read-only")
                                && error.message.contains("permissions"), "\(error)")
                        scenario.check(internalsShown(in: error.description).isEmpty, "internals in: \(error)")
                    }
                    Scenario.restorePrivileges()
                    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
                    scenario.check(files == ["db.trove"], "the folder holds \(files)")
                    try? FileManager.default.removeItem(atPath: folder)
                } catch {
                    scenario.fail("\(error)")
                }
                scenario.exit()
            }
            recordScenarioFailures(result)
        }

        @Test func aReadOnlyFolderRefusesToCreateTheFile() async {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                var scenario = Scenario()
                do {
                    let folder = try makeTemporaryFolder()
                    chmod(folder, 0o555)
                    Scenario.dropPrivileges()
                    let path = folder + "/db.trove"
                    do {
                        _ = try Database(path: path)
                        scenario.fail("a database was created in a read-only folder")
                    } catch let error as TroveError {
                        scenario.check(error.code == .readOnly && error.path == path, "\(error)")
                        scenario.check(
                            error.message.contains("The folder '\(folder)' is read-only")
                                && error.message.contains(path), "\(error)")
                        scenario.check(internalsShown(in: error.description).isEmpty, "internals in: \(error)")
                    }
                    Scenario.restorePrivileges()
                    chmod(folder, 0o755)
                    try? FileManager.default.removeItem(atPath: folder)
                } catch {
                    scenario.fail("\(error)")
                }
                scenario.exit()
            }
            recordScenarioFailures(result)
        }

        @Test func anUnreadableFileIsNamed() async {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                var scenario = Scenario()
                do {
                    let (folder, path, _) = try BadFileTests.makeFile()
                    chmod(folder, 0o777)
                    chmod(path, 0o000)
                    Scenario.dropPrivileges()
                    do {
                        _ = try Database(path: path)
                        scenario.fail("a file this user may not read was opened")
                    } catch let error as TroveError {
                        scenario.check(error.code == .sqlite && error.path == path, "\(error)")
                        scenario.check(
                            error.message.contains("The database file '\(path)' cannot be read"), "\(error)")
                        scenario.check(internalsShown(in: error.description).isEmpty, "internals in: \(error)")
                    }
                    Scenario.restorePrivileges()
                    try? FileManager.default.removeItem(atPath: folder)
                } catch {
                    scenario.fail("\(error)")
                }
                scenario.exit()
            }
            recordScenarioFailures(result)
        }
    #endif

    // MARK: Damaged files

    /// A closed file of 3,000 items, 9 KB each one in five, in a folder of its own; the pages in
    /// its middle are table pages of the items.
    static func makeLargerFile() throws -> (folder: String, path: String, bytes: Data) {
        let folder = try makeTemporaryFolder()
        let path = folder + "/db.trove"
        do {
            let connection = try Database(path: path).newConnection()
            try connection.write((0..<3_000).map(expectedItem))
        }
        return (folder, path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func expectedItem(_ group: Int) -> CrashItem {
        var item = CrashWorkload.groupItem(group, 0)
        if group % 5 == 0 { item.payload = Data(repeating: UInt8(group % 251), count: 9_000) }
        return item
    }

    /// The bytes of the file with three pages in its middle overwritten with zeros.
    static func damagedInTheMiddle(_ bytes: Data) -> Data {
        let page = 4_096
        var damaged = bytes
        let first = bytes.count / page / 2
        damaged.replaceSubrange((first * page)..<((first + 3) * page), with: Data(count: 3 * page))
        return damaged
    }

    @Test func damagedPagesInTheMiddleAreReportedWhileReading() throws {
        // The issue's case: opening the file and reading every item raised nothing. Here SQLite
        // notices the damage; the error said "SQLite error 11: database disk image is malformed"
        // and quoted the statement.
        let (folder, path, bytes) = try Self.makeLargerFile()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let damaged = Self.damagedInTheMiddle(bytes)
        try damaged.write(to: URL(fileURLWithPath: path))
        let database = try Database(path: path)

        let all = try #require(throws: TroveError.self) {
            try database.newConnection().read { tx in try tx.readAll(CrashItem.self) }
        }
        #expect(all.code == .corruptDatabase && all.path == path, "\(all)")
        #expect(all.collection == CrashItem.collection && all.key == nil, "\(all)")
        #expect(
            all.message.contains("The database file '\(path)' is damaged")
                && all.message.contains("while reading the collection \"crash\"")
                && all.message.contains("trove check"), "\(all)")
        #expect(internalsShown(in: all.description).isEmpty, "\(all)")

        // Items read one by one: those on the damaged pages fail, naming their key.
        var failed: [String] = []
        let connection = try database.newConnection()
        for group in 0..<3_000 {
            let key = CrashWorkload.groupItem(group, 0).id
            do {
                _ = try connection.read { tx in try tx.read(CrashItem.self, key: key) }
            } catch let error as TroveError where error.code == .corruptDatabase {
                failed.append(key)
                #expect(error.key == key && error.collection == CrashItem.collection, "\(error)")
                #expect(
                    error.message.contains("while reading the item \"\(key)\" of the collection \"crash\""), "\(error)")
                #expect(internalsShown(in: error.description).isEmpty, "\(error)")
            }
        }
        #expect(!failed.isEmpty, "no item read by key noticed the damage")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged, "the file was changed")
    }

    @Test func integrityCheckReturnsWhatItFinds() throws {
        let (folder, path, bytes) = try Self.makeLargerFile()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try Database(path: path).integrityCheck() == IntegrityCheckResult(problems: []))
        try Self.damagedInTheMiddle(bytes).write(to: URL(fileURLWithPath: path))
        let result = try Database(path: path).integrityCheck()
        #expect(!result.isOK)
        #expect(!result.problems.isEmpty)
        // SQLite's words, one problem a line, without the heading of the schema.
        #expect(result.problems.allSatisfy { !$0.contains("\n") && !$0.hasPrefix("***") }, "\(result.problems)")
        #expect(result.problems.contains { $0.contains("page") }, "\(result.problems)")
    }

    @Test func aFileThatStopsBeingADatabaseWhileOpenIsDamaged() throws {
        // SQLITE_NOTADB after the file opened as a Trove database: its header was overwritten.
        let (folder, path, bytes) = try Self.makeLargerFile()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Database(path: path)
        var damaged = bytes
        damaged.replaceSubrange(0..<100, with: Data(repeating: 0x41, count: 100))
        try damaged.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: TroveError.self) {
            try database.newConnection().read { tx in try tx.read(CrashItem.self, key: "g1-0") }
        }
        #expect(error.code == .corruptDatabase && error.path == path, "\(error)")
        #expect(error.message.contains("The database file '\(path)' is damaged"), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
    }

    // MARK: Unknown names

    static let edges = Relationships<CrashItem>(
        "crash_edges",
        edges: [
            .to("next", CrashItem.self) { "g\($0.group + 1)-0" },
            .manual("pinned", to: CrashItem.self),
        ])

    @Test func anUnknownRelationshipEdgeThrows() throws {
        // `destinationCount(of:edge:in:)` returned 0 for any unknown edge name.
        let database = try makeTemporaryDatabase(extensions: [Self.edges.databaseExtension])
        let connection = try database.newConnection()
        try connection.write([CrashWorkload.groupItem(1, 0), CrashWorkload.groupItem(2, 0)])
        #expect(try connection.read { tx in try Self.edges.destinations(of: "g1-0", edge: "next", as: CrashItem.self).count(tx) } == 1)
        let queries: [(String, (ReadTransaction) throws -> Void)] = [
            ("destinationKeys", { _ = try Self.edges.destinations(of: "g1-0", edge: "nxet", as: CrashItem.self).keys($0) }),
            ("destinations", { _ = try Self.edges.destinations(of: "g1-0", edge: "nxet", as: CrashItem.self).items($0) }),
            ("destinationCount", { _ = try Self.edges.destinations(of: "g1-0", edge: "nxet", as: CrashItem.self).count($0) }),
            ("sourceKeys", { _ = try Self.edges.sources(pointingTo: "g2-0", edge: "nxet").keys($0) }),
            ("sources", { _ = try Self.edges.sources(pointingTo: "g2-0", edge: "nxet").items($0) }),
            ("sourceCount", { _ = try Self.edges.sources(pointingTo: "g2-0", edge: "nxet").count($0) }),
        ]
        for (name, query) in queries {
            let error = try #require(throws: TroveError.self, "\(name)") { try connection.read(query) }
            #expect(error.code == .extensionFailed && error.extensionName == "crash_edges", "\(name): \(error)")
            #expect(
                error.message
                    == "The relationship 'crash_edges' has no edge named 'nxet'; its edges are 'next', 'pinned'.",
                "\(name): \(error)")
            #expect(error.collection == CrashItem.collection, "\(name): \(error)")
            #expect(internalsShown(in: error.description).isEmpty, "\(name): \(error)")
        }
    }

    // MARK: Extreme keys and items

    /// Writes `data` at each of `keys` (untyped) and a `CrashItem` at each (typed, in its own
    /// collection), then checks that each reads back by key, in `keys(in:)`, in an enumeration and
    /// from a second connection (no cache), and that each removal removes exactly its item.
    static func checkRoundTrip(of keys: [String], data: Data = Data([1, 2, 3])) throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        let collection = "extreme"
        try connection.write { tx in
            for key in keys { try tx.setData(data + Data(key.utf8.prefix(8)), forKey: key, in: collection) }
        }
        var items: [CrashItem] = []
        for (offset, key) in keys.enumerated() {
            var item = CrashWorkload.groupItem(offset, 0)
            item.id = key
            items.append(item)
        }
        try connection.write(items)
        // Compared by their bytes, as SQLite compares keys: Swift's == holds for canonically
        // equivalent strings.
        func bytes(_ keys: [String]) -> [[UInt8]] { keys.map { Array($0.utf8) } }
        let sorted = bytes(keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for reader in [connection, try database.newConnection()] {
            try reader.read { tx in
                #expect(bytes(try tx.keys(in: collection)) == sorted)
                #expect(bytes(try tx.keys(in: CrashItem.collection)) == sorted)
                var enumerated: [String] = []
                try tx.enumerateKeys(in: collection) { key, _ in enumerated.append(key) }
                #expect(bytes(enumerated) == sorted)
                for (key, item) in zip(keys, items) {
                    #expect(try tx.data(forKey: key, in: collection) == data + Data(key.utf8.prefix(8)))
                    #expect(try tx.read(CrashItem.self, key: key) == item, "\(key.debugDescription)")
                }
                #expect(bytes(try tx.readAll(CrashItem.self).map(\.id)) == sorted)
            }
        }
        for (offset, key) in keys.enumerated() {
            let removed = try connection.write { tx in
                (try tx.removeItem(forKey: key, in: collection), try tx.remove(CrashItem.self, key: key))
            }
            #expect(removed == (true, true), "\(key.debugDescription)")
            let left = bytes(Array(keys[(offset + 1)...]).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(bytes(try connection.read { tx in try tx.keys(in: collection) }) == left)
            #expect(bytes(try connection.read { tx in try tx.keys(in: CrashItem.collection) }) == left)
        }
    }

    @Test func aKeyOfOneMegabyteRoundTrips() throws {
        let key = String(repeating: "k", count: 1 << 20)
        try Self.checkRoundTrip(of: [key, String(key.dropLast()) + "l", "k"])
    }

    @Test func anItemOfOneHundredMegabytesRoundTrips() throws {
        let database = try makeTemporaryDatabase()
        var item = CrashWorkload.groupItem(1, 0)
        // A megabyte of varied bytes, 100 times, each time with its number in front.
        let megabyte = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        item.payload = Data(capacity: 100 << 20)
        for number in 0..<100 {
            item.payload.append(UInt8(number))
            item.payload.append(megabyte.dropFirst())
        }
        try database.newConnection().write(item)
        let back = try database.newConnection().read { tx in try tx.read(CrashItem.self, key: item.id) }
        #expect(back == item)
        #expect(try database.newConnection().write { tx in try tx.remove(CrashItem.self, key: item.id) })
    }

    @Test func keysWithNULRoundTrips() throws {
        // Keys are bound with their length, never as C strings: "a\0b" is not "a".
        try Self.checkRoundTrip(of: ["a\0b", "a", "a\0c", "\0", "\0\0"])
    }

    @Test func keysWithDotDotSlashRoundTripAndTouchNoFile() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try FileManager.default.contentsOfDirectory(atPath: (folder as NSString).deletingLastPathComponent)
        try Self.checkRoundTrip(of: ["../x", "../../etc/passwd", "a/../b", "/"])
        let after = try FileManager.default.contentsOfDirectory(atPath: (folder as NSString).deletingLastPathComponent)
        #expect(Set(after).subtracting(before).allSatisfy { $0.hasPrefix("trove-") }, "a key made a file")
    }

    @Test func anEmptyKeyRoundTrips() throws {
        try Self.checkRoundTrip(of: ["", " ", "a"])
    }

    @Test func aKeyOfInvalidUTF16IsRepairedBySwiftAndRoundTrips() throws {
        // Swift cannot hold an unpaired surrogate in a String: decoding one gives U+FFFD, the
        // replacement character, and that is the key stored.
        let key = String(decoding: [0xD800, 0x61, 0xDC00] as [UInt16], as: UTF16.self)
        #expect(key == "\u{FFFD}a\u{FFFD}")
        try Self.checkRoundTrip(of: [key, "a"])
    }

    @Test func canonicallyEquivalentKeysAreTwoItems() throws {
        // Swift's == holds for "caf\u{E9}" and "cafe\u{301}"; SQLite stores two keys. The cache
        // took one for the other: after reading one, reading the other returned the first item.
        try Self.checkRoundTrip(of: ["caf\u{E9}", "cafe\u{301}", "a\u{301}\u{316}", "a\u{316}\u{301}"])
    }

    @Test func anItemPastSQLitesSizeLimitIsRefusedBeforeAnythingIsWritten() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write(CrashWorkload.groupItem(1, 0))
        // Zero bytes that the system maps lazily: binding refuses it before reading it.
        let huge = Data(count: 1_000_000_001)
        let error = try #require(throws: TroveError.self) {
            try connection.write { tx in
                try tx.setData(Data([1]), forKey: "small", in: "c")
                try tx.setData(huge, forKey: "huge", in: "c")
            }
        }
        #expect(error.code == .misuse && error.path == database.path, "\(error)")
        #expect(error.collection == "c" && error.key == "huge", "\(error)")
        #expect(error.message.contains("too big") && error.message.contains("1000000000 bytes"), "\(error)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error)")
        #expect(try connection.read { tx in try tx.keys(in: "c") } == [], "a write of the transaction was stored")
        #expect(try connection.read { tx in try tx.count() } == 1)
    }
}
