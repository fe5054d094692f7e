import Dispatch
import Foundation
import Testing
import Trove
import TroveTestSupport

struct SnapshotTests {
    /// With few and with many statements on each side of the commit: a read transaction that
    /// runs many statements turns into an explicit transaction on the way, keeping its snapshot.
    @Test(arguments: [0, 3, 6, 7, 8, 30])
    func aReadTransactionKeepsItsSnapshotAcrossAnotherConnectionsCommit(statements: Int) throws {
        let database = try makeTemporaryDatabase()
        let reader = try database.newConnection()
        let writer = try database.newConnection()
        try writer.write(Account(id: 1, balance: 100))

        let readerInside = DispatchSemaphore(value: 0)
        let writerDone = DispatchSemaphore(value: 0)
        let observed = Observed()
        let thread = Thread {
            do {
                try reader.read { tx throws in
                    observed.before = try tx.read(Account.self, key: 1)?.balance
                    observed.dataBefore = try tx.data(forKey: "1", in: Account.collection)
                    for _ in 0..<statements {
                        observed.counts.append(try tx.count(of: Account.self))
                    }
                    readerInside.signal()
                    writerDone.wait()
                    for _ in 0..<statements {
                        observed.counts.append(try tx.count(of: Account.self))
                        observed.data.append(try tx.data(forKey: "1", in: Account.collection))
                    }
                    // Same transaction, after the other connection committed: still the old state,
                    // from the cache and from SQLite alike.
                    observed.after = try tx.read(Account.self, key: 1)?.balance
                    observed.countAfter = try tx.count(of: Account.self)
                }
                observed.nextTransaction = try reader.read { tx in try tx.read(Account.self, key: 1)?.balance }
                observed.nextCount = try reader.read { tx in try tx.count(of: Account.self) }
            } catch {
                observed.error = "\(error)"
                readerInside.signal()  // an error before the signal must not leave the test waiting
            }
            observed.finished.signal()
        }
        thread.start()
        readerInside.wait()
        // The writer is never blocked by the open reader.
        try writer.write { tx throws in
            try tx.write(Account(id: 1, balance: 50))
            try tx.write(Account(id: 2, balance: 50))
        }
        writerDone.signal()
        observed.finished.wait()

        #expect(observed.error == nil)
        #expect(observed.before == 100)
        #expect(observed.after == 100)
        #expect(observed.countAfter == 1)
        #expect(observed.counts == Array(repeating: 1, count: 2 * statements))
        #expect(observed.data.allSatisfy { $0 == observed.dataBefore })
        #expect(observed.nextTransaction == 50)
        #expect(observed.nextCount == 2)
    }
}

/// Values observed on the reader's thread, read after it signalled `finished`.
private final class Observed: @unchecked Sendable {
    // @unchecked because the writer thread reads these only after `finished` is signalled.
    var before: Int?
    var after: Int?
    var countAfter: Int?
    var counts: [Int] = []
    var dataBefore: Data?
    var data: [Data?] = []
    var nextTransaction: Int?
    var nextCount: Int?
    var error: String?
    let finished = DispatchSemaphore(value: 0)
}
