import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Logging
import PostgresNIO
import Synchronization
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// Fails in CI when no server is configured: there, the PostgreSQL tests must run, never skip.
@Test func postgresServerIsConfiguredWhereRequired() {
    if ProcessInfo.processInfo.environment["TROVE_POSTGRES_REQUIRED"] == "1" {
        #expect(TestServer.isConfigured, "TROVE_POSTGRES_REQUIRED=1 but TROVE_POSTGRES_URL is not set")
    }
}

/// A counter: a hand-written model (Codable coder, no generator), for read-modify-write tests.
struct Tally: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<Tally>
    static let collection = "tallies"
    var id: String
    var value: Int
}

/// Users for the tests: generated model (the showcase `User`), with metadata on most.
func makeUsers(_ count: Int, seed: UInt64 = 42) -> [User] {
    var random = SeededGenerator(seed: seed)
    let nicknames: [String?] = [nil, "ace", "bee", "cat", nil, "dot"]
    return (0..<count).map { number in
        var user = User(
            userID: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", number * 7919))!,
            name: "user \(number)", email: "u\(number)@example.com", age: Int.random(in: 0...60, using: &random))
        user.nickname = nicknames.randomElement(using: &random)!
        user.mainRole = [Role.reader, .editor, .admin].randomElement(using: &random)!
        user.isVerified = Bool.random(using: &random)
        user.rating = Double(Int.random(in: 0...50, using: &random)) / 10
        if number % 4 != 0 {
            let lastSeen =
                number % 3 == 0 ? nil : Date(timeIntervalSince1970: Double(Int.random(in: 0...1000, using: &random)))
            user.stats = UserStats(logins: Int.random(in: 0...20, using: &random), lastSeen: lastSeen)
        }
        return user
    }
}

/// A test step that ran out of its time: the promise it checks broke by hanging.
struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body`, failing with ``TimedOut`` after `limit` instead of hanging: a test must fail,
/// not hang, when the store never answers. `body` runs in a task of its own, cancelled on time
/// out and left behind (a body that ignores cancellation cannot hold the test).
///
/// The limits are far above what the steps take (a bound, not a measurement).
func bounded<T: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = FirstOutcome<T>()
    let work = Task { try await body() }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            outcome.set(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                if let continuation = outcome.take() {
                    work.cancel()
                    continuation.resume(throwing: TimedOut(description: "\(what) did not finish in \(limit)"))
                }
            }
            Task {
                let result = await work.result
                let continuation = outcome.take()
                timer.cancel()
                continuation?.resume(with: result)
            }
        }
    } onCancel: {
        work.cancel()
    }
}

/// The continuation of ``bounded(_:_:_:)``, taken once: by the work or by the timer.
final class FirstOutcome<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func set(_ value: CheckedContinuation<T, any Error>) {
        continuation.withLock { $0 = value }
    }

    func take() -> CheckedContinuation<T, any Error>? {
        continuation.withLock { $0.take() }
    }
}
