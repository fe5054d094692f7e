import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Trove
import TrovePostgres
import TroveSync

/// The server's side of sync: routes to mount in a Hummingbird app, which keep every partition's
/// merged items and change log in a PostgreSQL store, and authorize every request.
///
/// ```swift
/// let store = try await PostgresStore.open(url: databaseURL)
/// let sync = TroveSyncServer(store: store) { request in
///     guard let user = try await sessions.user(forToken: request.bearerToken) else { return .unauthenticated }
///     return request.partition == "user:\(user.id)" ? .granted(principal: user.id) : .denied
/// }
/// let router = Router()
/// router.addRoutes(sync.routes(), atPath: "/sync")
/// ```
///
/// Two routes, under the path the app mounts them at:
/// - `POST {partition}/push`: a replica's pending changes. Each is applied once: the server keeps
///   the last outbox number it applied per replica, so a push sent again after a lost answer, or
///   replayed later, changes nothing. Within a partition, a replica's identity belongs to the
///   principal that first pushed with it. A change stamped more than ``/TroveSync/HybridClock/maximumDrift`` ahead of
///   the server's clock is refused (400): the other replicas would refuse to pull it.
/// - `GET {partition}/pull?after=N&limit=M&wait=S`: the changes logged after `N`, oldest first; when
///   there are none, the answer waits up to `S` seconds for one (long polling).
///
/// Every request is authorized before anything is read, and a pull that waits is authorized again
/// each time it wakes, before it reads what came meanwhile: a partition the credentials do not grant
/// is answered 403, the same whether it exists or not, and nothing of it (keys, counts, numbers)
/// reaches another partition's replicas: each partition's log is numbered on its own.
public struct TroveSyncServer: Sendable {
    /// What a request asks for, for ``authorize``.
    public typealias Authorize = @Sendable (SyncAuthorizationRequest) async throws -> SyncAccess

    /// The store that keeps the partitions.
    public let store: PostgresStore
    /// Decides, for every request, who makes it and whether it may reach its partition. A pull
    /// that waits for changes asks again each time it wakes (at a push, and at least once a
    /// second), so that credentials revoked meanwhile stop it.
    public let authorize: Authorize
    /// The largest push body accepted, in bytes (default 32 MiB): a larger one is answered 413.
    public var maximumPushBytes = 32 << 20
    /// The most changes one pull returns (default 5,000), whatever its `limit`.
    public var maximumPullLimit = 5_000
    /// The longest a pull waits for a change (default 30 s), whatever its `wait`.
    public var maximumPullWait: Duration = .seconds(30)
    /// Where failures of the store are logged; the client is only told that the server failed.
    public var logger = Logger(label: "trove.sync.server")

    package let storage: SyncServerStorage
    let signals = PushSignals()
    private let preparation = Preparation()

    /// A server of the partitions kept in `store`.
    ///
    /// - Parameters:
    ///   - store: The PostgreSQL store; the server's tables go in its schema, created on the first
    ///     request.
    ///   - authorize: Decides, for every request, who makes it (``SyncAccess/granted(principal:)``),
    ///     or answers 401 (``SyncAccess/unauthenticated``) or 403 (``SyncAccess/denied``). What it
    ///     throws is answered 500, and logged.
    public init(store: PostgresStore, authorize: @escaping Authorize) {
        self.store = store
        self.authorize = authorize
        storage = SyncServerStorage(store: store)
    }

    /// The two routes, to add to a router at a path of the app's choosing
    /// (`router.addRoutes(sync.routes(), atPath: "/sync")`).
    ///
    /// - Parameter context: The request context of the app's router.
    /// - Returns: The routes.
    public func routes<Context: RequestContext>(context: Context.Type = BasicRequestContext.self) -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.post(":partition/push") { request, context in
            try await self.handlePush(request, partition: context.parameters.get("partition"))
        }
        routes.get(":partition/pull") { request, context in
            try await self.handlePull(request, partition: context.parameters.get("partition"))
        }
        return routes
    }

    // MARK: Handlers

    private func handlePush(_ request: Request, partition: String?) async throws -> Response {
        let (partition, principal) = try await admit(request, partition: partition, operation: .push)
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maximumPushBytes)
        } catch {
            throw HTTPError(.contentTooLarge, message: "The push is larger than the server accepts (\(maximumPushBytes) bytes): send fewer changes at once.")
        }
        let push: SyncWire.Push
        do {
            push = try SyncWire.decodePush(Array(buffer: body))
        } catch {
            throw HTTPError(.badRequest, message: "The push is not a sync push: \(error)")
        }
        let acknowledged = try await failingSafely("the push") {
            let (acknowledged, logged) = try await storage.push(push, partition: partition, principal: principal)
            if logged > 0 { signals.signal(partition) }
            return acknowledged
        }
        return Self.response(try SyncWire.encodeAcknowledged(acknowledged))
    }

    private func handlePull(_ request: Request, partition: String?) async throws -> Response {
        let (partition, _) = try await admit(request, partition: partition, operation: .pull)
        let query = request.uri.queryParameters
        guard let after = query.get("after", as: Int64.self), after >= 0 else {
            throw HTTPError(.badRequest, message: "A pull needs 'after', the last change it has merged (0 for none).")
        }
        let limit = min(max(1, query.get("limit", as: Int.self) ?? 1_000), maximumPullLimit)
        let wait = min(Duration.seconds(max(0, query.get("wait", as: Int.self) ?? 0)), maximumPullWait)
        let deadline = ContinuousClock.now + wait
        while true {
            let generation = signals.generation(of: partition)
            let pulled = try await failingSafely("the pull") {
                try await storage.pull(partition: partition, after: after, limit: limit)
            }
            let now = ContinuousClock.now
            // A server shutting down answers what it has at once instead of holding the pull:
            // the replica pulls again from the next server.
            if !pulled.changes.isEmpty || now >= deadline || Task.isShuttingDownGracefully {
                return Self.response(try SyncWire.encode(pulled))
            }
            // A push to this server wakes the pull at once; one to another server is seen within
            // a second.
            await signals.wait(for: partition, after: generation, upTo: min(deadline - now, .seconds(1)))
            try Task.checkCancellation()
            // Asked again before reading what came meanwhile: a token revoked while the pull
            // waited gets nothing pushed after its revocation.
            _ = try await admit(request, partition: partition, operation: .pull)
        }
    }

    /// Checks the partition's name and asks ``authorize``; returns the partition and the
    /// principal, or throws the refusal.
    private func admit(_ request: Request, partition: String?, operation: SyncAuthorizationRequest.Operation)
        async throws -> (String, String)
    {
        guard let partition, (try? TroveSync.checkPartition(partition)) != nil else {
            throw HTTPError(.badRequest, message: "The partition's name is not valid.")
        }
        let access: SyncAccess
        do {
            access = try await authorize(
                SyncAuthorizationRequest(partition: partition, operation: operation, headers: request.headers))
        } catch {
            logger.error("The authorization of a sync request failed: \(error)")
            throw HTTPError(.internalServerError, message: "The server could not check the credentials.")
        }
        switch access.kind {
        case .granted(let principal):
            try await failingSafely("to prepare its tables") { try await preparation.prepare(storage) }
            return (partition, principal)
        case .unauthenticated:
            throw HTTPError(
                .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"trove-sync\""],
                message: "The credentials are missing or not valid.")
        case .denied:
            throw Self.forbidden
        }
    }

    /// The refusal of a partition: one answer for every partition, existing or not.
    static let forbidden = HTTPError(.forbidden, message: "The credentials do not grant this partition.")

    /// Runs `body`; the store's failures are logged and answered 500 without their details, and
    /// the refusals of the protocol get their status.
    private func failingSafely<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch SyncServerError.badRequest(let reason) {
            throw HTTPError(.badRequest, message: reason)
        } catch SyncServerError.replicaOfAnotherPrincipal {
            throw Self.forbidden
        } catch SyncServerError.pullFirst {
            throw HTTPError(
                .conflict,
                message: "Another replica changed an item of this push after the replica's last pull: pull, then push again.")
        } catch let error as TroveError where error.code == .corruptData {
            throw HTTPError(.badRequest, message: "The versions sent do not read: \(error.message)")
        } catch {
            logger.error("The sync server failed \(what): \(error)")
            throw HTTPError(.internalServerError, message: "The server failed \(what); try again.")
        }
    }

    private static func response(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: SyncWire.contentType, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// Creates the server's tables once, on the first authorized request; a failure is tried again
/// on the next one.
private final class Preparation: Sendable {
    private let task = Mutex<Task<Void, any Error>?>(nil)

    func prepare(_ storage: SyncServerStorage) async throws {
        let running = task.withLock { task in
            if let task { return task }
            let made = Task { try await storage.prepare() }
            task = made
            return made
        }
        do {
            try await running.value
        } catch {
            task.withLock { if $0 == running { $0 = nil } }
            throw error
        }
    }
}
