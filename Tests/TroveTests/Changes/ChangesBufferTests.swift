import Foundation
import Testing
import TroveTestSupport

@testable import Trove

/// `database.changes` keeps at most `changesBufferLimit` changesets for a loop that does not
/// read: past it, they are replaced by one "missed changes" marker, and the changesets after it
/// arrive normally.
struct ChangesBufferTests {
    @Test(arguments: [1, 10, 37])
    func aLoopThatDoesNotReadHoldsAtMostTheLimit(limit: Int) async throws {
        let database = try makeTemporaryDatabase {
            $0.changesBufferLimit = limit
            $0.externalChangePollingInterval = nil
        }
        let connection = try database.newConnection()
        var changes = database.changes.makeAsyncIterator()
        let commits = limit * 10
        var largest = 0
        for n in 1...commits {
            try syncReadWrite(connection) { tx in try tx.write(Note(id: "k\(n)", text: "")) }
            largest = max(largest, changes.bufferedCount)
        }
        #expect(largest == limit)
        // The last overflow happened at the commit after the last multiple of the limit: the
        // marker stands for everything up to it, then come the commits after it.
        let overflow = commits - limit + 1
        let marker = try #require(await changes.next())
        #expect(marker.reloadReason == .missedChanges)
        #expect(marker.snapshot == UInt64(overflow))
        #expect(!marker.isComplete && marker.contains(Note.self))
        for n in stride(from: overflow + 1, through: commits, by: 1) {
            let changeset = try #require(await changes.next())
            #expect(changeset.isComplete)
            #expect(changeset.snapshot == UInt64(n))
            #expect(changeset.insertedKeys(of: Note.self) == ["k\(n)"])
        }
        #expect(changes.bufferedCount == 0)
        // Then changesets arrive normally.
        try syncReadWrite(connection) { tx in try tx.write(Note(id: "after", text: "")) }
        let after = try #require(await changes.next())
        #expect(after.isComplete && after.insertedKeys(of: Note.self) == ["after"])
    }

    /// A loop that keeps up never sees a marker, and the default limit is 1,000.
    @Test func aLoopThatKeepsUpGetsEveryChangeset() async throws {
        #expect(Configuration().changesBufferLimit == 1_000)
        let database = try makeTemporaryDatabase {
            $0.changesBufferLimit = 3
            $0.externalChangePollingInterval = nil
        }
        let connection = try database.newConnection()
        var changes = database.changes.makeAsyncIterator()
        for n in 1...20 {
            try syncReadWrite(connection) { tx in try tx.write(Note(id: "k", text: "\(n)")) }
            let changeset = try #require(await changes.next())
            #expect(changeset.isComplete && changeset.snapshot == UInt64(n))
        }
    }

    /// A loop ends when the database goes away, and when its task is cancelled.
    @Test func aLoopEndsWithTheDatabase() async throws {
        var database: Database? = try makeTemporaryDatabase()
        var changes = database!.changes.makeAsyncIterator()
        #expect(database!.changeHub.subscriptionCount == 1)
        database = nil
        #expect(await changes.next() == nil)
    }
}
