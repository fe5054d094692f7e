import Foundation
import Testing
import Trove
import TroveTestSupport

struct ChangesTests {
    @Test func eachCommitYieldsItsChangeset() async throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        var iterator = database.changes.makeAsyncIterator()

        try await connection.readWrite { tx throws in
            try tx.write(Note(id: "a", text: "1"))
            try tx.write(Note(id: "b", text: "1"))
        }
        try await connection.readWrite { tx in _ = try tx.remove(Note.self, key: "a") }
        try await connection.readWrite { _ in }  // changes nothing: no changeset
        _ = try await connection.readWrite { tx in try tx.removeAll(Note.self) }

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
        _ = try? await connection.readWrite { tx throws in
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
        try await connection.readWrite { tx throws in
            try tx.touch(key: "t", in: "notes")
            try tx.touch(key: "missing", in: "notes")
        }
        let changeset = try #require(await iterator.next())
        #expect(changeset.changedKeys == ["notes": ["t"]])
    }
}
