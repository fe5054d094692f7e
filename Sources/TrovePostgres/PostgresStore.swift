import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization
import Trove

/// A Trove store on a PostgreSQL server: the same ``/Trove/Persistable`` models and generated code as
/// a Trove file, for apps that run on several machines against one database.
///
/// It is a place of Trove's async API (``/Trove/AsyncDatabaseWriter``): its transactions are
/// ``/Trove/TransactionReading`` and ``/Trove/TransactionWriting``, so the conveniences
/// (`store.write(user)`, `store.read(User.self, key:)`, `store.count(of:)`…) and the terminals of
/// queries (`query.items(in: store)`, `try await query.items(tx)`) are Trove's, and code written
/// for `some AsyncDatabaseWriter` runs on a Trove file and on PostgreSQL alike.
///
/// ```swift
/// let store = try await PostgresStore.open(url: "postgres://app:secret@db.internal:5432/app", models: [User.self])
/// try await store.write { tx in try await tx.write(user) }
/// let same = try await store.read(User.self, key: user.userID)
/// let adults = try await User.query.filter(.age(18...)).sorted(by: .age).items(in: store)
/// ```
///
/// - Reads run at `REPEATABLE READ`: every statement of a ``read(from:_:)`` body sees one snapshot.
/// - Read-write transactions run at `SERIALIZABLE`: PostgreSQL aborts one of two transactions
///   whose outcome no serial order would give (a read-modify-write of the same item from two
///   instances among them), and the store runs an aborted body again, up to
///   ``Configuration-swift.struct/maximumWriteAttempts`` times, before throwing
///   ``/Trove/TroveError/Code/writeConflict``. No acknowledged update is lost. A body may run more
///   than once: keep side effects outside it.
/// - Each store caches decoded items. Every commit that changes something takes the next number
///   of a change log (commit order, under a transaction-level advisory lock), records its keys and
///   announces them with `NOTIFY`; every store `LISTEN`s and evicts exactly those keys. A read
///   transaction also checks the log's newest number in its snapshot and catches up from the log
///   before it first consults the cache, so a cached item is never older than the snapshot, even
///   before the notification arrives. A dropped listener connection flushes the cache.
/// - Secondary indexes run their queries (``/Trove/IndexQuery``), full-text searches theirs
///   (``/Trove/FullTextQuery``, on a `tsvector` table, ranked by `ts_rank_cd`). Relationships keep
///   their edges and apply their six delete rules inside the transaction that removes an item,
///   transitively; their traversals (``/Trove/RelationshipQuery``) run, and their manual edges
///   are added and removed in its write transactions. Views do not run on PostgreSQL: a model or
///   an extension that needs one is refused when the store opens, and a read of one is refused
///   when it runs, each with a ``/Trove/TroveError`` that names it.
///
/// - Observation runs across instances: ``/Trove/AsyncDatabaseObserving/observe(_:)`` re-runs a
///   read when a commit of any instance, arriving by `NOTIFY`, changed what it read.
///
/// Call ``close()`` when done (on shutdown): it ends the loops over ``changes`` and stops the
/// listener and the connection pool.
public final class PostgresStore: AsyncDatabaseWriter {
    /// The transaction that read bodies receive.
    public typealias ReadingTransaction = PostgresReadTransaction
    /// The transaction that write bodies receive.
    public typealias WritingTransaction = PostgresReadWriteTransaction

    /// How to reach the server and how the store behaves.
    public struct Configuration: Sendable {
        /// The server's host name or address.
        public var host: String
        /// The server's port.
        public var port: Int
        /// The user to log in as.
        public var username: String
        /// The user's password, if the server asks for one.
        public var password: String?
        /// The database to use.
        public var database: String
        /// Whether and how the connections use TLS, and the certificate authority that must have
        /// signed the server's certificate (see ``PostgresStore/TLS``). ``PostgresStore/TLS/disabled``
        /// unless set, or unless the URL's `sslmode` says otherwise.
        ///
        /// ```swift
        /// configuration.tls = .required(certificateAuthority: .pemFile("/etc/trove/db-ca.pem"))
        /// ```
        public var tls: TLS = .disabled
        /// The PostgreSQL schema (namespace) that holds Trove's tables; created when missing.
        /// Two stores with the same server, database and schema share their items.
        public var schema: String = "trove"
        /// The most connections the pool opens to the server.
        public var maximumConnections: Int = 20
        /// How many times a read-write transaction runs when the server aborts it with a
        /// serialization failure or a deadlock, before ``/Trove/TroveError/Code/writeConflict``.
        public var maximumWriteAttempts: Int = 50
        /// The most decoded items the store's cache holds; 0 turns the cache off.
        public var itemCacheLimit: Int = 10_000
        /// How long opening a connection may take before it fails.
        public var connectTimeout: Duration = .seconds(10)
        /// The most changes a loop over ``PostgresStore/changes`` keeps waiting: when a change
        /// finds that many unread, they are dropped and one change marked
        /// ``PostgresChange/missedChanges`` stands for them (the rule, and the default, of a Trove
        /// file's `Configuration.changesBufferLimit`).
        public var changesBufferLimit: Int = 1_000

        /// A configuration from its parts.
        ///
        /// - Parameters:
        ///   - host: The server's host name or address.
        ///   - port: The server's port.
        ///   - username: The user to log in as.
        ///   - password: The user's password.
        ///   - database: The database to use.
        public init(host: String, port: Int = 5432, username: String, password: String?, database: String) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
        }

        /// A configuration from a URL such as `postgres://user:password@host:5432/database`.
        ///
        /// The query may set TLS as libpq's does, with `sslmode` and `sslrootcert` (the path of a
        /// PEM file of certificate authorities, or `system` for the system's, the default):
        /// `postgres://app:secret@db.internal/app?sslmode=verify-full&sslrootcert=/etc/trove/db-ca.pem`.
        ///
        /// | `sslmode` | ``tls`` | |
        /// |---|---|---|
        /// | none, `disable` | ``PostgresStore/TLS/disabled`` | no TLS |
        /// | `prefer` | ``PostgresStore/TLS/preferred(certificateAuthority:serverName:verification:)`` | TLS when offered, its certificate checked; else none |
        /// | `require`, `verify-full` | ``PostgresStore/TLS/required(certificateAuthority:serverName:verification:)`` | TLS, the certificate's authority and name checked |
        /// | `verify-ca` | `.required(…, verification: .certificateOnly)` | TLS, the certificate's authority checked, not its name |
        ///
        /// Trove checks the certificate whenever it uses TLS: `require` and `prefer` do too,
        /// where libpq's do not. `sslmode=allow`, client certificates (`sslcert`, `sslkey`) and
        /// an `sslrootcert` without an `sslmode` are refused; other query parameters are ignored.
        ///
        /// - Parameter url: The URL of the database.
        /// - Throws: ``/Trove/TroveError/Code/misuse`` when the URL is not a `postgres://` or
        ///   `postgresql://` URL with a user, or its TLS parameters are not ones Trove takes.
        public init(url: String) throws {
            guard let components = URLComponents(string: url),
                components.scheme == "postgres" || components.scheme == "postgresql",
                let host = components.host, !host.isEmpty, let user = components.user
            else {
                throw TroveError(
                    code: .misuse,
                    message: "\"\(Self.redacted(url))\" is not a PostgreSQL URL of the form postgres://user:password@host:port/database.")
            }
            let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            self.init(
                host: host, port: components.port ?? 5432, username: user.removingPercentEncoding ?? user,
                password: components.password.map { $0.removingPercentEncoding ?? $0 },
                database: path.isEmpty ? user : path)
            let query = components.queryItems ?? []
            func parameter(_ name: String) -> String? { query.last { $0.name == name }?.value }
            if let unsupported = ["sslcert", "sslkey", "sslpassword", "sslcrl"].first(where: { parameter($0) != nil }) {
                throw TroveError(
                    code: .misuse,
                    message:
                        "The PostgreSQL URL \"\(Self.redacted(url))\" sets \(unsupported), which Trove does not take: client certificates and revocation lists are not supported.")
            }
            tls = try TLS.libpq(sslmode: parameter("sslmode"), sslrootcert: parameter("sslrootcert"))
        }

        /// `url` with its password hidden, for error messages.
        static func redacted(_ url: String) -> String {
            guard var components = URLComponents(string: url), components.password != nil else { return url }
            components.password = "***"
            return components.string ?? "(a URL)"
        }

        /// postgres-nio's configurations of a single connection (the first one and the
        /// listener's) and of the pool, with the TLS settings built once (``TLS/resolved()``).
        ///
        /// - Throws: ``/Trove/TroveError/Code/misuse`` when the TLS settings cannot be used.
        func endpoint() throws -> Endpoint {
            let tls = try self.tls.resolved()
            var connection = PostgresConnection.Configuration(
                host: host, port: port, username: username, password: password, database: database,
                tls: tls.connection)
            connection.options.connectTimeout = TimeAmount.nanoseconds(
                connectTimeout.components.seconds * 1_000_000_000 + connectTimeout.components.attoseconds / 1_000_000_000)
            connection.options.tlsServerName = tls.serverName
            var client = PostgresClient.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: tls.client)
            client.options.maximumConnections = maximumConnections
            client.options.connectTimeout = connectTimeout
            client.options.tlsServerName = tls.serverName
            return Endpoint(connection: connection, client: client)
        }

        /// Where the server is, for messages (never the password).
        var location: String { "\(username)@\(host):\(port)/\(database) (schema \(schema))" }
    }

    /// How to reach the server, in postgres-nio's terms: built once when the store opens.
    struct Endpoint: Sendable {
        /// A single connection's configuration: the first one's, and the listener's.
        var connection: PostgresConnection.Configuration
        /// The pool's configuration.
        var client: PostgresClient.Configuration
    }

    /// The configuration the store was opened with.
    public let configuration: Configuration
    /// How to reach the server, TLS settings built: the listener's connections use it.
    let endpoint: Endpoint
    let client: PostgresClient
    let names: PostgresNames

    /// The schema of the store's tables, quoted for SQL: where other parts of the package (the sync
    /// server) keep tables of their own beside Trove's.
    package var quotedSchema: String { PostgresNames.quote(names.schema) }
    /// The extensions that follow the writes of each collection: its secondary indexes and
    /// full-text searches, and the relationships whose sources it holds.
    let writeFollowers: [String: [any PostgresKeptExtension]]
    /// The extensions that follow the removals of each collection: those of its writes, and the
    /// relationships whose rules act when one of its items goes.
    let removalFollowers: [String: [any PostgresKeptExtension]]
    /// The secondary indexes the store keeps, by name.
    let indexesByName: [String: PostgresIndex]
    /// The relationships the store keeps, by name.
    let relationshipsByName: [String: PostgresRelationships]
    /// The full-text searches the store keeps, by name.
    let searchesByName: [String: PostgresSearch]
    let cache: PostgresItemCache
    /// The collections where this store decoded fields its coders do not know (written by a newer
    /// version of a model): typed writes to them keep those fields, as on a Trove file.
    let unknownFields = UnknownFieldRegistry()
    let hub: PostgresChangeHub
    let logger: Logger
    private let tasks: Mutex<BackgroundTasks>

    /// The store's background tasks, each by its role, so that one can be stopped alone.
    private struct BackgroundTasks {
        /// Runs the connection pool (`PostgresClient.run()`).
        var pool: Task<Void, Never>?
        /// Runs the ``PostgresChangeListener``.
        var listener: Task<Void, Never>?
        /// Set by ``PostgresStore/close()``: transactions started afterwards throw.
        var isClosed = false
    }

    private init(
        configuration: Configuration, endpoint: Endpoint, client: PostgresClient,
        extensions: [any PostgresKeptExtension], logger: Logger
    ) {
        self.configuration = configuration
        self.endpoint = endpoint
        self.client = client
        names = PostgresNames(schema: configuration.schema)
        writeFollowers = Dictionary(grouping: extensions, by: \.collection)
        var removalFollowers: [String: [any PostgresKeptExtension]] = [:]
        for kept in extensions {
            for collection in kept.followedRemovals.sorted() { removalFollowers[collection, default: []].append(kept) }
        }
        self.removalFollowers = removalFollowers
        indexesByName = Dictionary(
            extensions.compactMap { $0 as? PostgresIndex }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        relationshipsByName = Dictionary(
            extensions.compactMap { $0 as? PostgresRelationships }.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first })
        searchesByName = Dictionary(
            extensions.compactMap { $0 as? PostgresSearch }.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first })
        cache = PostgresItemCache(limit: configuration.itemCacheLimit)
        hub = PostgresChangeHub()
        self.logger = logger
        tasks = Mutex(BackgroundTasks())
    }

    /// Connects to the server, creates or upgrades Trove's schema, builds the secondary indexes of
    /// `models` and `extensions` whose definition changed, and starts listening for other
    /// instances' changes: the PostgreSQL twin of `Database(path:models:extensions:)`.
    ///
    /// A model whose generated code declares extensions (``/Trove/DatabaseExtensionProviding``)
    /// brings them; `extensions` adds extensions defined by hand. PostgreSQL keeps secondary
    /// indexes, full-text searches and relationships (their edges, traversals and delete rules). A
    /// model or an extension that needs what it does not keep (a view, a search of trigrams) is
    /// refused before anything is sent to the server, naming it.
    ///
    /// - Parameters:
    ///   - configuration: Where the server is and how the store behaves.
    ///   - models: The models whose secondary indexes, full-text searches and relationships to
    ///     keep, such as `[User.self, Note.self]`.
    ///   - extensions: Extensions defined by hand (`byAge.databaseExtension`).
    /// - Returns: An open store.
    /// - Throws: ``/Trove/TroveError/Code/misuse`` naming the model and the extension that
    ///   PostgreSQL does not keep, or two extensions with the same name;
    ///   ``/Trove/TroveError/Code/server`` when the server cannot be reached, refuses the
    ///   credentials, does not offer the TLS that ``Configuration-swift.struct/tls`` requires, or
    ///   presents a certificate that fails its check (the message says which, and where);
    ///   ``/Trove/TroveError/Code/misuse`` when the TLS settings' certificate authority cannot be
    ///   read; ``/Trove/TroveError/Code/unsupportedSchemaVersion``
    ///   when a newer Trove wrote the schema.
    public static func open(
        configuration: Configuration, models: [any Persistable.Type] = [], extensions: [DatabaseExtension] = []
    ) async throws -> PostgresStore {
        let kept = try keptExtensions(of: models, extensions: extensions)
        var logger = Logger(label: "trove.postgres")
        // postgres-nio warns of a lease before `run()` starts, which the pool then serves: not news.
        logger.logLevel = .error
        // One connection first, on its own: a server that is down or refuses the credentials is
        // reported now, in one clear error, instead of by a pool that keeps retrying.
        let endpoint = try configuration.endpoint()
        let probe: PostgresConnection
        do {
            probe = try await PostgresConnection.connect(configuration: endpoint.connection, id: 0, logger: logger)
        } catch {
            throw PostgresErrors.connectFailed(error, configuration: configuration)
        }
        try? await probe.close()

        let client = PostgresClient(configuration: endpoint.client, backgroundLogger: logger)
        let store = PostgresStore(
            configuration: configuration, endpoint: endpoint, client: client, extensions: kept, logger: logger)
        store.tasks.withLock { $0.pool = Task { await client.run() } }
        do {
            try await PostgresSchema.migrate(store)
            try await PostgresExtensionBuilder.prepare(kept, in: store)
        } catch {
            store.close()
            throw error
        }
        let listener = PostgresChangeListener(store: store)
        store.tasks.withLock { $0.listener = Task { await listener.run() } }
        try await listener.waitUntilListening()
        return store
    }

    /// Opens a store from a URL such as `postgres://user:password@host:5432/database`.
    ///
    /// ```swift
    /// let store = try await PostgresStore.open(url: url, models: [User.self, Note.self])
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL of the database.
    ///   - schema: The PostgreSQL schema that holds Trove's tables.
    ///   - models: The models whose secondary indexes, full-text searches and relationships to keep.
    ///   - extensions: Extensions defined by hand.
    /// - Returns: An open store.
    /// - Throws: As ``open(configuration:models:extensions:)``, and ``/Trove/TroveError/Code/misuse``
    ///   for a malformed URL.
    public static func open(
        url: String, schema: String = "trove", models: [any Persistable.Type] = [],
        extensions: [DatabaseExtension] = []
    ) async throws -> PostgresStore {
        var configuration = try Configuration(url: url)
        configuration.schema = schema
        return try await open(configuration: configuration, models: models, extensions: extensions)
    }

    /// Closes the store: ends every loop over ``changes``, stops listening for the commits of
    /// other instances, and shuts the connection pool down.
    ///
    /// ```swift
    /// let store = try await PostgresStore.open(url: url)
    /// defer { store.close() }
    /// ```
    ///
    /// It returns at once; the pool closes its connections in the background. A transaction
    /// under way loses its connection and throws ``/Trove/TroveError/Code/server``: nothing of it
    /// is committed, except when it was committing, in which case the error says that whether
    /// it committed is unknown. Transactions started afterwards throw
    /// ``/Trove/TroveError/Code/misuse`` without reaching the server. Calling `close()` again does
    /// nothing. Releasing the last reference to the store closes it too, but a task that still
    /// holds the store keeps it open: close it explicitly on shutdown.
    public func close() {
        let running = tasks.withLock { tasks in
            defer { tasks = BackgroundTasks(isClosed: true) }
            return [tasks.listener, tasks.pool]
        }
        for task in running { task?.cancel() }
        hub.finish()
    }

    /// Throws when the store was closed: a transaction would fail in the pool with a less clear
    /// error.
    private func checkOpen() throws {
        if tasks.withLock({ $0.isClosed }) {
            throw TroveError(
                code: .misuse,
                message:
                    "The PostgreSQL store at \(configuration.location) was closed: open a new store to use it again.")
        }
    }

    deinit {
        close()
    }

    /// Stops the listener alone, leaving the store open, so that no notification evicts
    /// anything: for tests, which then show that a read is never stale through the change log
    /// alone (the catch-up of ``PostgresReadTransaction`` before it first consults the cache).
    @_spi(Testing) public func stopListening() {
        let listener = tasks.withLock { tasks in
            defer { tasks.listener = nil }
            return tasks.listener
        }
        listener?.cancel()
    }

    // MARK: Transactions

    /// Runs `body` in a read-only transaction at `REPEATABLE READ`: every read sees one snapshot.
    ///
    /// Call it as `store.read { tx in … }` (Trove's ``/Trove/AsyncDatabaseReader/read(label:fileID:line:_:)``).
    /// `BEGIN` goes with the body's first statement, so a body that sends none costs nothing.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads. The transaction is valid only inside it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; ``/Trove/TroveError/Code/server`` when the server fails or the
    ///   connection is lost; ``/Trove/TroveError/Code/misuse`` when the store was closed.
    public func read<T: Sendable>(
        from origin: TransactionOrigin, _ body: sending (PostgresReadTransaction) async throws -> T
    ) async throws -> T {
        try Task.checkCancellation()
        try checkOpen()
        do {
            return try await client.withConnection { connection in
                // The snapshot's change number is read when the cache is first needed
                // (`takeSnapshot`), folded into the first point read when that comes first.
                let transaction = PostgresReadTransaction(
                    store: self, connection: connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                let value: T
                do {
                    value = try await body(transaction)
                } catch {
                    if transaction.isOpen { await rollBack(on: connection) }
                    throw BodyFailure(error: error)
                }
                if transaction.isOpen { try await commit(on: connection) }
                return value
            }
        } catch let failure as BodyFailure {
            throw PostgresErrors.map(bodyError: failure.error, store: self, during: "a read transaction")
        } catch {
            throw PostgresErrors.map(error, store: self, during: "a read transaction")
        }
    }

    /// Reads the item of type `Item` at `key` in one statement, which is its own snapshot: one
    /// round trip where a read transaction takes three (`BEGIN`, the read, `COMMIT`).
    ///
    /// The statement is the plain `SELECT` of the item's row, and the store's cache is neither
    /// consulted nor filled: a cached item is valid at one number of the change log, and reading
    /// that number in the statement (the log's `max`) cost more on the server than the read
    /// itself (issue 29). Reads in a transaction (``read(from:_:)``) use the cache.
    ///
    /// This is Trove's convenience ``/Trove/AsyncDatabaseReader/read(_:key:)``, which reads in a
    /// transaction of its own, done in fewer round trips: Swift calls it wherever the store is
    /// known as a `PostgresStore`; code generic over `some AsyncDatabaseReader` calls the
    /// protocol's, which returns the same item in a transaction of three round trips.
    ///
    /// - Parameters:
    ///   - type: The type of the item.
    ///   - key: The key of the item.
    /// - Returns: The item, or `nil` when there is none at `key`.
    /// - Throws: ``/Trove/TroveError`` with code `corruptData` naming the collection and key when
    ///   the stored bytes cannot be decoded; `server` when the server fails or the connection is
    ///   lost; `misuse` when the store was closed.
    public func read<Item: Persistable>(_ type: Item.Type, key: Item.ID) async throws -> Item? {
        try Task.checkCancellation()
        try checkOpen()
        do {
            return try await client.withConnection { connection in
                let transaction = PostgresReadTransaction(store: self, connection: connection, begin: nil)
                let key = key.itemKey
                guard let row = try await transaction.row(collection: Item.collection, key: key) else { return nil }
                return try transaction.decodeItem(Item.self, data: row.data, metadata: row.metadata, key: key)
            }
        } catch {
            throw PostgresErrors.map(error, store: self, during: "the read of '\(key.itemKey)' in '\(Item.collection)'")
        }
    }

    /// Runs `body` in a read-write transaction at `SERIALIZABLE`, and commits it.
    ///
    /// Call it as `store.write { tx in … }` (Trove's ``/Trove/AsyncDatabaseWriter/write(label:fileID:line:_:)``).
    /// When the server aborts the transaction because it conflicts with a concurrent one
    /// (SQLSTATE 40001 or 40P01), `body` runs again in a new transaction, up to
    /// ``Configuration-swift.struct/maximumWriteAttempts`` times in all.
    ///
    /// - Parameters:
    ///   - origin: Where in the code the transaction was started, and its label.
    ///   - body: The reads and writes. It may run more than once.
    /// - Returns: What `body` returns in the attempt that committed.
    /// - Throws: What `body` throws (nothing is committed then);
    ///   ``/Trove/TroveError/Code/writeConflict`` after the last attempt conflicted;
    ///   ``/Trove/TroveError/Code/server`` when the server fails or the connection is lost (when
    ///   lost during the commit, whether it committed is unknown: the message says so);
    ///   ``/Trove/TroveError/Code/misuse`` when the store was closed.
    public func write<T: Sendable>(
        from origin: TransactionOrigin, _ body: sending (PostgresReadWriteTransaction) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            try Task.checkCancellation()
            try checkOpen()
            do {
                let (value, committed) = try await client.withConnection { connection in
                    // `BEGIN` goes with the first statement; a transaction of blind writes alone
                    // is sent as one statement without `BEGIN` and `COMMIT` (see `announce()`).
                    let transaction = PostgresReadWriteTransaction(store: self, connection: connection)
                    let value: T
                    do {
                        value = try await body(transaction)
                    } catch {
                        if transaction.isOpen { await rollBack(on: connection) }
                        throw BodyFailure(error: error)
                    }
                    do {
                        try await transaction.announce()
                        if transaction.isOpen { try await commit(on: connection) }
                    } catch {
                        if transaction.isOpen { await rollBack(on: connection) }
                        throw error
                    }
                    return (value, transaction.committedChange)
                }
                if let (change, written) = committed {
                    // Own commits advance the cache now; the notification, when it comes, finds
                    // it applied. Subscribers of `changes` hear of it from the notification, in
                    // commit order with everyone else's.
                    cache.apply(change)
                    for (key, item) in written {
                        cache.insert(item, at: key, number: change.number)
                    }
                    if change.number % PostgresSchema.pruneInterval == 0 {
                        await pruneChangeLog(through: change.number - PostgresSchema.retainedChanges)
                    }
                }
                return value
            } catch {
                let failure = (error as? BodyFailure)?.error ?? error
                if PostgresErrors.isRetryable(failure) {
                    if attempt >= configuration.maximumWriteAttempts {
                        throw TroveError(
                            code: .writeConflict,
                            message:
                                "The read-write transaction conflicted with concurrent transactions \(attempt) times in a row (serialization failure or deadlock) and was given up; nothing of it was committed.",
                            underlyingError: failure)
                    }
                    attempt += 1
                    // Exponential backoff with jitter, at most 50 ms: contenders spread out.
                    try await Task.sleep(for: .microseconds(Int.random(in: 0...min(50_000, 200 << min(attempt, 10)))))
                    continue
                }
                if error is BodyFailure {
                    throw PostgresErrors.map(bodyError: failure, store: self, during: "a read-write transaction")
                }
                throw PostgresErrors.map(error, store: self, during: "a read-write transaction")
            }
        }
    }

    /// Commits the transaction open on `connection`.
    private func commit(on connection: PostgresConnection) async throws {
        do {
            try await connection.checkedQuery("COMMIT", logger: logger)
        } catch {
            // A serialization failure at COMMIT is a conflict like any other: the caller retries.
            if PostgresErrors.isRetryable(error) { throw error }
            throw PostgresErrors.commitFailed(error)
        }
    }

    /// Rolls back the transaction open on `connection`; a failed connection cannot, and the
    /// server rolls back when it sees it close.
    private func rollBack(on connection: PostgresConnection) async {
        _ = try? await connection.checkedQuery("ROLLBACK", logger: logger)
    }

    /// Deletes the change log's entries up to `number`, outside any transaction (in a
    /// serializable one, its range read would make concurrent writers conflict). A failure only
    /// leaves the log longer.
    private func pruneChangeLog(through number: Int64) async {
        guard number > 0 else { return }
        _ = try? await client.query(
            PostgresQuery(unsafeSQL: "DELETE FROM \(names.changes) WHERE seq <= $1", binds: {
                var bindings = PostgresBindings()
                bindings.append(number)
                return bindings
            }()), logger: logger)
    }

    // MARK: Changes

    /// The changes committed to the store, by this instance or by any other on the same schema,
    /// in commit order as far as they reach this instance. A flush (``PostgresChange/isFlush``)
    /// means that this instance missed notifications (its listener connection dropped): anything
    /// may have changed.
    ///
    /// Each call returns a new sequence, subscribed at once, that starts with the next change.
    /// Its buffer holds at most ``Configuration-swift.struct/changesBufferLimit`` changes; past
    /// that, the loop gets one change marked ``PostgresChange/missedChanges`` for the dropped ones
    /// (see ``PostgresChanges``).
    public var changes: PostgresChanges {
        PostgresChanges(hub: hub, limit: configuration.changesBufferLimit)
    }

    /// The error of a transaction's body, told apart from the store's own failures: it is
    /// thrown as the body threw it.
    private struct BodyFailure: Error {
        var error: any Error
    }

    /// The number of items in the store's cache (for tests and monitoring).
    public var cachedItemCount: Int { cache.count }
}
