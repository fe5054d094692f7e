import TroveCSQLite
import Foundation
import Testing
import Trove
import TroveTestSupport

/// Damaged files and a hostile file system: truncated files, damaged pages, a read-only file, a
/// read-only folder. Each gives a `TroveError` at open or at the operation that fails, never a
/// crash; committed data that can be read stays readable; and Trove never deletes or rewrites
/// anything to "recover". (A file that is not a database, another application's SQLite file and
/// a newer schema version are covered by `OpeningErrorTests`.)
@Suite
struct BadFileTests {
    /// A closed database file of 300 items (61 pages), in a folder of its own.
    static func makeFile() throws -> (folder: String, path: String, bytes: Data) {
        let folder = try makeTemporaryFolder()
        let path = folder + "/db.trove"
        do {
            let connection = try Database(path: path).newConnection()
            try connection.write((0..<300).map { CrashWorkload.groupItem($0, 0) })
        }
        // The last connection closed: SQLite checkpointed the WAL into the file and removed it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["db.trove"])
        return (folder, path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func aTruncatedFileIsRefusedAtOpenAndLeftUntouched() throws {
        let (folder, path, bytes) = try Self.makeFile()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.removeItem(atPath: path)
        let page = 4_096
        for size in [50, 99, 100, page, page + 100, bytes.count / 2, bytes.count - page] {
            let truncated = folder + "/truncated-\(size).trove"
            try bytes.prefix(size).write(to: URL(fileURLWithPath: truncated))
            #expect {
                _ = try Database(path: truncated).newConnection().read { tx in try tx.readAll(CrashItem.self) }
            } throws: { error in
                guard let error = error as? TroveError else { return false }
                return error.code == .corruptDatabase && error.path == truncated
                    && error.sqliteResultCode.map { $0 & 0xFF } == SQLITE_CORRUPT
                    && error.message.contains("The database file '\(truncated)' is damaged")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: truncated)) == bytes.prefix(size), "size \(size)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(files == ["truncated-\(size).trove"], "size \(size): \(files)")
            try FileManager.default.removeItem(atPath: truncated)
        }
    }

    @Test func aFileMissingItsLastByteOpensAndReadsWithoutCrashing() throws {
        let (folder, path, bytes) = try Self.makeFile()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A torn last page: SQLite reads the missing byte as zero. SQLite keeps no checksum of
        // its pages, so when that byte belonged to a value, the value is returned as damaged
        // (RELIABILITY.md, "Limits"). Here it is the last byte of an overflow page of a large
        // payload: the checksum that CrashItem keeps in its metadata shows it.
        try bytes.dropLast().write(to: URL(fileURLWithPath: path))
        let connection = try Database(path: path).newConnection()
        let items = try connection.read { tx in try tx.readAll(CrashItem.self) }
        #expect(items.count == 300)
        let damaged = items.filter { $0 != CrashWorkload.groupItem($0.group, 0) }
        #expect(damaged.count <= 1)
        for item in damaged {
            #expect(CrashWorkload.checksum(item.payload) != item.metadata?.checksum)
        }
    }

    @Test func anEmptyFileIsAnEmptyDatabase() throws {
        // SQLite's convention, which Trove keeps: a zero-byte file holds no data to lose.
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/empty.trove"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let connection = try Database(path: path).newConnection()
        try connection.write(CrashWorkload.groupItem(1, 0))
        #expect(try connection.read { try $0.count() } == 1)
    }

    @Test func damagedPagesGiveErrorsNotCrashes() throws {
        let (folder, _, bytes) = try Self.makeFile()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = 4_096
        var random = SeededGenerator(seed: 0x7E57)
        // Damage each page after the first in turn, with zeros or random bytes, in a copy.
        var errors = 0
        var corruptDatabaseErrors = 0
        for pageIndex in 1..<(bytes.count / page) {
            var damaged = bytes
            let range = (pageIndex * page)..<((pageIndex + 1) * page)
            for offset in range {
                damaged[offset] = pageIndex % 2 == 0 ? 0 : UInt8(truncatingIfNeeded: random.next())
            }
            let copy = folder + "/damaged.trove"
            try damaged.write(to: URL(fileURLWithPath: copy))
            do {
                let connection = try Database(path: copy).newConnection()
                _ = try connection.read { tx in try (tx.readAll(CrashItem.self), tx.count()) }
                // The page was free or its damage fell where SQLite does not look: nothing to report.
            } catch let error as TroveError {
                errors += 1
                // Damage SQLite notices is `corruptDatabase`; damage inside a blob is `corruptData`.
                let isSQLiteCorruption = error.sqliteResultCode.map { $0 & 0xFF } == SQLITE_CORRUPT
                #expect(
                    isSQLiteCorruption ? error.code == .corruptDatabase : error.code == .corruptData,
                    "page \(pageIndex): \(error)")
                if isSQLiteCorruption { corruptDatabaseErrors += 1 }
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == damaged, "page \(pageIndex)")
            for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasPrefix("damaged") {
                try FileManager.default.removeItem(atPath: folder + "/" + file)
            }
        }
        #expect(errors > 0)
        #expect(corruptDatabaseErrors > 0)
    }

    #if compiler(>=6.2)
        @Test func aReadOnlyFileIsReadableAndRefusesWrites() async {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                var scenario = Scenario()
                do {
                    let (folder, path, bytes) = try BadFileTests.makeFile()
                    chmod(folder, 0o777)
                    chmod(path, 0o444)
                    Scenario.dropPrivileges()
                    let database = try Database(path: path)
                    let writer = try database.newConnection()
                    let reader = try database.newConnection()
                    let before = try reader.read { tx in try tx.readAll(CrashItem.self) }
                    scenario.check(before.count == 300, "\(before.count) items read from the read-only file")
                    do {
                        try writer.write { tx in
                            try tx.write(CrashWorkload.groupItem(0, 1))
                            try tx.remove(CrashItem.self, key: "g1-0")
                        }
                        scenario.fail("a write to a read-only file succeeded")
                    } catch let error as TroveError {
                        scenario.check(error.code == .readOnly, "the write threw \(error)")
                        scenario.check(
                            error.message.contains("read-only") || error.message.contains("readonly"), "\(error)")
                    }
                    // SQLite refuses the transaction before anything of it is written, so nothing of
                    // it reached a cache either (a rollback after writes that were cached is
                    // `FullDiskTests.aFailedTransactionLeavesNothingInTheWritersCache`). The
                    // connections keep reading the file as it was.
                    for connection in [writer, reader, try database.newConnection()] {
                        let items = try connection.read { tx in try tx.readAll(CrashItem.self) }
                        scenario.check(items == before, "the items changed after the failed write")
                        let cached = try connection.read { tx in try tx.read(CrashItem.self, key: "g0-1") }
                        scenario.check(cached == nil, "the failed write is visible in a cache")
                    }
                    Scenario.restorePrivileges()
                    scenario.check(
                        try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the read-only file was changed")
                    try? FileManager.default.removeItem(atPath: folder)
                } catch {
                    scenario.fail("\(error)")
                }
                scenario.exit()
            }
            recordScenarioFailures(result)
        }

        @Test func aReadOnlyFolderIsRefusedAtOpenWithAClearError() async {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                var scenario = Scenario()
                do {
                    let (folder, path, bytes) = try BadFileTests.makeFile()
                    chmod(path, 0o666)
                    chmod(folder, 0o555)
                    Scenario.dropPrivileges()
                    do {
                        _ = try Database(path: path).newConnection().read { tx in try tx.count() }
                        scenario.fail("opening a database in a read-only folder succeeded")
                    } catch let error as TroveError {
                        // WAL mode needs to create db.trove-wal and db.trove-shm beside the file.
                        scenario.check(error.code == .readOnly && error.path == path, "\(error)")
                        scenario.check(error.message.contains("folder"), "the error does not name the folder: \(error)")
                    }
                    Scenario.restorePrivileges()
                    scenario.check(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the file was changed")
                    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
                    scenario.check(files == ["db.trove"], "the folder holds \(files)")
                    chmod(folder, 0o755)
                    try? FileManager.default.removeItem(atPath: folder)
                } catch {
                    scenario.fail("\(error)")
                }
                scenario.exit()
            }
            recordScenarioFailures(result)
        }
    #endif
}
