import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// Writes to a collection without indexes are held back and sent in batches (with the next
/// statement, or with the change log's statement before `COMMIT`): whatever a transaction does
/// after them sees them, in order, and what commits is exactly what one write after another
/// would have stored, announced to the other instances like any write.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct HeldBackWriteTests {
    /// Over two full batches of writes in one transaction, with keys written twice (the last
    /// wins), items with and without metadata, and reads, removals and metadata changes of held
    /// rows in the same transaction; then the store holds exactly the model.
    @Test func heldRowsAreSeenInTheirTransactionAndCommitAsWritten() async throws {
        let store = try await TestServer.openStore()
        let users = makeUsers(2_300, seed: 11)
        var model: [UUID: User] = [:]
        try await store.write { tx in
            var random = SeededGenerator(seed: 5)
            for (number, user) in users.enumerated() {
                var user = user
                if number % 3 == 0 { user.stats = nil }
                try await tx.write(user)
                model[user.userID] = user
                // Rewrite an earlier key now and then: written twice before anything is sent.
                if number % 97 == 0 {
                    var again = users[Int.random(in: 0...number, using: &random)]
                    again.name = "rewritten at \(number)"
                    try await tx.write(again)
                    model[again.userID] = again
                }
                // Now and then, a statement between writes: it must see every held row.
                if number % 401 == 400 {
                    let probe = users[Int.random(in: 0...number, using: &random)].userID
                    #expect(try await tx.read(User.self, key: probe) == model[probe], "read of a held row at \(number)")
                    #expect(try await tx.count(of: User.self) == model.count, "count at \(number)")
                }
            }
            // Remove a held row and change the metadata of another, in the same transaction.
            #expect(try await tx.remove(User.self, key: users[2_299].userID))
            model[users[2_299].userID] = nil
            let stats = UserStats(logins: 7, lastSeen: nil)
            #expect(try await tx.setMetadata(stats, for: User.self, key: users[2_298].userID))
            model[users[2_298].userID]?.stats = stats
            // Held rows again, left for the commit's statement.
            for user in users.prefix(5) {
                var changed = user
                changed.age = 123
                try await tx.write(changed)
                model[user.userID] = changed
            }
        }
        let other = try await TestServer.openStore(schema: store.configuration.schema)
        defer { other.close() }
        let expected = model.values.sorted { $0.userID.itemKey < $1.userID.itemKey }
        #expect(try await other.read { tx in try await tx.readAll(User.self) } == expected)
        #expect(try await store.read { tx in try await tx.readAll(User.self) } == expected)
        await TestServer.dispose(store)
    }

    /// A held write of one store reaches the other store's cache: its next read is the new value.
    /// And a body that throws after held writes commits none of them.
    @Test func heldWritesEvictTheOtherInstancesCacheAndRollBack() async throws {
        let first = try await TestServer.openStore()
        let second = try await TestServer.openStore(schema: first.configuration.schema)
        defer { second.close() }
        var user = makeUsers(1, seed: 3)[0]
        try await first.write { tx in try await tx.write(user) }
        for round in 0..<20 {
            // Twice: the second read is served by the cache.
            _ = try await second.read { tx in try await tx.read(User.self, key: user.userID) }
            #expect(try await second.read { tx in try await tx.read(User.self, key: user.userID) } == user)
            #expect(second.cachedItemCount > 0, "the item should be cached, else this proves nothing")
            user.age = round
            let written = user
            try await first.write { tx in try await tx.write(written) }
            #expect(try await second.read { tx in try await tx.read(User.self, key: written.userID) } == written, "round \(round)")
        }
        struct Abandon: Error {}
        var abandoned = user
        abandoned.name = "never committed"
        let written = abandoned
        // The body's own error is what the store throws.
        await #expect(throws: Abandon.self) {
            try await first.write { tx in
                try await tx.write(written)
                throw Abandon()
            }
        }
        #expect(try await second.read { tx in try await tx.read(User.self, key: user.userID) } == user)
        #expect(try await first.read { tx in try await tx.read(User.self, key: user.userID) } == user)
        await TestServer.dispose(first)
    }
}
