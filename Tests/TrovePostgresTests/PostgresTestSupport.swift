import Foundation
import Logging
import PostgresNIO
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// The server the PostgreSQL tests use: `TROVE_POSTGRES_URL`, as printed by
/// `Scripts/postgres-test-server.sh start`. Without it the tests that need a server skip, saying
/// so; `.ci/run` sets `TROVE_POSTGRES_REQUIRED=1`, which turns a missing server into a failure.
enum TestServer {
    static let url: String? = ProcessInfo.processInfo.environment["TROVE_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    static let isConfigured = url != nil

    static let skipMessage =
        "TROVE_POSTGRES_URL is not set: no PostgreSQL server to test against. Start one with `eval \"$(Scripts/postgres-test-server.sh start)\"`."

    /// The repository's `Scripts/postgres-test-server.sh`.
    static let script: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Scripts/postgres-test-server.sh").path
    }()

    /// A schema name of its own for one test, so that tests running in parallel never meet.
    static func freshSchema() -> String {
        "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }

    /// Opens a store on a fresh schema (or `schema`), with `indexes`.
    static func openStore(
        schema: String? = nil, indexes: [PostgresIndex] = [], _ configure: (inout PostgresStore.Configuration) -> Void = { _ in }
    ) async throws -> PostgresStore {
        var configuration = try PostgresStore.Configuration(url: try #require(url))
        configuration.schema = schema ?? freshSchema()
        configure(&configuration)
        return try await PostgresStore.open(configuration: configuration, indexes: indexes)
    }

    /// Drops the schema of `store` and closes it.
    static func dispose(_ store: PostgresStore) async {
        store.close()
        try? await execute("DROP SCHEMA \"\(store.configuration.schema)\" CASCADE")
    }

    /// Runs `sql` on a connection of its own, behind every store's back.
    static func execute(_ sql: String, url: String? = nil) async throws {
        let configuration = try PostgresStore.Configuration(url: try #require(url ?? Self.url))
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: .disable),
            id: 99, logger: Logger(label: "trove.tests"))
        defer { Task { try? await connection.close() } }
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "trove.tests"))
    }

    /// Runs a shell command, returning its standard output; throws when it fails.
    @discardableResult
    static func shell(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TroveError(code: .misuse, message: "\(arguments.joined(separator: " ")) failed (\(process.terminationStatus))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

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
