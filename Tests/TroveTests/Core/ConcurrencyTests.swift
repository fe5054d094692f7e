import Foundation
import Testing
import Trove
import TroveTestSupport

struct ConcurrencyTests {
    @Test func manyTasksWriteThroughSeveralConnectionsWithoutBusyErrors() async throws {
        let database = try makeTemporaryDatabase()
        let connections = try (0..<4).map { _ in try database.newConnection() }
        let tasks = 40
        let writesPerTask = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                let connection = connections[task % connections.count]
                group.addTask {
                    for write in 0..<writesPerTask {
                        try await connection.write { tx throws in
                            try tx.write(Account(id: task * 1_000 + write, balance: write))
                        }
                    }
                }
                group.addTask {
                    // Readers run alongside the writers on the same connections.
                    _ = try await connection.read { tx in try tx.count(of: Account.self) }
                }
            }
            try await group.waitForAll()
        }
        let count = try await connections[0].read { tx in try tx.count(of: Account.self) }
        #expect(count == tasks * writesPerTask)
    }

    @Test func synchronousWritersOnManyThreadsAreSerialized() throws {
        let database = try makeTemporaryDatabase()
        let connections = try (0..<4).map { _ in try database.newConnection() }
        try connections[0].write(Account(id: 0, balance: 0))
        let errors = ErrorLog()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let connection = connections[index % connections.count]
            for _ in 0..<50 {
                do {
                    // Read-modify-write: lost updates would show in the final balance.
                    try connection.write { tx throws in
                        var account = try tx.read(Account.self, key: 0)!
                        account.balance += 1
                        try tx.write(account)
                    }
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        #expect(errors.all.isEmpty)
        #expect(try connections[1].read(Account.self, key: 0)?.balance == 400)
    }
}

final class ErrorLog: @unchecked Sendable {
    // @unchecked because `errors` is only accessed under `lock`.
    private let lock = NSLock()
    private var errors: [String] = []
    func append(_ error: String) { lock.withLock { errors.append(error) } }
    var all: [String] { lock.withLock { errors } }
}
