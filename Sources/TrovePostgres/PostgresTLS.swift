import Foundation
import NIOSSL
import PostgresNIO
import Trove

extension PostgresStore {
    /// Whether and how a store protects its connections to the server with TLS: the
    /// ``Configuration-swift.struct/tls`` setting.
    ///
    /// ```swift
    /// var configuration = try PostgresStore.Configuration(url: "postgres://app:secret@db.internal:5432/app")
    /// configuration.tls = .required(certificateAuthority: .pemFile("/etc/trove/db-ca.pem"))
    /// ```
    ///
    /// - ``disabled``: no TLS; what the store sends and receives, the password exchange aside
    ///   (SCRAM never sends the password), crosses the network readable. The default, as before
    ///   TLS was offered: set another mode for any server that is not on the same machine or a
    ///   network you trust.
    /// - ``required(certificateAuthority:serverName:verification:)``: TLS or nothing. A server that
    ///   does not offer TLS is refused, and so is one whose certificate the
    ///   ``CertificateAuthority`` did not sign, or (by default) a certificate that is not for the
    ///   server's name. **This is stricter than libpq's `sslmode=require`**, which encrypts without
    ///   checking the certificate (and so does not stop someone in the middle): Trove always
    ///   checks the certificate. There is no mode that trusts any certificate; for a server with
    ///   a self-signed certificate, give that certificate (or the authority that signed it) as
    ///   the certificate authority.
    /// - ``preferred(certificateAuthority:serverName:verification:)``: TLS when the server offers
    ///   it, checked as `required` checks it (a server that offers TLS with a certificate that
    ///   fails the check is refused, not used without TLS), and no TLS when the server does not
    ///   offer it. Someone in the middle can pretend the server offers no TLS: use `required` when
    ///   the network is not yours.
    ///
    /// The certificate is checked when each connection opens, the store's first one (in
    /// ``PostgresStore/open(configuration:models:extensions:)``, which then throws a
    /// ``/Trove/TroveError`` with code ``/Trove/TroveError/Code/server`` saying what failed) and
    /// every later one of the pool and the listener.
    public struct TLS: Sendable, CustomStringConvertible {
        /// Whether the store uses TLS.
        public enum Mode: Sendable, Hashable {
            /// No TLS.
            case disabled
            /// TLS when the server offers it; without TLS otherwise.
            case preferred
            /// TLS or no connection.
            case required
        }

        /// The certificate authorities that may sign the server's certificate.
        public enum CertificateAuthority: Sendable, Hashable {
            /// The system's trusted authorities (on Linux, OpenSSL's default store such as
            /// `/etc/ssl/certs`): for a server whose certificate a public authority signed.
            case system
            /// The certificates of the PEM file at this path (libpq's `sslrootcert`): one or
            /// more authorities, or the server's own self-signed certificate. The file is read
            /// when the store opens.
            case pemFile(String)
            /// The certificates of this PEM text (`-----BEGIN CERTIFICATE-----`…): the
            /// authority given inline, say from a secret store, instead of a file.
            case pem(String)
        }

        /// What of the server's certificate is checked, besides its signature, when TLS is used.
        public enum Verification: Sendable, Hashable {
            /// The certificate must be signed by the certificate authority and name the server:
            /// ``TLS/serverName`` when set, otherwise the configuration's host (a DNS name of
            /// the certificate's, or, for an IP address, one of its IP addresses). libpq's
            /// `sslmode=verify-full`. The default.
            case certificateAndServerName
            /// The certificate must be signed by the certificate authority; the name it is for
            /// is not checked (libpq's `sslmode=verify-ca`). Any server holding a certificate of
            /// that authority is accepted: use it only with an authority of your own that signs
            /// nothing else.
            case certificateOnly
        }

        /// Whether the store uses TLS.
        public var mode: Mode
        /// The authorities that may sign the server's certificate.
        public var certificateAuthority: CertificateAuthority
        /// The name the certificate must be for, and the one sent to the server (SNI), when it
        /// differs from the configuration's host: say the host is an IP address, or a tunnel's
        /// `localhost`, and the certificate is for `db.internal`. `nil` uses the host.
        public var serverName: String?
        /// What of the certificate is checked.
        public var verification: Verification

        private init(
            mode: Mode, certificateAuthority: CertificateAuthority, serverName: String?, verification: Verification
        ) {
            self.mode = mode
            self.certificateAuthority = certificateAuthority
            self.serverName = serverName
            self.verification = verification
        }

        /// No TLS (libpq's `sslmode=disable`): the default.
        public static let disabled = TLS(
            mode: .disabled, certificateAuthority: .system, serverName: nil, verification: .certificateAndServerName)

        /// TLS or no connection: a server that does not offer TLS, or whose certificate fails
        /// the check, is refused.
        ///
        /// ```swift
        /// configuration.tls = .required(certificateAuthority: .pemFile("/etc/trove/db-ca.pem"))
        /// ```
        ///
        /// - Parameters:
        ///   - certificateAuthority: The authorities that may sign the server's certificate.
        ///   - serverName: The name the certificate must be for, when not the configuration's host.
        ///   - verification: What of the certificate is checked besides its signature: by
        ///     default, that it names the server too.
        /// - Returns: The setting.
        public static func required(
            certificateAuthority: CertificateAuthority = .system, serverName: String? = nil,
            verification: Verification = .certificateAndServerName
        ) -> TLS {
            TLS(
                mode: .required, certificateAuthority: certificateAuthority, serverName: serverName,
                verification: verification)
        }

        /// TLS when the server offers it, checked as ``required(certificateAuthority:serverName:verification:)``
        /// checks it; without TLS when the server does not offer it.
        ///
        /// - Parameters:
        ///   - certificateAuthority: The authorities that may sign the server's certificate.
        ///   - serverName: The name the certificate must be for, when not the configuration's host.
        ///   - verification: What of the certificate is checked besides its signature.
        /// - Returns: The setting.
        public static func preferred(
            certificateAuthority: CertificateAuthority = .system, serverName: String? = nil,
            verification: Verification = .certificateAndServerName
        ) -> TLS {
            TLS(
                mode: .preferred, certificateAuthority: certificateAuthority, serverName: serverName,
                verification: verification)
        }

        /// The setting in words, for messages: `TLS required, certificate checked against the
        /// certificate authority of /etc/trove/db-ca.pem and for the host's name`.
        public var description: String {
            let mode: String
            switch self.mode {
            case .disabled: return "TLS disabled"
            case .preferred: mode = "TLS preferred"
            case .required: mode = "TLS required"
            }
            let name = serverName.map { "the name '\($0)'" } ?? "the host's name"
            return "\(mode), certificate checked against \(authorityDescription)"
                + (verification == .certificateAndServerName ? " and for \(name)" : " (its name not checked)")
        }

        /// The certificate authority in words.
        var authorityDescription: String {
            switch certificateAuthority {
            case .system: "the system's certificate authorities"
            case .pemFile(let path): "the certificate authority of \(path)"
            case .pem: "the certificate authority given as PEM text"
            }
        }

        /// The setting from libpq's `sslmode` and `sslrootcert` (the query of a URL).
        ///
        /// `sslmode=require` checks the certificate (stricter than libpq); `sslrootcert=system` is
        /// the system's authorities, as in libpq 16. No `sslmode` is ``disabled``.
        static func libpq(sslmode: String?, sslrootcert: String?) throws -> TLS {
            let authority: CertificateAuthority =
                switch sslrootcert {
                case nil, "system": .system
                case let path?: .pemFile(path)
                }
            switch sslmode {
            case nil:
                guard sslrootcert == nil else {
                    throw TroveError(
                        code: .misuse,
                        message:
                            "The PostgreSQL URL names a certificate authority (sslrootcert) without an sslmode: add sslmode=verify-full (or require, verify-ca, prefer) to use TLS.")
                }
                return .disabled
            case "disable": return .disabled
            case "prefer": return .preferred(certificateAuthority: authority)
            case "require", "verify-full": return .required(certificateAuthority: authority)
            case "verify-ca": return .required(certificateAuthority: authority, verification: .certificateOnly)
            case let other?:
                throw TroveError(
                    code: .misuse,
                    message:
                        "The PostgreSQL URL's sslmode '\(other)' is not one Trove takes: use disable, prefer, require, verify-ca or verify-full (sslmode=allow, which tries without TLS first, is not supported).")
            }
        }

        /// postgres-nio's TLS settings, for a single connection and for the pool: the one place
        /// that builds them, from one `NIOSSL.TLSConfiguration`.
        struct Resolved: Sendable {
            var connection: PostgresConnection.Configuration.TLS
            var client: PostgresClient.Configuration.TLS
            var serverName: String?
        }

        /// The certificates are read and the TLS context built here, once, when the store opens.
        ///
        /// - Throws: ``/Trove/TroveError/Code/misuse`` when the certificate authority cannot be
        ///   read or holds no certificate.
        func resolved() throws -> Resolved {
            guard mode != .disabled else { return Resolved(connection: .disable, client: .disable, serverName: nil) }
            var configuration = NIOSSL.TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification =
                verification == .certificateAndServerName ? .fullVerification : .noHostnameVerification
            configuration.trustRoots = try trustRoots()
            let context: NIOSSLContext
            do {
                context = try NIOSSLContext(configuration: configuration)
            } catch {
                throw TroveError(
                    code: .misuse,
                    message: "The TLS settings of the PostgreSQL store could not be used (\(self)): \(error).",
                    underlyingError: error)
            }
            switch mode {
            case .disabled: return Resolved(connection: .disable, client: .disable, serverName: nil)
            case .preferred:
                return Resolved(connection: .prefer(context), client: .prefer(configuration), serverName: serverName)
            case .required:
                return Resolved(connection: .require(context), client: .require(configuration), serverName: serverName)
            }
        }

        /// The trust roots of ``certificateAuthority``, read now so that a missing or malformed
        /// file is one clear error when the store opens.
        private func trustRoots() throws -> NIOSSLTrustRoots {
            let certificates: [NIOSSLCertificate]
            switch certificateAuthority {
            case .system:
                return .default
            case .pemFile(let path):
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw TroveError(
                        code: .misuse,
                        message:
                            "The certificate authority file \(path) of the PostgreSQL store's TLS settings does not exist or cannot be read.")
                }
                do {
                    certificates = try NIOSSLCertificate.fromPEMFile(path)
                } catch {
                    throw TroveError(
                        code: .misuse,
                        message:
                            "The certificate authority file \(path) of the PostgreSQL store's TLS settings holds no PEM certificate that can be read.",
                        underlyingError: error)
                }
            case .pem(let text):
                do {
                    certificates = try NIOSSLCertificate.fromPEMBytes(Array(text.utf8))
                } catch {
                    throw TroveError(
                        code: .misuse,
                        message:
                            "The certificate authority given as PEM text in the PostgreSQL store's TLS settings holds no certificate that can be read.",
                        underlyingError: error)
                }
            }
            guard !certificates.isEmpty else {
                throw TroveError(
                    code: .misuse,
                    message: "The \(authorityDescription) of the PostgreSQL store's TLS settings holds no certificate.")
            }
            return .certificates(certificates)
        }
    }
}
