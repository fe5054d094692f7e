import ArgumentParser
import Foundation
import Hummingbird
import Logging
import TrovePostgres
import TroveSyncServer

/// One credential of the server: `--token alice=secret-a:team,home` is the token `secret-a`,
/// principal `alice`, granted the partitions `team` and `home`.
struct TokenGrant: ExpressibleByArgument, Sendable {
    /// Who the token belongs to.
    var principal: String
    /// The bearer token.
    var token: String
    /// The partitions it may push to and pull from.
    var partitions: Set<String>

    init?(argument: String) {
        // principal=token:partition[,partition…]
        guard let equals = argument.firstIndex(of: "="),
            let colon = argument[equals...].firstIndex(of: ":")
        else { return nil }
        principal = String(argument[..<equals])
        token = String(argument[argument.index(after: equals)..<colon])
        partitions = Set(argument[argument.index(after: colon)...].split(separator: ",").map(String.init))
        guard !principal.isEmpty, !token.isEmpty, !partitions.isEmpty else { return nil }
    }
}

/// `trove-sync-server --postgres URL --port 8080 --token alice=secret-a:team`: the sync routes
/// of `TroveSyncServer` at `/sync`, on a PostgreSQL store, until SIGINT or SIGTERM.
@main
struct TroveSyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trove-sync-server",
        abstract: "A Trove sync server: replicas push and pull at http://HOST:PORT/sync.",
        discussion: """
            Credentials come from --token (repeatable) and from TROVE_SYNC_TOKENS (the same \
            entries, separated by spaces). Each entry is principal=token:partition[,partition…].
            """)

    @Option(help: "The PostgreSQL database, such as postgres://user:password@127.0.0.1:5432/db.")
    var postgres: String

    @Option(help: "The PostgreSQL schema of the server's tables.")
    var schema = "trove_sync"

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: one the system chooses, printed).")
    var port = 8080

    @Option(name: .customLong("token"), help: "A credential: principal=token:partition[,partition…].")
    var tokens: [TokenGrant] = []

    func validate() throws {
        if allGrants().isEmpty {
            throw ValidationError("No credential: give --token principal=token:partition, or TROVE_SYNC_TOKENS.")
        }
    }

    /// The grants of the options and of the environment.
    func allGrants() -> [TokenGrant] {
        let environment = ProcessInfo.processInfo.environment["TROVE_SYNC_TOKENS"] ?? ""
        return tokens + environment.split(separator: " ").compactMap { TokenGrant(argument: String($0)) }
    }

    func run() async throws {
        let grants = Dictionary(allGrants().map { ($0.token, $0) }, uniquingKeysWith: { _, last in last })
        let store = try await PostgresStore.open(url: postgres, schema: schema)
        defer { store.close() }

        let sync = TroveSyncServer(store: store) { request in
            guard let token = request.bearerToken, let grant = grants[token] else { return .unauthenticated }
            return grant.partitions.contains(request.partition) ? .granted(principal: grant.principal) : .denied
        }
        let router = Router()
        router.addRoutes(sync.routes(), atPath: "/sync")

        var logger = Logger(label: "trove-sync-server")
        logger.logLevel = .warning
        let host = host
        let schema = schema
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                // Written at once, not buffered: a script waits for this line.
                let line = "trove-sync-server: listening on http://\(host):\(bound)/sync (PostgreSQL schema \(schema))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: logger)
        // Until SIGINT or SIGTERM, then a graceful shutdown: the requests under way are answered.
        try await app.runService()
    }
}
