import TroveCSQLite
import Foundation
import Testing
import Trove
import TroveTestSupport

/// A full disk, simulated two ways: SQLite's page limit (``Configuration/maximumPageCount``),
/// and the operating system's file size limit (`RLIMIT_FSIZE`) in a child process, where
/// `write(2)` itself fails. Either way the failing write throws a `TroveError`, its transaction
/// is rolled back (in the writer's cache too), everything committed before stays readable, and
/// the connection works again once there is room.
@Suite
struct FullDiskTests {
    static func blob(_ key: String, _ size: Int, group: Int = 0) -> CrashItem {
        let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ key.utf8.count) })
        return CrashItem(
            id: key, group: group, payload: payload,
            metadata: CrashStamp(group: group, checksum: CrashWorkload.checksum(payload)))
    }

    @Test func aWritePastThePageLimitFailsAndIsRolledBack() throws {
        let database = try makeTemporaryDatabase { $0.maximumPageCount = 80 }
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        var committed: [String: CrashItem] = [:]
        var failure: TroveError?
        var failedKeys: [String] = []
        for round in 0..<200 {
            let items = (0..<8).map { Self.blob("r\(round)-\($0)", 1_500, group: round) }
            // Each transaction also overwrites an item of the one before, so that a rollback has
            // something to undo in the writer's cache.
            let overwritten = round > 0 ? Self.blob("r\(round - 1)-0", 1_000, group: -round) : nil
            // The reader keeps a cache of everything committed so far.
            _ = try reader.read { tx in try tx.read(CrashItem.self, keys: committed.keys) }
            do {
                try writer.write { tx throws in
                    if let overwritten { try tx.write(overwritten) }
                    try tx.write(items)
                }
                for item in items + [overwritten].compactMap({ $0 }) { committed[item.id] = item }
            } catch let error as TroveError {
                failure = error
                failedKeys = items.map(\.id)
                break
            }
        }
        let error = try #require(failure, "the page limit was never reached")
        #expect(error.sqliteResultCode.map { $0 & 0xFF } == SQLITE_FULL, "\(error)")
        #expect(error.message.contains("full"), "\(error)")
        #expect(committed.count > 8)

        for connection in [writer, reader, try database.newConnection()] {
            try connection.read { tx throws in
                for item in committed.values {
                    #expect(try tx.read(CrashItem.self, key: item.id) == item)
                }
                for key in failedKeys {
                    #expect(try tx.read(CrashItem.self, key: key) == nil)
                }
                #expect(try tx.count(of: CrashItem.self) == committed.count)
            }
        }
        // Room again: removing items frees pages, and the same connection writes again.
        _ = try writer.write { tx in try tx.remove(CrashItem.self, keys: committed.keys.sorted().prefix(16)) }
        try writer.write(Self.blob("after", 1_500))
        #expect(try reader.read(CrashItem.self, key: "after") == Self.blob("after", 1_500))
        #expect(try integrityCheck(path: database.path) == ["ok"])
    }

    /// A transaction that writes (and so caches) items, reads them back from the writer's
    /// cache, then fails: the rollback must take them out of the writer's cache too, or its next
    /// transaction serves values that were never committed.
    @Test func aFailedTransactionLeavesNothingInTheWritersCache() throws {
        let database = try makeTemporaryDatabase { $0.maximumPageCount = 40 }
        let writer = try database.newConnection()
        let original = Self.blob("changed", 100)
        try writer.write([Self.blob("kept", 100), original])
        #expect(try writer.read(CrashItem.self, key: "changed") == original)
        let changed = Self.blob("changed", 200, group: 1)
        let added = Self.blob("added", 100, group: 1)
        do {
            try writer.write { tx throws in
                try tx.write(changed)
                try tx.write(added)
                // Both are in the writer's cache now, and read from it.
                #expect(try tx.read(CrashItem.self, key: "changed") == changed)
                #expect(try tx.read(CrashItem.self, key: "added") == added)
                // Far too large for the file: this statement fails with SQLITE_FULL.
                try tx.write(Self.blob("huge", 400_000))
            }
            Issue.record("a write past the page limit succeeded")
        } catch let error as TroveError {
            #expect(error.sqliteResultCode.map { $0 & 0xFF } == SQLITE_FULL, "\(error)")
        }
        for connection in [writer, try database.newConnection()] {
            #expect(try connection.read(CrashItem.self, key: "changed") == original)
            #expect(try connection.read(CrashItem.self, key: "added") == nil)
            let keys = try connection.read { tx in try tx.readAll(CrashItem.self) }.map(\.id).sorted()
            #expect(keys == ["changed", "kept"])
        }
    }

    @Test func aFailedWriteCaughtInsideTheTransactionLeavesItAllOrNothing() throws {
        let database = try makeTemporaryDatabase { $0.maximumPageCount = 40 }
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        try writer.write([Self.blob("kept", 100), Self.blob("after", 50)])
        // The reader caches the value of "after" that the transaction below changes.
        #expect(try reader.read(CrashItem.self, key: "after") == Self.blob("after", 50))
        var caught: (any Error)?
        var outcome: Result<Void, any Error>
        do {
            try writer.write { tx throws in
                try tx.write(Self.blob("before", 100))
                do {
                    // Far too large for the file: this statement fails.
                    try tx.write(Self.blob("huge", 400_000))
                } catch {
                    caught = error
                }
                try tx.write(Self.blob("after", 100))
            }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        #expect(caught != nil)
        let fresh = try database.newConnection()
        for connection in [writer, reader, fresh] {
            let (keys, after) = try connection.read { tx in
                (try tx.keys(of: CrashItem.self), try tx.read(CrashItem.self, key: "after"))
            }
            switch outcome {
            case .success:
                // The transaction went on without the failed statement: both other writes are in.
                #expect(keys == ["after", "before", "kept"])
                #expect(after == Self.blob("after", 100))
            case .failure(let error):
                // Or SQLite rolled the whole transaction back: then nothing of it is stored, and
                // the error says so.
                #expect(keys == ["after", "kept"], "\(error)")
                #expect(after == Self.blob("after", 50), "\(error)")
                #expect((error as? TroveError)?.message.contains("rolled back") == true, "\(error)")
            }
        }
        #expect(try integrityCheck(path: database.path) == ["ok"])
    }

    #if os(Linux) && compiler(>=6.2)
        @Test func aWriteTheFileSystemRefusesFailsAndIsRolledBack() async {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                var scenario = Scenario()
                do {
                    try FullDiskTests.fileSizeLimitScenario(&scenario)
                } catch {
                    scenario.fail("\(error)")
                }
                scenario.exit()
            }
            recordScenarioFailures(result)
        }

        /// In a child process: limits the size of the files the process may write (`RLIMIT_FSIZE`)
        /// a little above the current size of the database, then writes until the WAL hits it.
        static func fileSizeLimitScenario(_ scenario: inout Scenario) throws {
            signal(SIGXFSZ, SIG_IGN)  // write(2) then fails with EFBIG instead of killing the process
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/db.trove"
            let database = try Database(path: path)
            let writer = try database.newConnection()
            let reader = try database.newConnection()
            var committed: [String: CrashItem] = [:]
            for item in (0..<20).map({ blob("base-\($0)", 2_000) }) { committed[item.id] = item }
            try writer.write(Array(committed.values))

            func size(_ file: String) -> Int {
                ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0
            }
            let limit = max(size(path), size(path + "-wal")) + 96 * 1_024
            var rlimit = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t.max)
            let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
            scenario.check(setrlimit(resource, &rlimit) == 0, "setrlimit failed")

            var failure: TroveError?
            var failedKeys: [String] = []
            for round in 0..<500 {
                let items = (0..<6).map { blob("r\(round)-\($0)", 3_000, group: round) }
                _ = try reader.read { tx in try tx.read(CrashItem.self, keys: committed.keys) }
                do {
                    try writer.write { tx throws in try tx.write(items) }
                    for item in items { committed[item.id] = item }
                } catch let error as TroveError {
                    failure = error
                    failedKeys = items.map(\.id)
                    break
                }
            }
            rlimit.rlim_cur = rlim_t.max
            scenario.check(setrlimit(resource, &rlimit) == 0, "setrlimit failed")
            guard let failure else {
                scenario.fail("no write failed under a file size limit of \(limit) bytes")
                return
            }
            // EFBIG is an I/O error for SQLite (ENOSPC would be SQLITE_FULL).
            let code = failure.sqliteResultCode.map { $0 & 0xFF }
            scenario.check(code == SQLITE_IOERR || code == SQLITE_FULL, "the failed write threw \(failure)")

            for connection in [writer, reader, try database.newConnection()] {
                try connection.read { tx throws in
                    for item in committed.values where try tx.read(CrashItem.self, key: item.id) != item {
                        scenario.fail("\(item.id), committed before the failure, reads differently after it")
                    }
                    for key in failedKeys where try tx.read(CrashItem.self, key: key) != nil {
                        scenario.fail("\(key), written by the failed transaction, is visible")
                    }
                    let count = try tx.count(of: CrashItem.self)
                    scenario.check(count == committed.count, "\(count) items, \(committed.count) committed")
                }
            }
            // Room again: the same connection writes, the other sees it, and the file is sound.
            try writer.write(blob("after", 3_000))
            scenario.check(
                try reader.read(CrashItem.self, key: "after") == blob("after", 3_000),
                "the write after the failure is not visible")
            let check = try integrityCheck(path: path)
            scenario.check(check == ["ok"], "integrity_check: \(check)")
        }
    #endif
}
