import Foundation
import Testing
import Trove
import TroveTestSupport

struct ChangesTests {
    @Test func eachCommitYieldsItsChangeset() async throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        var iterator = database.changes.makeAsyncIterator()

        try await connection.write { tx throws in
            try tx.write(Note(id: "a", text: "1"))
            try tx.write(Note(id: "b", text: "1"))
        }
        try await connection.write { tx in _ = try tx.remove(Note.self, key: "a") }
        try await connection.write { _ in }  // changes nothing: no changeset
        _ = try await connection.write { tx in try tx.removeAll(Note.self) }

        let first = try #require(await iterator.next())
        #expect(first.changedKeys == ["notes": ["a", "b"]])
        #expect(first.containsChange(forKey: "a", in: "notes"))
        #expect(!first.containsChange(in: "people"))
        let second = try #require(await iterator.next())
        #expect(second.removedKeys == ["notes": ["a"]])
        #expect(second.snapshot == first.snapshot + 1)
        let third = try #require(await iterator.next())
        #expect(third.removedCollections == ["notes"])
        #expect(third.snapshot == second.snapshot + 1)
    }

    @Test func rolledBackTransactionsYieldNothing() async throws {
        struct Failure: Error {}
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        var iterator = database.changes.makeAsyncIterator()
        _ = try? await connection.write { tx throws in
            try tx.write(Note(id: "x", text: "never"))
            throw Failure()
        }
        try await connection.write(Note(id: "y", text: "committed"))
        let changeset = try #require(await iterator.next())
        #expect(changeset.changedKeys == ["notes": ["y"]])
    }

    @Test func touchMarksAnExistingItemChanged() async throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try await connection.write(Note(id: "t", text: "x"))
        var iterator = database.changes.makeAsyncIterator()
        try await connection.write { tx throws in
            try tx.touch(key: "t", in: "notes")
            try tx.touch(key: "missing", in: "notes")
        }
        let changeset = try #require(await iterator.next())
        #expect(changeset.changedKeys == ["notes": ["t"]])
    }

    // MARK: How the events of one transaction resolve

    /// Commits `body` and returns its changeset.
    private func changeset(
        of database: Database, _ body: @escaping @Sendable (ReadWriteTransaction) throws -> Void
    ) async throws -> Changeset {
        var iterator = database.changes.makeAsyncIterator()
        try await database.newConnection().write(body)
        return try #require(await iterator.next())
    }

    @Test func aKeyWrittenThenRemovedIsRemoved() async throws {
        let database = try makeTemporaryDatabase()
        let changeset = try await changeset(of: database) { tx in
            try tx.setData(Data([1]), forKey: "k", in: "a")
            try tx.setData(Data([2]), forKey: "other", in: "a")
            try tx.removeItem(forKey: "k", in: "a")
        }
        #expect(changeset.changedKeys == ["a": ["other"]])
        #expect(changeset.removedKeys == ["a": ["k"]])
    }

    @Test func aKeyRemovedThenWrittenIsChanged() async throws {
        let database = try makeTemporaryDatabase()
        try await database.newConnection().write { tx in try tx.setData(Data([1]), forKey: "k", in: "a") }
        let changeset = try await changeset(of: database) { tx in
            try tx.removeItem(forKey: "k", in: "a")
            try tx.setData(Data([2]), forKey: "k", in: "a")
        }
        #expect(changeset.changedKeys == ["a": ["k"]])
        #expect(changeset.removedKeys.isEmpty)
    }

    @Test func keysRepeatedAcrossInterleavedCollectionsAreListedOnce() async throws {
        let database = try makeTemporaryDatabase()
        let changeset = try await changeset(of: database) { tx in
            for round in 0..<3 {
                try tx.setData(Data([UInt8(round)]), forKey: "x", in: "a")
                try tx.setData(Data([UInt8(round)]), forKey: "x", in: "b")
                try tx.setData(Data([UInt8(round)]), forKey: "y\(round)", in: "a")
            }
            try tx.touch(key: "x", in: "a")
        }
        #expect(changeset.changedKeys == ["a": ["x", "y0", "y1", "y2"], "b": ["x"]])
        #expect(changeset.removedKeys.isEmpty)
    }

    @Test func removingACollectionDropsItsEarlierKeysOnly() async throws {
        let database = try makeTemporaryDatabase()
        let changeset = try await changeset(of: database) { tx in
            try tx.setData(Data([1]), forKey: "early", in: "a")
            try tx.removeItem(forKey: "early", in: "a")
            try tx.setData(Data([1]), forKey: "kept", in: "b")
            try tx.setData(Data([1]), forKey: "gone", in: "a")
            try tx.removeAllItems(in: "a")
            try tx.setData(Data([1]), forKey: "late", in: "a")
        }
        #expect(changeset.removedCollections == ["a"])
        #expect(changeset.changedKeys == ["a": ["late"], "b": ["kept"]])
        #expect(changeset.removedKeys.isEmpty)
        #expect(!changeset.removedAllCollections)
    }

    @Test func removingEverythingDropsEverythingEarlier() async throws {
        let database = try makeTemporaryDatabase()
        try await database.newConnection().write { tx in try tx.setData(Data([1]), forKey: "old", in: "c") }
        let changeset = try await changeset(of: database) { tx in
            try tx.setData(Data([1]), forKey: "early", in: "a")
            try tx.removeItem(forKey: "old", in: "c")
            try tx.removeAllItems(in: "b")  // empty: records nothing
            try tx.setData(Data([1]), forKey: "x", in: "b")
            try tx.removeAllItems(in: "b")
            try tx.removeAllItems()
            try tx.setData(Data([1]), forKey: "late", in: "a")
        }
        #expect(changeset.removedAllCollections)
        #expect(changeset.removedCollections.isEmpty)
        #expect(changeset.changedKeys == ["a": ["late"]])
        #expect(changeset.removedKeys.isEmpty)
    }
}
