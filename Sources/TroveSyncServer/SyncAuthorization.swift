import HTTPTypes

/// What a sync request asks for: what ``TroveSyncServer/authorize`` decides on.
public struct SyncAuthorizationRequest: Sendable {
    /// What a request does.
    public enum Operation: Sendable, Hashable {
        /// Sends a replica's changes.
        case push
        /// Fetches the partition's changes.
        case pull
    }

    /// The partition the request reaches.
    public var partition: String
    /// What the request does.
    public var operation: Operation
    /// The request's headers.
    public var headers: HTTPFields

    /// A request's description.
    ///
    /// - Parameters:
    ///   - partition: The partition the request reaches.
    ///   - operation: What the request does.
    ///   - headers: The request's headers.
    public init(partition: String, operation: Operation, headers: HTTPFields) {
        self.partition = partition
        self.operation = operation
        self.headers = headers
    }

    /// The token of an `Authorization: Bearer <token>` header, or `nil` when there is none.
    public var bearerToken: String? {
        guard let value = headers[.authorization] else { return nil }
        let prefix = "bearer "
        guard value.count > prefix.count, value.prefix(prefix.count).lowercased() == prefix else { return nil }
        let token = value.dropFirst(prefix.count).trimmingSpaces()
        return token.isEmpty ? nil : String(token)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var trimmed = self
        while trimmed.first == " " { trimmed.removeFirst() }
        while trimmed.last == " " { trimmed.removeLast() }
        return trimmed
    }
}

/// What ``TroveSyncServer/authorize`` decides for a request.
public struct SyncAccess: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case granted(principal: String)
        case unauthenticated
        case denied
    }

    let kind: Kind

    /// The request may reach its partition; `principal` names who makes it (a user's identity).
    /// Within a partition, a replica's identity belongs to the first principal that pushes with it.
    ///
    /// - Parameter principal: Who makes the request.
    /// - Returns: The access.
    public static func granted(principal: String) -> SyncAccess {
        SyncAccess(kind: .granted(principal: principal))
    }

    /// The credentials are missing, expired or wrong: answered 401.
    public static let unauthenticated = SyncAccess(kind: .unauthenticated)

    /// The credentials are good but do not grant the partition: answered 403, the same whether
    /// the partition exists or not.
    public static let denied = SyncAccess(kind: .denied)
}
