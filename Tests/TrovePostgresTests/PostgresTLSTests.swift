import Foundation
import PostgresNIO
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// The TLS-only throwaway server of the TLS tests: `TROVE_POSTGRES_TLS_URL` and its certificate
/// authorities, as printed by `Scripts/postgres-test-server.sh start-tls`; without it, one that this
/// process starts with that script (and stops when it exits). Its certificate is signed by `ca`
/// for the name `localhost` alone; `otherCA` is an unrelated authority.
enum TLSTestServer {
    /// Where the server is and what signed its certificate.
    struct Server: Sendable {
        /// `postgres://…@localhost:PORT/postgres?sslmode=verify-full&sslrootcert=CA`.
        var url: String
        /// The PEM file of the authority that signed the server's certificate.
        var ca: String
        /// The PEM file of an authority that signed nothing of the server's.
        var otherCA: String
    }

    static let server: Server? = found.server
    static let isConfigured = server != nil
    static let skipMessage =
        "No TLS-only PostgreSQL server to test against: TROVE_POSTGRES_TLS_URL is not set, and \(found.failure ?? "none was started"). Install PostgreSQL and openssl, or start one with `eval \"$(Scripts/postgres-test-server.sh start-tls)\"`."

    private static let found: (server: Server?, failure: String?) = {
        let environment = ProcessInfo.processInfo.environment
        func server(_ values: [String: String]) -> Server? {
            guard let url = values["TROVE_POSTGRES_TLS_URL"], !url.isEmpty, let ca = values["TROVE_POSTGRES_TLS_CA"],
                let otherCA = values["TROVE_POSTGRES_TLS_OTHER_CA"]
            else { return nil }
            return Server(url: url, ca: ca, otherCA: otherCA)
        }
        if let server = server(environment) { return (server, nil) }
        do {
            let values = try TestServer.startServer("start-tls", folderVariable: "TROVE_POSTGRES_TLS_DATA")
            guard let started = server(values) else {
                return (nil, "Scripts/postgres-test-server.sh start-tls printed no server")
            }
            return (started, nil)
        } catch {
            return (nil, "no TLS server could be started (\(error))")
        }
    }()

    /// The server's configuration (from its URL: `verify-full` against `ca`), on a fresh schema,
    /// changed by `configure`.
    static func configuration(
        _ configure: (inout PostgresStore.Configuration) -> Void = { _ in }
    ) throws -> PostgresStore.Configuration {
        var configuration = try PostgresStore.Configuration(url: try #require(server).url)
        configuration.schema = TestServer.freshSchema()
        configuration.maximumConnections = 2
        configure(&configuration)
        return configuration
    }

    /// Drops the schema of `store` (over TLS) and closes it.
    static func dispose(_ store: PostgresStore) async {
        store.close()
        guard let server else { return }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(server.ca)
        guard let context = try? NIOSSLContext(configuration: tls) else { return }
        try? await TestServer.execute(
            "DROP SCHEMA \"\(store.configuration.schema)\" CASCADE", url: server.url, tls: .require(context))
    }

    /// The error that opening a store with `configuration` throws; records an issue when it opens.
    static func refusal(
        _ configuration: PostgresStore.Configuration, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> TroveError? {
        do {
            let store = try await PostgresStore.open(configuration: configuration)
            await dispose(store)
            Issue.record("the store opened (\(configuration.tls))", sourceLocation: sourceLocation)
            return nil
        } catch let error as TroveError {
            return error
        } catch {
            Issue.record("not a TroveError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

/// TLS to PostgreSQL (issue 34): a store connects to the TLS-only throwaway server with the
/// authority that signed its certificate; one without TLS, with another authority, or at a name
/// the certificate is not for is refused, with an error that says which and where.
@Suite(.enabled(if: TLSTestServer.isConfigured, Comment(rawValue: TLSTestServer.skipMessage)))
struct PostgresTLSTests {
    /// The URL's `verify-full` against the right authority: the store opens, writes and reads,
    /// and its listener (a connection of its own) hears its commits.
    @Test func requiredWithTheRightAuthorityConnectsWritesAndReads() async throws {
        let configuration = try TLSTestServer.configuration()
        #expect(configuration.tls.mode == .required)
        let store = try await PostgresStore.open(configuration: configuration)
        let changes = store.changes
        try await store.write { tx in try await tx.write(Tally(id: "over TLS", value: 7)) }
        #expect(try await store.read(Tally.self, key: "over TLS") == Tally(id: "over TLS", value: 7))
        let read = try await store.read { tx in try await tx.read(Tally.self, key: "over TLS") }
        #expect(read?.value == 7)
        let change = try await bounded(.seconds(30), "the listener hearing the commit") {
            var iterator = changes.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(change?.isComplete == true, "the listener, over TLS, heard the commit")
        await TLSTestServer.dispose(store)
    }

    /// The authority given as PEM text instead of a file works the same.
    @Test func theAuthorityAsPEMText() async throws {
        let server = try #require(TLSTestServer.server)
        let pem = try String(contentsOfFile: server.ca, encoding: .utf8)
        let store = try await PostgresStore.open(
            configuration: try TLSTestServer.configuration { $0.tls = .required(certificateAuthority: .pem(pem)) })
        try await store.write { tx in try await tx.write(Tally(id: "a", value: 1)) }
        #expect(try await store.read(Tally.self, key: "a")?.value == 1)
        await TLSTestServer.dispose(store)
    }

    /// TLS disabled: the server (hostssl lines only) refuses, and the message says to turn TLS on.
    @Test func withoutTLSTheServerRefuses() async throws {
        let configuration = try TLSTestServer.configuration { $0.tls = .disabled }
        let error = try #require(await TLSTestServer.refusal(configuration))
        #expect(error.code == .server)
        #expect(error.message.contains("\(configuration.host):\(configuration.port)"), "\(error.message)")
        #expect(error.message.contains("accepts no connection without TLS"), "\(error.message)")
        #expect(error.message.contains(".required(certificateAuthority:)"), "\(error.message)")
        #expect(internalsShown(in: error.description).isEmpty, "\(error.description)")
    }

    /// Another authority: refused, whether TLS is required or preferred (a certificate that fails
    /// the check is never used, and `preferred` does not fall back to no TLS).
    @Test(arguments: [PostgresStore.TLS.Mode.required, .preferred])
    func aWrongAuthorityIsRefused(mode: PostgresStore.TLS.Mode) async throws {
        let server = try #require(TLSTestServer.server)
        let configuration = try TLSTestServer.configuration {
            $0.tls =
                mode == .required
                ? .required(certificateAuthority: .pemFile(server.otherCA))
                : .preferred(certificateAuthority: .pemFile(server.otherCA))
        }
        let error = try #require(await TLSTestServer.refusal(configuration))
        #expect(error.code == .server)
        #expect(error.message.contains("localhost:\(configuration.port)"), "\(error.message)")
        #expect(
            error.message.contains(
                "the server presented a certificate that the certificate authority of \(server.otherCA) did not sign"),
            "\(error.message)")
        #expect(error.underlyingError != nil)
        #expect(internalsShown(in: error.description).isEmpty, "\(error.description)")
    }

    /// The system's authorities did not sign the throwaway certificate either.
    @Test func theSystemAuthoritiesDoNotTrustTheThrowawayCertificate() async throws {
        let configuration = try TLSTestServer.configuration { $0.tls = .required() }
        let error = try #require(await TLSTestServer.refusal(configuration))
        #expect(error.message.contains("the system's certificate authorities did not sign"), "\(error.message)")
    }

    /// The certificate is for `localhost` alone: at 127.0.0.1 it is refused, naming the name it
    /// was checked against; with `serverName: "localhost"` it opens; with `.certificateOnly`
    /// (`verify-ca`) too.
    @Test func aNameTheCertificateIsNotForIsRefused() async throws {
        let server = try #require(TLSTestServer.server)
        let byAddress = try TLSTestServer.configuration {
            $0.host = "127.0.0.1"
            $0.tls = .required(certificateAuthority: .pemFile(server.ca))
        }
        let error = try #require(await TLSTestServer.refusal(byAddress))
        #expect(error.code == .server)
        #expect(error.message.contains("127.0.0.1:\(byAddress.port)"), "\(error.message)")
        #expect(
            error.message.contains("the server presented a certificate that is not for the name '127.0.0.1'"),
            "\(error.message)")

        for tls in [
            PostgresStore.TLS.required(certificateAuthority: .pemFile(server.ca), serverName: "localhost"),
            .required(certificateAuthority: .pemFile(server.ca), verification: .certificateOnly),
        ] {
            var configuration = byAddress
            configuration.tls = tls
            let store = try await PostgresStore.open(configuration: configuration)
            try await store.write { tx in try await tx.write(Tally(id: "a", value: 1)) }
            #expect(try await store.read(Tally.self, key: "a")?.value == 1, "\(tls)")
            await TLSTestServer.dispose(store)
        }

        var otherName = byAddress
        otherName.tls = .required(certificateAuthority: .pemFile(server.ca), serverName: "db.example.com")
        let named = try #require(await TLSTestServer.refusal(otherName))
        #expect(named.message.contains("not for the name 'db.example.com'"), "\(named.message)")
    }

    /// A certificate authority file that is not there, or holds no certificate: `misuse` before
    /// anything is sent, naming the file.
    @Test func anUnreadableAuthorityIsAMisuse() async throws {
        let missing = "/nonexistent/trove-ca.pem"
        let notPEM = FileManager.default.temporaryDirectory.appendingPathComponent("trove-not-a-ca-\(UUID()).pem").path
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: notPEM))
        defer { try? FileManager.default.removeItem(atPath: notPEM) }
        for path in [missing, notPEM] {
            let configuration = try TLSTestServer.configuration {
                $0.tls = .required(certificateAuthority: .pemFile(path))
            }
            let error = try #require(await TLSTestServer.refusal(configuration))
            #expect(error.code == .misuse, "\(error)")
            #expect(error.message.contains("certificate authority file \(path)"), "\(error.message)")
        }
        let configuration = try TLSTestServer.configuration { $0.tls = .required(certificateAuthority: .pem("junk")) }
        let error = try #require(await TLSTestServer.refusal(configuration))
        #expect(error.code == .misuse, "\(error)")
        #expect(error.message.contains("given as PEM text"), "\(error.message)")
    }
}

/// TLS against the plain throwaway server (no TLS at all): `required` is refused, saying the
/// server offers no TLS; `preferred` connects without it.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct PostgresTLSPlainServerTests {
    @Test func requiredIsRefusedByAServerWithoutTLS() async throws {
        var configuration = try PostgresStore.Configuration(url: try #require(TestServer.url))
        configuration.schema = TestServer.freshSchema()
        configuration.tls = .required()
        let error = try #require(await TLSTestServer.refusal(configuration))
        #expect(error.code == .server)
        #expect(error.message.contains("\(configuration.host):\(configuration.port)"), "\(error.message)")
        #expect(
            error.message.contains("the server does not offer TLS, and the store's settings require it"),
            "\(error.message)")
    }

    @Test func preferredConnectsWithoutTLSWhenTheServerOffersNone() async throws {
        let store = try await TestServer.openStore { $0.tls = .preferred() }
        try await store.write { tx in try await tx.write(Tally(id: "a", value: 1)) }
        #expect(try await store.read(Tally.self, key: "a")?.value == 1)
        await TestServer.dispose(store)
    }
}

/// `sslmode` and `sslrootcert` in a URL, as libpq names them (no server needed).
@Suite struct PostgresTLSURLTests {
    private func tls(_ query: String) throws -> PostgresStore.TLS {
        try PostgresStore.Configuration(url: "postgres://app:secret@db.internal:5432/app" + query).tls
    }

    @Test func sslmodeAndSslrootcert() throws {
        #expect(try tls("").mode == .disabled)
        #expect(try tls("?sslmode=disable").mode == .disabled)

        let prefer = try tls("?sslmode=prefer")
        #expect(prefer.mode == .preferred)
        #expect(prefer.certificateAuthority == .system)
        #expect(prefer.verification == .certificateAndServerName)

        for mode in ["require", "verify-full"] {
            let required = try tls("?sslmode=\(mode)&sslrootcert=/etc/trove/ca.pem")
            #expect(required.mode == .required, "\(mode)")
            #expect(required.certificateAuthority == .pemFile("/etc/trove/ca.pem"), "\(mode)")
            #expect(required.verification == .certificateAndServerName, "\(mode): Trove's require checks the name too")
            #expect(required.serverName == nil)
        }

        let verifyCA = try tls("?sslmode=verify-ca&sslrootcert=%2Fsecrets%2Fdb%20ca.pem")
        #expect(verifyCA.mode == .required)
        #expect(verifyCA.certificateAuthority == .pemFile("/secrets/db ca.pem"))
        #expect(verifyCA.verification == .certificateOnly)

        #expect(try tls("?sslmode=verify-full&sslrootcert=system").certificateAuthority == .system)
        // Other parameters are ignored, as before.
        #expect(try tls("?application_name=x&sslmode=require").mode == .required)
    }

    @Test func whatTroveDoesNotTakeIsRefused() throws {
        for (query, words) in [
            ("?sslmode=allow", "sslmode 'allow' is not one Trove takes"),
            ("?sslmode=verify", "sslmode 'verify' is not one Trove takes"),
            ("?sslrootcert=/etc/trove/ca.pem", "without an sslmode"),
            ("?sslmode=require&sslcert=/c.pem&sslkey=/k.pem", "sets sslcert"),
        ] {
            do {
                _ = try tls(query)
                Issue.record("\(query) was taken")
            } catch let error as TroveError {
                #expect(error.code == .misuse, "\(query)")
                #expect(error.message.contains(words), "\(query): \(error.message)")
                #expect(!error.message.contains("secret"), "the password is not shown: \(error.message)")
            }
        }
    }

    @Test func theSettingInWords() {
        #expect(PostgresStore.TLS.disabled.description == "TLS disabled")
        #expect(
            PostgresStore.TLS.required(certificateAuthority: .pemFile("/ca.pem")).description
                == "TLS required, certificate checked against the certificate authority of /ca.pem and for the host's name")
        #expect(
            PostgresStore.TLS.preferred(serverName: "db", verification: .certificateOnly).description
                == "TLS preferred, certificate checked against the system's certificate authorities (its name not checked)")
    }
}
