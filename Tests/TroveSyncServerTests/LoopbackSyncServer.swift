import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing
import Trove
import TrovePostgres
import TroveSync
import TroveSyncServer
import TroveTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A sync server on loopback, as an app runs it: the sync routes of a PostgreSQL store (a fresh
/// schema of the tests' server) in a Hummingbird app listening on a port the system chose.
final class LoopbackSyncServer: Sendable {
    let store: PostgresStore
    let server: TroveSyncServer
    /// The address of the sync routes, such as `http://127.0.0.1:41234/sync`.
    let url: URL
    private let services: ServiceGroup
    private let running: Task<Void, any Error>

    private init(store: PostgresStore, server: TroveSyncServer, url: URL, services: ServiceGroup, running: Task<Void, any Error>) {
        self.store = store
        self.server = server
        self.url = url
        self.services = services
        self.running = running
    }

    /// Starts a server on a fresh schema (or `schema`, to start again on a stopped one's), on a port
    /// the system chooses (or `port`, a stopped one's), which grants everything to principal
    /// `test` unless `authorize` says otherwise; `configure` sets the server's limits before it
    /// serves. With `idleTimeout`, the server closes connections idle that long: a graceful
    /// shutdown waits for idle keep-alive connections to close, so a test that restarts the server
    /// while clients keep connections sets it.
    static func start(
        schema: String? = nil, port: Int = 0, idleTimeout: TimeAmount? = nil,
        authorize: @escaping TroveSyncServer.Authorize = { _ in .granted(principal: "test") },
        configure: (inout TroveSyncServer) -> Void = { _ in }
    ) async throws -> LoopbackSyncServer {
        let store = try await TestServer.openStore(schema: schema)
        var server = TroveSyncServer(store: store, authorize: authorize)
        configure(&server)
        let router = Router()
        router.addRoutes(server.routes(), atPath: "/sync")
        let bound = PortPromise()
        var logger = Logger(label: "trove.sync.tests")
        // Hummingbird logs the cancellation of its child channels as errors when a test stops it.
        logger.logLevel = .critical
        let app = Application(
            router: router, server: .http1(configuration: .init(idleTimeout: idleTimeout)),
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in bound.fulfil(channel.localAddress?.port ?? 0) }, logger: logger)
        // Stopped by a graceful shutdown, as a deployment stops a server: the requests under way
        // are answered first. (Cancelling the app's task instead ends connections in the middle of
        // a request, which SwiftNIO's debug builds stop on.)
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let running = Task { try await services.run() }
        let boundPort = await bound.value
        return LoopbackSyncServer(
            store: store, server: server, url: URL(string: "http://127.0.0.1:\(boundPort)/sync")!, services: services,
            running: running)
    }

    /// Stops the HTTP server and closes the store, keeping the schema (``start(schema:port:authorize:configure:)``
    /// starts again on it).
    func stop() async {
        await services.triggerGracefulShutdown()
        _ = await running.result
        store.close()
    }

    /// Stops the server and drops its schema.
    func dispose() async {
        await services.triggerGracefulShutdown()
        _ = await running.result
        await TestServer.dispose(store)
    }

    /// Sends `body` to `path` (under the sync routes) with `headers`; returns the status and body.
    func send(_ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:]) async throws
        -> (status: Int, body: [UInt8])
    {
        let answer = try await exchange(method, path, body: body, headers: headers)
        return (answer.status, answer.body)
    }

    /// What the server answered: the status, the headers (names in lower case, without `date`,
    /// which changes from one answer to the next) and the body.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        var description: String {
            "\(status) \(headers.sorted { $0.key < $1.key }) \(String(decoding: body, as: UTF8.self).debugDescription)"
        }
    }

    /// Sends `body` to `path` (under the sync routes) with `headers`; returns the whole answer.
    func exchange(_ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:]) async throws
        -> Answer
    {
        var request = URLRequest(url: URL(string: url.absoluteString + "/" + path)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var answerHeaders: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            guard let name = name as? String, name.lowercased() != "date" else { continue }
            answerHeaders[name.lowercased()] = "\(value)"
        }
        return Answer(status: http?.statusCode ?? 0, headers: answerHeaders, body: Array(data))
    }
}

/// The port the server bound, once it is running.
private final class PortPromise: Sendable {
    private let state = Mutex<(port: Int?, waiter: CheckedContinuation<Int, Never>?)>((nil, nil))

    func fulfil(_ port: Int) {
        let waiter = state.withLock { state in
            state.port = port
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: port)
    }

    var value: Int {
        get async {
            await withCheckedContinuation { continuation in
                let port = state.withLock { state -> Int? in
                    if let port = state.port { return port }
                    state.waiter = continuation
                    return nil
                }
                if let port { continuation.resume(returning: port) }
            }
        }
    }
}

/// A replica for the tests: a database file with a sync client.
struct TestReplica {
    let path: String
    let database: Database
    let sync: TroveSync

    /// A replica on a new file in `folder`, syncing `CrashItem`s with `partition` of `server`.
    init(
        _ name: String, in folder: String, server: LoopbackSyncServer, partition: String = "default",
        credentials: SyncCredentials = .none, configuration: TroveSync.Configuration = TroveSync.Configuration(),
        extensions: [DatabaseExtension] = [], policies: [SyncPolicy] = []
    ) throws {
        path = "\(folder)/\(name).trove"
        database = try Database(path: path, extensions: extensions)
        sync = try TroveSync(
            database: database, server: server.url, credentials: credentials, partition: partition,
            collections: [CrashItem.self], policies: policies, configuration: configuration)
    }

    /// The replica's items (``storedFields(of:)``).
    func items() throws -> [String: [UInt32: [UInt8]]] {
        try storedFields(of: database)
    }
}

/// Runs `body` with a server on a fresh schema and replicas named `names` on files of a temporary
/// folder, syncing `CrashItem`s (with `policies`); disposes of the server and the files
/// afterwards, whether `body` throws or not.
func withSyncReplicas(
    _ names: [String], extensions: [DatabaseExtension] = [], policies: [SyncPolicy] = [],
    _ body: (LoopbackSyncServer, [TestReplica]) async throws -> Void
) async throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let server = try await LoopbackSyncServer.start()
    do {
        let replicas = try names.map {
            try TestReplica($0, in: folder, server: server, extensions: extensions, policies: policies)
        }
        try await body(server, replicas)
        await server.dispose()
    } catch {
        await server.dispose()
        throw error
    }
}

/// The `CrashItem`s of a replica's file, by key, as their top-level fields (a merged item's fields
/// come in the order of their numbers, a written one's in the coder's: the fields are what must
/// agree).
func storedFields(of database: Database) throws -> [String: [UInt32: [UInt8]]] {
    try database.read { tx in
        var items: [String: [UInt32: [UInt8]]] = [:]
        for key in try tx.keys(in: CrashItem.collection) {
            if let data = try tx.data(forKey: key, in: CrashItem.collection) {
                items[key] = SyncWorkload.fields(of: Array(data))
            }
        }
        return items
    }
}

extension [ItemAddress: ItemVersions] {
    /// The present items of `collection`, by key, as their top-level fields.
    func presentItems(of collection: String) -> [String: [UInt32: [UInt8]]] {
        var items: [String: [UInt32: [UInt8]]] = [:]
        for (address, versions) in self where address.collection == collection {
            if let bytes = versions.encoded { items[address.key] = SyncWorkload.fields(of: bytes) }
        }
        return items
    }
}
