import Dispatch
import Foundation
import Testing
import Trove
import TroveTestSupport

/// `database.changes` delivers every commit's changeset in commit order, also when several
/// connections on several threads commit back to back.
struct ChangeOrderTests {
    @Test func changesetsArriveInCommitOrderFromManyConnections() async throws {
        // The loop reads only after every commit: its buffer must hold them all.
        let database = try makeTemporaryDatabase { $0.changesBufferLimit = 100_000 }
        let writers = 4
        let commitsPerWriter = 3_000
        let connections = try (0..<writers).map { _ in try database.newConnection() }
        var iterator = database.changes.makeAsyncIterator()

        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for commit in 0..<commitsPerWriter {
                try? connections[writer].write { tx in
                    try tx.setData(Data([UInt8(truncatingIfNeeded: commit)]), forKey: "\(writer)-\(commit)", in: "c")
                }
            }
        }

        var previous: UInt64 = 0
        var outOfOrder = 0
        for _ in 0..<(writers * commitsPerWriter) {
            let changeset = try #require(await iterator.next())
            if changeset.snapshot != previous + 1 { outOfOrder += 1 }
            previous = changeset.snapshot
        }
        #expect(outOfOrder == 0, "\(outOfOrder) of \(writers * commitsPerWriter) changesets arrived out of order")
        #expect(previous == UInt64(writers * commitsPerWriter))
    }

    /// A subscriber that replays the changesets onto a model of the keys ends with exactly the
    /// keys of the file, although removals of the whole collection race with single writes.
    @Test func replayingTheChangesetsRebuildsTheFile() async throws {
        // The loop reads only after every commit: its buffer must hold them all.
        let database = try makeTemporaryDatabase { $0.changesBufferLimit = 100_000 }
        let writers = 4
        let commitsPerWriter = 1_000
        let connections = try (0..<writers).map { _ in try database.newConnection() }
        var iterator = database.changes.makeAsyncIterator()

        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for commit in 0..<commitsPerWriter {
                try? connections[writer].write { tx in
                    if writer == 0 && commit % 50 == 49 {
                        _ = try tx.removeAllItems(in: "c")
                    } else {
                        try tx.setData(Data([1]), forKey: "\(writer)-\(commit)", in: "c")
                    }
                }
            }
        }

        var model: Set<String> = []
        for _ in 0..<(writers * commitsPerWriter) {
            let changeset = try #require(await iterator.next())
            if changeset.removedAllCollections || changeset.removedCollections.contains("c") {
                model.removeAll()
            }
            model.formUnion(changeset.changedKeys["c"] ?? [])
            model.subtract(changeset.removedKeys["c"] ?? [])
        }
        let stored = try await connections[0].read { tx in try Set(tx.keys(in: "c")) }
        let wrong = model.symmetricDifference(stored)
        #expect(wrong.isEmpty, "the replayed model differs from the file in \(wrong.count) keys")
    }
}
