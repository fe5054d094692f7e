/// What a sync client shows the server on every request (``TroveSync``).
///
/// ```swift
/// let sync = try TroveSync(database: database, server: url, credentials: .bearer(token), collections: [Todo.self])
/// // a token that expires: asked for before every request
/// let refreshing = SyncCredentials.bearer { try await session.currentAccessToken() }
/// ```
public struct SyncCredentials: Sendable {
    /// The value of the `Authorization` header, asked for before each request; `nil` sends none.
    let authorization: @Sendable () async throws -> String?

    private init(authorization: @escaping @Sendable () async throws -> String?) {
        self.authorization = authorization
    }

    /// No credentials: for a server whose `authorize` grants by other means (a test, a private network).
    public static let none = SyncCredentials { nil }

    /// A bearer token, sent as `Authorization: Bearer <token>`.
    ///
    /// - Parameter token: The token.
    /// - Returns: The credentials.
    public static func bearer(_ token: String) -> SyncCredentials {
        SyncCredentials { "Bearer \(token)" }
    }

    /// A bearer token asked for before each request, for tokens that expire.
    ///
    /// - Parameter token: Returns the current token; what it throws fails the request, and the
    ///   client tries again later.
    /// - Returns: The credentials.
    public static func bearer(_ token: @escaping @Sendable () async throws -> String) -> SyncCredentials {
        SyncCredentials { "Bearer \(try await token())" }
    }
}
