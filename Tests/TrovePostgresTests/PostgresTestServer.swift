// The throwaway PostgreSQL server of the tests. The sync server's tests use it too, through a
// symlink (Tests/TroveSyncServerTests/PostgresTestServer.swift): one copy.
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

/// The server the PostgreSQL tests use: `TROVE_POSTGRES_URL`, as printed by
/// `Scripts/postgres-test-server.sh start`; without it, a throwaway server that this process
/// starts with that script on loopback when PostgreSQL's binaries are installed, and stops when it
/// exits. Only when neither is possible do the tests that need a server skip, saying why;
/// `.ci/run` sets `TROVE_POSTGRES_REQUIRED=1`, which turns a missing server into a failure.
enum TestServer {
    static let url: String? = environmentURL ?? ownServer.url

    static let isConfigured = url != nil

    static let skipMessage =
        "No PostgreSQL server to test against: TROVE_POSTGRES_URL is not set, and \(ownServer.failure ?? "none was started"). Install PostgreSQL (apt-get install postgresql), or start a server with `eval \"$(Scripts/postgres-test-server.sh start)\"`."

    private static let environmentURL = ProcessInfo.processInfo.environment["TROVE_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The server this process started (when `TROVE_POSTGRES_URL` is not set), or why it could not.
    private static let ownServer: (url: String?, failure: String?) = {
        guard environmentURL == nil else { return (nil, nil) }
        do {
            let values = try startServer("start", folderVariable: "TROVE_POSTGRES_DATA")
            guard let url = values["TROVE_POSTGRES_URL"] else {
                return (nil, "Scripts/postgres-test-server.sh printed no server")
            }
            return (url, nil)
        } catch {
            return (nil, "no server could be started (\(error))")
        }
    }()

    /// Starts a server with `Scripts/postgres-test-server.sh COMMAND` and returns the variables it
    /// exports; the server is stopped when this process exits (its folder is the value of
    /// `folderVariable`).
    static func startServer(_ command: String, folderVariable: String) throws -> [String: String] {
        let output = try shell([script, command])
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count)
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            values[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
                .trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
        }
        guard let folder = values[folderVariable] else {
            throw failure([script, command], "printed no \(folderVariable)")
        }
        let first = startedFolders.withLock { folders in
            folders.append(folder)
            return folders.count == 1
        }
        if first {
            atexit {
                for folder in TestServer.startedFolders.withLock({ $0 }) {
                    _ = try? TestServer.shell([TestServer.script, "stop", folder])
                }
            }
        }
        return values
    }

    /// The folders of the servers this process started, which it stops when it exits.
    private static let startedFolders = Mutex<[String]>([])

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

    /// Opens a store on a fresh schema (or `schema`), with the secondary indexes of `models` and
    /// `extensions`.
    static func openStore(
        schema: String? = nil, models: [any Persistable.Type] = [], extensions: [DatabaseExtension] = [],
        _ configure: (inout PostgresStore.Configuration) -> Void = { _ in }
    ) async throws -> PostgresStore {
        var configuration = try PostgresStore.Configuration(url: try #require(url))
        configuration.schema = schema ?? freshSchema()
        // Many stores are open at once while the suites run in parallel: a pool of a few
        // connections each keeps them under the server's limit (a test that needs more says so).
        configuration.maximumConnections = 6
        configure(&configuration)
        return try await PostgresStore.open(configuration: configuration, models: models, extensions: extensions)
    }

    /// Runs `body` with a store opened on a fresh schema with `extensions`, then disposes of the
    /// store (``dispose(_:)``), whether `body` throws or not.
    static func withStore<T>(
        extensions: [DatabaseExtension] = [], _ body: (PostgresStore) async throws -> T
    ) async throws -> T {
        let store = try await openStore(extensions: extensions)
        do {
            let result = try await body(store)
            await dispose(store)
            return result
        } catch {
            await dispose(store)
            throw error
        }
    }

    /// Two stores on one fresh schema, with `extensions`: two instances of an app. The first
    /// store's `dispose` drops the schema.
    static func withTwoStores(
        extensions: [DatabaseExtension] = [], _ body: (PostgresStore, PostgresStore) async throws -> Void
    ) async throws {
        let schema = freshSchema()
        let first = try await openStore(schema: schema, extensions: extensions)
        do {
            let second = try await openStore(schema: schema, extensions: extensions)
            defer { second.close() }
            try await body(first, second)
            await dispose(first)
        } catch {
            await dispose(first)
            throw error
        }
    }

    /// Drops the schema of `store` and closes it.
    static func dispose(_ store: PostgresStore) async {
        store.close()
        try? await execute("DROP SCHEMA \"\(store.configuration.schema)\" CASCADE")
    }

    /// Runs `sql` on a connection of its own, behind every store's back (with `tls`, on a
    /// server that takes TLS connections only).
    static func execute(
        _ sql: String, url: String? = nil, tls: PostgresConnection.Configuration.TLS = .disable
    ) async throws {
        let configuration = try PostgresStore.Configuration(url: try #require(url ?? Self.url))
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: tls),
            id: 99, logger: Logger(label: "trove.tests"))
        defer { Task { try? await connection.close() } }
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "trove.tests"))
    }

    /// Runs a command, returning its standard output; throws when it fails.
    ///
    /// With `posix_spawn` and `waitpid`, not Foundation's `Process`, whose `waitUntilExit()`
    /// spins a run loop on a thread of the cooperative pool (while this suite hung, a finished
    /// `postgres-test-server.sh` child was seen left unreaped, a zombie).
    ///
    /// The child gets no descriptor of this process but its standard output: two servers started
    /// at once (the plain and the TLS one) would otherwise each inherit the other's pipe, and a
    /// server, which outlives its script, would hold it open, so that the other reader never saw
    /// its end and waited for ever (seen when the TLS tests came). The pipe is close-on-exec, and
    /// on Linux the child closes every descriptor above 2 (glibc's
    /// `posix_spawn_file_actions_addclosefrom_np`, which also covers pipes opened elsewhere).
    @discardableResult
    static func shell(_ arguments: [String]) throws -> String {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw failure(arguments, "pipe() failed: errno \(errno)") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        #if canImport(Glibc)
            // glibc 2.34 and later; Swift's Glibc module does not import it.
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
                _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            }
        #endif
        let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, environ)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw failure(arguments, "posix_spawn failed: \(spawned)")
        }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // Exited normally with status 0: WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw failure(arguments, "ended with wait status \(status)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func failure(_ arguments: [String], _ reason: String) -> TroveError {
        TroveError(code: .misuse, message: "\(arguments.joined(separator: " ")): \(reason)")
    }
}
