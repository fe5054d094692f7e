import Foundation
import Testing
import Trove
import TroveTestSupport

struct ConnectionTests {
    @Test func writtenItemsAreReadBackInLaterTransactions() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        let note = Note(id: "a", text: "hello")
        try connection.write { tx in try tx.write(note) }
        #expect(try connection.read { tx in try tx.read(Note.self, key: "a") } == note)
        #expect(try connection.read { tx in try tx.read(Note.self, key: "missing") } == nil)
    }

    @Test func committedItemsSurviveReopeningTheFile() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.trove"
        do {
            let connection = try Database(path: path).newConnection()
            try connection.write([Note(id: "1", text: "one"), Note(id: "2", text: "two")])
        }
        let connection = try Database(path: path).newConnection()
        #expect(try connection.readAll(Note.self) == [Note(id: "1", text: "one"), Note(id: "2", text: "two")])
    }

    @Test func aThrowingBodyRollsBackEverythingItWrote() throws {
        struct Failure: Error {}
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write(Note(id: "kept", text: "before"))
        #expect(throws: Failure.self) {
            try connection.write { tx throws in
                try tx.write(Note(id: "kept", text: "changed"))
                try tx.write(Note(id: "new", text: "never stored"))
                try tx.removeAll(Person.self)
                throw Failure()
            }
        }
        // The connection's own cache must not keep what the rolled-back transaction wrote.
        #expect(try connection.read(Note.self, key: "kept") == Note(id: "kept", text: "before"))
        #expect(try connection.read(Note.self, key: "new") == nil)
        let other = try database.newConnection()
        #expect(try other.read { try $0.count(in: Note.collection) } == 1)
    }

    @Test func aReadThatThrowsRethrowsAndLeavesTheConnectionUsable() throws {
        struct Failure: Error {}
        let connection = try makeTemporaryDatabase().newConnection()
        #expect(throws: Failure.self) {
            try connection.read { _ in throw Failure() }
        }
        try connection.write(Note(id: "x", text: "y"))
        #expect(try connection.read { try $0.count() } == 1)
    }

    @Test func asyncTwinsReadAndWrite() async throws {
        let connection = try makeTemporaryDatabase().newConnection()
        try await connection.write { tx in try tx.write(Note(id: "a", text: "async")) }
        try await connection.write(Note(id: "b", text: "also"))
        let texts = try await connection.read { tx in try tx.readAll(Note.self).map(\.text) }
        #expect(texts == ["async", "also"])
        #expect(try await connection.read(Note.self, key: "b")?.text == "also")
    }

    /// The task cancels itself and then calls Trove, with no suspension point in between that
    /// could throw `CancellationError` first: only Trove's own check can stop the transaction,
    /// and it throws `CancellationError`, as the pool's transactions do.
    @Test func cancelledTaskDoesNotStartATransaction() async throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let read = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await connection.read { tx in try tx.count() }
        }
        await #expect(throws: CancellationError.self) { try await read.value }

        let write = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await connection.write { tx in try tx.write(Note(id: "cancelled", text: "never")) }
        }
        await #expect(throws: CancellationError.self) { try await write.value }
        #expect(try await connection.read(Note.self, key: "cancelled") == nil)
    }

    #if compiler(>=6.2)
    @Test func nestedTransactionOnTheSameConnectionStopsWithAMessage() async {
        await #expect(processExitsWith: .failure) {
            let connection = try! makeTemporaryDatabase().newConnection()
            try! connection.read { _ in
                try! connection.read { _ in }
            }
        }
    }

    @Test func nestedReadWriteOnTheSameDatabaseStopsInsteadOfDeadlocking() async {
        await #expect(processExitsWith: .failure) {
            let database = try! makeTemporaryDatabase()
            let first = try! database.newConnection()
            let second = try! database.newConnection()
            try! first.write { _ in
                try! second.write { _ in }
            }
        }
    }

    @Test func aTransactionUsedAfterItsClosureStopsWithAMessage() async {
        await #expect(processExitsWith: .failure) {
            let connection = try! makeTemporaryDatabase().newConnection()
            let escaped = try! connection.read { $0 }
            _ = try? escaped.count()
        }
    }
    #endif
}
