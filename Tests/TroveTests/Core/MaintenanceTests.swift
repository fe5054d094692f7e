import Foundation
import Synchronization
import Testing
import Trove
import TroveTestSupport

struct MaintenanceTests {
    /// Under the default configuration, a writer that commits steadily while a reader reads
    /// without pause keeps the write-ahead log bounded: SQLite's automatic checkpoints
    /// (``Configuration/walAutocheckpointPages``) start the log over whenever no reader holds it.
    @Test func walStaysBoundedUnderASteadyReaderAndWriter() throws {
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        let stop = Atomic<Bool>(false)
        let maximumWAL = Atomic<Int64>(0)
        let readerThread = Thread {
            while !stop.load(ordering: .relaxed) {
                _ = try? reader.read { tx in try tx.count(in: "items") }
            }
        }
        readerThread.start()
        let payload = Data(repeating: 42, count: 3_000)
        for index in 0..<4_000 {
            try writer.readWrite { tx in
                try tx.setData(payload, forKey: "k\(index % 500)", in: "items")
            }
            if index % 50 == 0 {
                // Read from the file system: a handle opened to measure could checkpoint as it closes.
                let attributes = try? FileManager.default.attributesOfItem(atPath: database.path + "-wal")
                let wal = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
                if wal > maximumWAL.load(ordering: .relaxed) { maximumWAL.store(wal, ordering: .relaxed) }
            }
        }
        stop.store(true, ordering: .relaxed)
        while !readerThread.isFinished { usleep(1_000) }
        // 4,000 commits of one 3,000-byte item write more than 4,000 pages: without checkpoints
        // the log would pass 16 MB. The automatic checkpoint runs at 1,000 pages (4 MB).
        let bound: Int64 = 3 * 1_000 * 4_096
        #expect(maximumWAL.load(ordering: .relaxed) < bound, "largest WAL: \(maximumWAL.load(ordering: .relaxed)) bytes")
    }

    @Test func checkpointTruncateEmptiesTheLog() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.readWrite { tx in
            for index in 0..<100 { try tx.setData(Data(count: 1_000), forKey: "k\(index)", in: "c") }
        }
        #expect(try database.fileSizes().walBytes > 0)
        let result = try database.checkpoint(.truncate)
        #expect(result.isComplete)
        #expect(try database.fileSizes().walBytes == 0)
    }

    @Test func statisticsCountItemsAndBytesPerCollection() throws {
        let database = try makeTemporaryDatabase()
        try database.newConnection().readWrite { tx in
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
        try database.newConnection().readWrite { tx in
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
        #expect(try restored.integrityCheck() == [])
    }

    @Test func aReadOnlyDatabaseReadsAndRefusesWrites() throws {
        let folder = try makeTemporaryFolder()
        let path = folder + "/file.trove"
        try Database(path: path).newConnection().readWrite { tx in try tx.setData(Data([1]), forKey: "a", in: "c") }
        var configuration = Configuration()
        configuration.isReadOnly = true
        let database = try Database(path: path, configuration: configuration)
        #expect(try database.newConnection().read { try $0.data(forKey: "a", in: "c") } == Data([1]))
        #expect(throws: TroveError.self) {
            try database.newConnection().readWrite { tx in try tx.setData(Data([2]), forKey: "b", in: "c") }
        }
        #expect(throws: TroveError.self) { try Database(path: folder + "/missing.trove", configuration: configuration) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/missing.trove"))
    }
}
