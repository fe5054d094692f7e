import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Trove

/// Turns postgres-nio's errors into ``/Trove/TroveError``s that say what failed and where.
enum PostgresErrors {
    /// The SQLSTATE the server sent with `error`, looking through Trove's wrapping.
    static func sqlState(of error: any Error) -> String? {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] }
        if let error = error as? TroveError, let underlying = error.underlyingError { return sqlState(of: underlying) }
        if let error = error as? PostgresTransactionError {
            return error.closureError.flatMap(sqlState) ?? error.commitError.flatMap(sqlState)
        }
        return nil
    }

    /// Whether `error` is a serialization failure or a deadlock: the transaction can run again.
    static func isRetryable(_ error: any Error) -> Bool {
        switch sqlState(of: error) {
        case "40001", "40P01": true
        default: false
        }
    }

    /// Whether `error` says that the connection failed or closed (rather than a statement).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if error is PostgresConnectionClosed { return true }
        if let error = error as? PSQLError {
            return [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed]
                .contains(error.code)
                || ["57P01", "57P02", "57P03"].contains(error.serverInfo?[.sqlState] ?? "")
        }
        if let error = error as? TroveError, let underlying = error.underlyingError { return isConnectionLoss(underlying) }
        return false
    }

    /// The error of a failed first connection: server down, credentials refused, or TLS failed.
    static func connectFailed(_ error: any Error, configuration: PostgresStore.Configuration) -> TroveError {
        let state = sqlState(of: error)
        let serverMessage = (error as? PSQLError)?.serverInfo?[.message]
        let reason: String
        switch state {
        case "28P01": reason = "the server refused the user name or password"
        case "28000" where configuration.tls.mode == .disabled && serverMessage?.hasSuffix("no encryption") == true:
            reason =
                "the server accepts no connection without TLS from this user and address (\(serverMessage ?? "")): set the configuration's tls to .required(certificateAuthority:) (sslmode=verify-full in a URL)"
        case "28000":
            reason = "the server refused the user or the address: \(serverMessage ?? "\(error)")"
        case "3D000": reason = "the database does not exist"
        default:
            if let tlsReason = tlsFailure(error, configuration: configuration) {
                reason = tlsReason
            } else if let error = error as? PSQLError, error.code == .server {
                reason = "the server refused the connection: \(serverMessage ?? "\(error)")"
            } else {
                reason = "the server could not be reached (is it running, and listening on that host and port?)"
            }
        }
        return TroveError(
            code: .server,
            message: "Cannot connect to PostgreSQL at \(configuration.location): \(reason)"
                + (state.map { " (SQLSTATE \($0))" } ?? "") + ".",
            underlyingError: error)
    }

    /// What failed in the TLS negotiation or handshake that `error` reports, in words, or `nil`
    /// when `error` is not about TLS.
    static func tlsFailure(_ error: any Error, configuration: PostgresStore.Configuration) -> String? {
        let tls = configuration.tls
        for cause in causes(of: error) {
            if let error = cause as? PSQLError, error.code == .sslUnsupported {
                return "the server does not offer TLS, and the store's settings require it (\(tls))"
            }
            if let error = cause as? NIOSSLExtraError, error == .failedToValidateHostname {
                return
                    "the server presented a certificate that is not for the name '\(tls.serverName ?? configuration.host)' (\(tls)); set the TLS setting's serverName to the name the certificate is for"
            }
            if let error = cause as? NIOSSLError, case .handshakeFailed(let failure) = error {
                if "\(failure)".contains("CERTIFICATE_VERIFY_FAILED") {
                    return
                        "the server presented a certificate that \(tls.authorityDescription) did not sign, or that has expired or is not yet valid (\(tls))"
                }
                return "the TLS handshake with the server failed (\(tls)): \(failure)"
            }
            if let error = cause as? PSQLError, error.code == .failedToAddSSLHandler {
                return
                    "TLS could not be set up on the connection (\(tls)): \(error.underlying.map { "\($0)" } ?? "\(error)")"
            }
        }
        // Other errors of NIOSSL (an unclean shutdown, say) are a connection lost, not a refusal.
        return nil
    }

    /// `error` and the errors under it, outermost first: postgres-nio's and Trove's wrapping.
    private static func causes(of error: any Error) -> [any Error] {
        var causes: [any Error] = [error]
        while causes.count < 8 {
            let last = causes[causes.count - 1]
            if let error = last as? PSQLError, let underlying = error.underlying {
                causes.append(underlying)
            } else if let error = last as? TroveError, let underlying = error.underlyingError {
                causes.append(underlying)
            } else {
                break
            }
        }
        return causes
    }

    /// The error of a failed COMMIT: whether the transaction committed is unknown when the
    /// connection was lost.
    static func commitFailed(_ error: any Error) -> TroveError {
        if isConnectionLoss(error) {
            return TroveError(
                code: .server,
                message:
                    "The connection to PostgreSQL was lost while the transaction was committing: whether it committed is unknown.",
                sql: "COMMIT", underlyingError: error)
        }
        return TroveError(
            code: .server, message: "PostgreSQL refused to commit the transaction: \(describe(error)).", sql: "COMMIT",
            underlyingError: error)
    }

    /// `error` as a ``TroveError``: Trove's own errors and cancellation pass through.
    static func map(_ error: any Error, store: PostgresStore, during what: String) -> any Error {
        if error is TroveError || error is CancellationError { return error }
        if let reason = tlsFailure(error, configuration: store.configuration) {
            return TroveError(
                code: .server,
                message:
                    "A connection to PostgreSQL at \(store.configuration.location) could not be opened during \(what): \(reason). Nothing of it was committed.",
                underlyingError: error)
        }
        if isConnectionLoss(error) {
            return TroveError(
                code: .server,
                message:
                    "The connection to PostgreSQL at \(store.configuration.location) was lost or could not be opened during \(what); it was rolled back (nothing of it was committed).",
                underlyingError: error)
        }
        return TroveError(
            code: .server, message: "PostgreSQL failed during \(what): \(describe(error)).", underlyingError: error)
    }

    /// The error a transaction's body threw, as the caller sees it: the body's own errors as they
    /// are, postgres-nio's (a statement whose rows failed to arrive or decode) as ``map(_:store:during:)``
    /// words them.
    static func map(bodyError error: any Error, store: PostgresStore, during what: String) -> any Error {
        guard error is PSQLError || error is PostgresDecodingError || error is PostgresConnectionClosed else {
            return error
        }
        return map(error, store: store, during: what)
    }

    /// The error of a statement: the server's message and SQLSTATE, the SQL, and the item.
    static func statementFailed(
        _ error: any Error, sql: String, collection: String? = nil, key: String? = nil
    ) -> any Error {
        if error is TroveError || error is CancellationError { return error }
        if isConnectionLoss(error) {
            return TroveError(
                code: .server,
                message: "The connection to PostgreSQL was lost during a statement; the transaction was not committed.",
                collection: collection, key: key, sql: sql, underlyingError: error)
        }
        return TroveError(
            code: .server, message: "PostgreSQL refused a statement: \(describe(error)).", collection: collection,
            key: key, sql: sql, underlyingError: error)
    }

    /// The server's message and SQLSTATE, or the error itself.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError, let info = error.serverInfo {
            return "\(info[.message] ?? "error") (SQLSTATE \(info[.sqlState] ?? "?"))"
        }
        return String(describing: error)
    }
}

/// The quoted names of Trove's tables in one PostgreSQL schema.
struct PostgresNames: Sendable {
    let schema: String
    let items: String
    let changes: String
    let changeSequence: String
    let extensions: String
    let version: String
    /// The `LISTEN`/`NOTIFY` channel of the schema.
    let channel: String
    /// The key of the transaction-level advisory lock that orders commits in the change log.
    let lockKey: Int64

    init(schema: String) {
        self.schema = schema
        let quoted = Self.quote(schema)
        items = "\(quoted).items"
        changes = "\(quoted).changes"
        changeSequence = "\(quoted).change_number"
        extensions = "\(quoted).extensions"
        version = "\(quoted).schema_version"
        channel = "trove_" + String(Self.stableHash(schema), radix: 16)
        lockKey = Int64(bitPattern: Self.stableHash("trove changes " + schema))
    }

    /// The table of the index named `name`.
    func indexTable(_ name: String) -> String {
        "\(Self.quote(schema)).\(Self.quote("index_" + name))"
    }

    /// The table of the edges of the relationships named `name`.
    func edgeTable(_ name: String) -> String {
        "\(Self.quote(schema)).\(Self.quote("edges_" + name))"
    }

    /// The table of the full-text search named `name`.
    func searchTable(_ name: String) -> String {
        "\(Self.quote(schema)).\(Self.quote("search_" + name))"
    }

    /// `name` as a quoted SQL identifier.
    static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// FNV-1a: the same number in every process (Swift's `hashValue` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}

/// Thrown instead of sending a statement on a connection that is already closed.
struct PostgresConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the connection is closed (the server closed it, or it was lost)" }
}

extension PostgresConnection {
    /// Runs `query`, or throws ``PostgresConnectionClosed`` when the connection is closed.
    ///
    /// postgres-nio 1.33 hands a statement to the connection's channel without a promise for
    /// the write: on a channel that has finished closing (the server restarted, say), the write
    /// fails where no one sees it and the statement's result never comes, so the caller would
    /// wait forever. A closed connection is always noticed here first. (A close that completes
    /// between this check and the write, a window of microseconds on the event loop, is not.)
    @discardableResult
    func checkedQuery(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        guard !isClosed else { throw PostgresConnectionClosed() }
        return try await self.query(query, logger: logger)
    }
}
