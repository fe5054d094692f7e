import Foundation
import Testing
import Trove
import TrovePostgres

/// Bad input and faults: each must end in a clear ``TroveError``, never a hang or a stale read.
struct FaultTests {
    @Test func malformedURLIsMisuse() async throws {
        let error = await #expect(throws: TroveError.self) {
            _ = try await PostgresStore.open(url: "mysql://nobody@nowhere/db")
        }
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("postgres://") == true)
    }

    @Test func serverDownAtStartIsAClearError() async throws {
        // A port nothing listens on: bind one, note it, close it.
        let port = try TestServer.shell([
            "python3", "-c",
            "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1]); s.close()",
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
        let error = await #expect(throws: TroveError.self) {
            _ = try await PostgresStore.open(url: "postgres://trove:trove@127.0.0.1:\(port)/postgres")
        }
        #expect(error?.code == .server)
        #expect(error?.message.contains("could not be reached") == true, "\(String(describing: error))")
        #expect(error?.message.contains("trove@127.0.0.1:\(port)") == true)
    }

    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func wrongCredentialsAreAClearError() async throws {
        var configuration = try PostgresStore.Configuration(url: try #require(TestServer.url))
        configuration.password = "not the password"
        let error = await #expect(throws: TroveError.self) {
            _ = try await PostgresStore.open(configuration: configuration)
        }
        #expect(error?.code == .server)
        #expect(error?.message.contains("refused the user name or password") == true, "\(String(describing: error))")
        #expect(error?.message.contains("not the password") == false, "a message never shows the password")
    }

    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func corruptBytesNameTheItem() async throws {
        let store = try await TestServer.openStore()
        let user = makeUsers(1)[0]
        try await store.write { tx in try await tx.write(user) }
        try await TestServer.execute(
            "UPDATE \"\(store.configuration.schema)\".items SET data = '\\xffffffff'::bytea WHERE key = '\(user.userID.itemKey)'")
        let other = try await TestServer.openStore(schema: store.configuration.schema)
        // A read in a transaction, the one-statement read, and read-all (which keeps each row's
        // key in its bytes until an error names it): each decodes on its own path.
        let reads: [(String, @Sendable (PostgresStore) async throws -> Void)] = [
            ("in a transaction", { store in
                _ = try await store.read { tx in try await tx.read(User.self, key: user.userID) }
            }),
            ("one statement", { store in _ = try await store.read(User.self, key: user.userID) }),
            ("read all", { store in _ = try await store.read { tx in try await tx.readAll(User.self) } }),
        ]
        for (name, read) in reads {
            let error = await #expect(throws: TroveError.self, "\(name)") { try await read(other) }
            #expect(error?.code == .corruptData, "\(name)")
            #expect(error?.collection == "users", "\(name)")
            #expect(error?.key == user.userID.itemKey, "\(name)")
        }
        other.close()
        await TestServer.dispose(store)
    }

    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func newerSchemaIsRefused() async throws {
        let store = try await TestServer.openStore()
        try await TestServer.execute("UPDATE \"\(store.configuration.schema)\".schema_version SET version = 99")
        let error = await #expect(throws: TroveError.self) {
            _ = try await TestServer.openStore(schema: store.configuration.schema)
        }
        #expect(error?.code == .unsupportedSchemaVersion)
        await TestServer.dispose(store)
    }

    /// A server of its own, restarted while a transaction is in flight: that transaction fails
    /// with a clear error (it hung forever before: postgres-nio never answers a statement sent on
    /// a connection that has closed), the pool reconnects, the listener's drop flushes the cache,
    /// and a change made meanwhile by another instance is read, not a stale cached item.
    ///
    /// Bounded: each step fails with ``TimedOut`` instead of hanging when its promise breaks.
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func serverRestartedMidRun() async throws {
        let started = try TestServer.shell([TestServer.script, "start"])
        func value(_ name: String) throws -> String {
            let line = try #require(started.split(separator: "\n").first { $0.contains(name + "=") })
            return String(line.split(separator: "=", maxSplits: 1)[1])
        }
        let url = try value("TROVE_POSTGRES_URL")
        let folder = try value("TROVE_POSTGRES_DATA")
        defer { _ = try? TestServer.shell([TestServer.script, "stop", folder]) }

        let store = try await bounded(.seconds(30), "opening the store") { try await PostgresStore.open(url: url) }
        defer { store.close() }
        let changes = store.changes
        var user = makeUsers(1)[0]
        let original = user
        try await bounded(.seconds(30), "the first write and read") {
            try await store.write { tx in try await tx.write(original) }
            _ = try await store.read { tx in try await tx.read(User.self, key: original.userID) }
        }
        #expect(store.cachedItemCount == 1)

        // A transaction in flight: it has read, and waits, while the server restarts.
        let error = await #expect(throws: TroveError.self) {
            try await bounded(.seconds(60), "the transaction in flight during the restart") {
                try await store.write { tx in
                    _ = try await tx.read(User.self, key: original.userID)
                    try TestServer.shell([TestServer.script, "restart", folder])
                    var changed = original
                    changed.name = "never committed"
                    try await tx.write(changed)
                }
            }
        }
        #expect(error?.code == .server)
        #expect(error?.message.contains("connection to PostgreSQL was lost") == true, "\(String(describing: error))")

        // Another instance changes the item after the restart.
        user.name = "changed by the other"
        let changed = user
        try await bounded(.seconds(30), "the other instance's write") {
            let other = try await PostgresStore.open(url: url)
            defer { other.close() }
            try await other.write { tx in try await tx.write(changed) }
        }

        // The pool reconnects: the first transactions after a restart may meet connections that
        // died with it; a bounded number of attempts, no clock.
        let seen = try await bounded(.seconds(60), "reading after the restart") {
            for _ in 0..<50 {
                do {
                    return try await store.read { tx in try await tx.read(User.self, key: changed.userID) }
                } catch let error as TroveError where error.code == .server {
                    continue
                }
            }
            return nil
        }
        #expect(seen == changed, "the item read after the restart is not the other instance's")
        #expect(seen?.name != "never committed")
        // The listener saw its connection drop and flushed the cache.
        let flushed = try await bounded(.seconds(30), "the flush after the listener's drop") {
            for await change in changes where change.isFlush { return true }
            return false
        }
        #expect(flushed)
    }
}
