import Foundation
import Synchronization
import Testing
import Trove
import TroveTestSupport

struct MaintenanceTests {
    /// Under the default configuration, a writer that commits steadily while a reader reads
    /// without pause keeps the write-ahead log bounded: SQLite's automatic checkpoints
    /// (``Configuration/walAutocheckpointPages``) start the log over whenever no reader holds it.
    /// The largest size of the log, and how many times it started over, while a steady writer
    /// commits 4,000 times beside a reader that reads in a loop of short transactions, or holds
    /// one snapshot the whole time.
    static func largestWAL(readerHoldsOneSnapshot: Bool) throws -> (largest: Int64, restarts: Int) {
        let configuration = Configuration()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trove-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Database(path: folder.appendingPathComponent("wal.trove").path, configuration: configuration)
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        let stop = Atomic<Bool>(false)
        let readerThread = Thread {
            while !stop.load(ordering: .relaxed) {
                _ = try? reader.read { tx in
                    var count = try tx.count(in: "items")
                    while readerHoldsOneSnapshot && !stop.load(ordering: .relaxed) {
                        usleep(1_000)
                        count = try tx.count(in: "items")
                    }
                    return count
                }
            }
        }
        readerThread.start()
        defer {
            stop.store(true, ordering: .relaxed)
            while !readerThread.isFinished { usleep(1_000) }
        }
        var largest: Int64 = 0
        // SQLite writes new salts into the log's header (bytes 16..<24) each time the log starts over.
        var salts: [Data] = []
        for index in 0..<4_000 {
            // Bytes of their own for each commit: a write of the bytes already stored changes no page.
            let payload = Data(repeating: UInt8(truncatingIfNeeded: index), count: 3_000)
            try writer.write { tx in
                try tx.setData(payload, forKey: "k\(index % 500)", in: "items")
            }
            if index % 50 == 0 {
                // Read from the file system: a handle opened to measure could checkpoint as it closes.
                let attributes = try? FileManager.default.attributesOfItem(atPath: database.path + "-wal")
                largest = max(largest, (attributes?[.size] as? NSNumber)?.int64Value ?? 0)
                if let header = FileManager.default.contents(atPath: database.path + "-wal")?.prefix(24),
                    header.count == 24, header.suffix(8) != salts.last
                {
                    salts.append(Data(header.suffix(8)))
                }
            }
        }
        return (largest, max(salts.count - 1, 0))
    }

    /// 4,000 commits of one 3,000-byte item write more than 4,000 pages (16 MB) to the log. Under
    /// the default configuration, a reader that reads all the time in short transactions leaves
    /// the checkpoints room to start the log over again and again (at most 1,000 pages of commits
    /// apart on a quiet machine), so it stays bounded. The control run, a reader that holds one
    /// snapshot throughout (no checkpoint can pass it), shows that the measures see a log that
    /// never starts over and grows with every commit.
    ///
    /// What bounds the log is that it starts over; its largest size also depends on how the
    /// threads are scheduled (on a loaded machine a restart can come late), so the size is checked
    /// against the control run, the restarts exactly.
    @Test func walStaysBoundedUnderASteadyReaderAndWriter() throws {
        let steady = try Self.largestWAL(readerHoldsOneSnapshot: false)
        let control = try Self.largestWAL(readerHoldsOneSnapshot: true)
        #expect(steady.restarts >= 2, "the log started over \(steady.restarts) times in 4,000 commits")
        #expect(control.restarts == 0, "the log started over behind one long snapshot")
        #expect(control.largest > 4_000 * 4_096, "largest WAL behind one long snapshot: \(control.largest) bytes")
        #expect(
            steady.largest < control.largest * 9 / 10,
            "largest WAL: \(steady.largest) bytes, \(control.largest) behind one long snapshot")
    }

    @Test func checkpointTruncateEmptiesTheLog() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write { tx in
            for index in 0..<100 { try tx.setData(Data(count: 1_000), forKey: "k\(index)", in: "c") }
        }
        #expect(try database.fileSizes().walBytes > 0)
        let result = try database.checkpoint(.truncate)
        #expect(result.isComplete)
        #expect(try database.fileSizes().walBytes == 0)
    }

    @Test func statisticsCountItemsAndBytesPerCollection() throws {
        let database = try makeTemporaryDatabase()
        try database.newConnection().write { tx in
            try tx.setData(Data(count: 10), metadata: Data(count: 3), forKey: "a", in: "x")
            try tx.setData(Data(count: 5), forKey: "b", in: "x")
            try tx.setData(Data(count: 1), forKey: "a", in: "y")
        }
        #expect(
            try database.collectionStatistics() == [
                CollectionStatistics(collection: "x", count: 2, dataBytes: 15, metadataBytes: 3),
                CollectionStatistics(collection: "y", count: 1, dataBytes: 1, metadataBytes: 0),
            ])
    }

    @Test func backupRefusesAnExistingFileAndCopiesEverything() throws {
        let database = try makeTemporaryDatabase()
        try database.newConnection().write { tx in
            for index in 0..<300 { try tx.setData(Data(count: 500), forKey: "k\(index)", in: "c") }
        }
        let folder = try makeTemporaryFolder()
        let copy = folder + "/copy.trove"
        var steps = 0
        try database.backup(to: copy, pagesPerStep: 5) { _ in steps += 1 }
        #expect(steps > 1)
        #expect(throws: TroveError.self) { try database.backup(to: copy) }
        let restored = try Database(path: copy)
        #expect(try restored.newConnection().read { try $0.count(in: "c") } == 300)
        #expect(try restored.integrityCheck().isOK)
    }

    @Test func aReadOnlyDatabaseReadsAndRefusesWrites() throws {
        let folder = try makeTemporaryFolder()
        let path = folder + "/file.trove"
        try Database(path: path).newConnection().write { tx in try tx.setData(Data([1]), forKey: "a", in: "c") }
        var configuration = Configuration()
        configuration.isReadOnly = true
        let database = try Database(path: path, configuration: configuration)
        #expect(try database.newConnection().read { try $0.data(forKey: "a", in: "c") } == Data([1]))
        #expect(throws: TroveError.self) {
            try database.newConnection().write { tx in try tx.setData(Data([2]), forKey: "b", in: "c") }
        }
        #expect(throws: TroveError.self) { try Database(path: folder + "/missing.trove", configuration: configuration) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/missing.trove"))
    }
}
