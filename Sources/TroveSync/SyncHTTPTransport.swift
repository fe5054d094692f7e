import Foundation
import Trove

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP exchanges of a sync client with a ``TroveSync`` server (`TroveSyncServer`): a push and
/// a pull of one partition, with the client's credentials, on Foundation's `URLSession`.
struct SyncHTTPTransport: Sendable {
    /// The server's sync routes, such as `https://example.com/sync`.
    let server: URL
    /// The partition synced.
    let partition: String
    let credentials: SyncCredentials
    let session: URLSession

    init(server: URL, partition: String, credentials: SyncCredentials) {
        self.server = server
        self.partition = partition
        self.credentials = credentials
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// What the server answered a push.
    enum PushAnswer: Sendable, Hashable {
        /// Applied: the outbox number the replica may acknowledge through.
        case acknowledged(Int64)
        /// Refused, nothing applied: a guarded change meets another replica's change that this
        /// one has not pulled (HTTP 409).
        case pullFirst
    }

    /// Sends `push`; returns what the server answered.
    func push(_ push: SyncWire.Push) async throws -> PushAnswer {
        var request = URLRequest(url: server.appendingPathComponent(partition).appendingPathComponent("push"))
        request.httpMethod = "POST"
        request.httpBody = Data(try SyncWire.encode(push))
        request.setValue(SyncWire.contentType, forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = 60
        let (status, body) = try await send(request, doing: "the push of \(push.changes.count) changes", accepting: [409])
        return status == 409 ? .pullFirst : .acknowledged(try SyncWire.decodeAcknowledged(body))
    }

    /// Fetches the changes after `cursor`, at most `limit`; when there are none, the server waits
    /// up to `wait` seconds for one before it answers.
    func pull(after cursor: Int64, limit: Int, wait: Int) async throws -> SyncWire.Pulled {
        var components = URLComponents(
            url: server.appendingPathComponent(partition).appendingPathComponent("pull"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "after", value: String(cursor)), URLQueryItem(name: "limit", value: String(limit)),
            URLQueryItem(name: "wait", value: String(wait)),
        ]
        guard let url = components?.url else {
            throw TroveError(code: .misuse, message: "The sync server's address '\(server)' cannot take a pull's query.")
        }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.timeoutInterval = TimeInterval(wait + 30)
        return try SyncWire.decodePulled(try await send(request, doing: "the pull after \(cursor)").body)
    }

    /// The failures of a connection lost under a request, which a new connection may not meet.
    private static let connectionLost: Set<URLError.Code> = [.networkConnectionLost, .badServerResponse]

    /// Sends `request` with the credentials; returns the status and body of a 200 or of a status
    /// in `accepting`, or throws what the status says.
    private func send(_ request: URLRequest, doing what: String, accepting: Set<Int> = []) async throws -> (
        status: Int, body: [UInt8]
    ) {
        var request = request
        if let authorization = try await credentials.authorization() {
            request.setValue(authorization, forHTTPHeaderField: "Authorization")
        }
        var data = Data()
        var response: URLResponse?
        // A connection the server closed as idle just as it was reused fails the request: sent
        // again once on a new connection. Both requests are safe to repeat (the server applies a
        // push's changes once).
        for attempt in 1...2 {
            do {
                (data, response) = try await session.data(for: request)
                break
            } catch {
                if Task.isCancelled { throw CancellationError() }
                if attempt == 1, let code = (error as? URLError)?.code, Self.connectionLost.contains(code) { continue }
                throw TroveError(
                    code: .server,
                    message: "The sync server at \(server) could not be reached for \(what): \(error.localizedDescription)",
                    underlyingError: error)
            }
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let text = String(decoding: data.prefix(500), as: UTF8.self)
        if status == 200 || accepting.contains(status) { return (status, Array(data)) }
        switch status {
        case 401:
            throw TroveError(
                code: .unauthorized,
                message: "The sync server at \(server) refused the credentials for \(what) (HTTP 401).")
        case 403:
            throw TroveError(
                code: .unauthorized,
                message: "The sync server at \(server) refused access to the partition '\(partition)' for \(what) (HTTP 403).")
        case 400..<500:
            throw TroveError(
                code: .misuse,
                message: "The sync server at \(server) refused \(what) (HTTP \(status)): \(text)")
        default:
            throw TroveError(
                code: .server,
                message: "The sync server at \(server) failed \(what) (HTTP \(status)): \(text)")
        }
    }
}
