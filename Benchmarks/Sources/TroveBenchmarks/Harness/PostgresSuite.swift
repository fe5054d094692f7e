#if Postgres
    import Foundation
    import Logging
    import NIOCore
    import PostgresNIO
    import Trove
    import TrovePostgres

    /// The PostgreSQL suite (issue 18), built only with the package trait `Postgres`: Trove's
    /// ``TrovePostgres/PostgresStore`` (generated coder, its cache, change log and notifications)
    /// against raw postgres-nio on the same table (collection, key, data bytea, metadata bytea)
    /// with the hand-written coder of the SQLite baseline, and against Fluent models with the
    /// same fields (``FluentPostgres``), through the database workloads of the SQLite suite, on
    /// the server of `TROVE_POSTGRES_URL` (`Scripts/postgres-test-server.sh`).
    ///
    /// Elapsed time (the server's work is in another process: this process's CPU time would not
    /// see it), median of the runs. The raw implementation writes what a careful user writes by
    /// hand: a point read is one `SELECT` (no transaction around it), a batch of reads one
    /// `REPEATABLE READ` transaction, writes one transaction of one upsert per item.
    struct PostgresSuite {
        /// The implementations, in the order of the table's columns; the first is Trove.
        static let implementations = ["Trove", "raw postgres-nio", "Fluent"]

        struct Row {
            let title: String
            /// The median seconds of each implementation, in the order of ``implementations``.
            var seconds: [Double]
        }

        let options: Options
        let fixtures: Fixtures
        let url: String
        private(set) var rows: [Row] = []

        /// Runs the suite and prints its table when `TROVE_POSTGRES_URL` names a server; says so
        /// and does nothing otherwise.
        static func runIfConfigured(options: Options, fixtures: Fixtures) throws {
            guard let url = ProcessInfo.processInfo.environment["TROVE_POSTGRES_URL"], !url.isEmpty else {
                log("postgres: skipped, TROVE_POSTGRES_URL is not set (eval \"$(Scripts/postgres-test-server.sh start)\")")
                return
            }
            var suite = PostgresSuite(options: options, fixtures: fixtures, url: url)
            try suite.run()
            print(suite.table().joined(separator: "\n"))
            // Issue 28: how long an observation in one instance takes to follow another's commit.
            print(try PostgresObservationDelay.measure(url: url).joined(separator: "\n"))
        }

        init(options: Options, fixtures: Fixtures, url: String) {
            self.options = options
            self.fixtures = fixtures
            self.url = url
        }

        mutating func run() throws {
            let fixtures = fixtures
            let url = url
            let runs = options.runs
            log("postgres: \(Workload.format(fixtures.users.count)) users on \(PostgresStore.Configuration.describe(url))")
            let stores: [any PostgresBenchmarkStore] = [
                try blocking { try await TroveOnPostgres(url: url) },
                try blocking { try await RawPostgres(url: url) },
                try blocking { try await FluentPostgres(url: url) },
            ]
            defer {
                for store in stores { store.close() }
            }
            let names = Self.implementations
            // Each run starts from empty tables and runs the workloads in order, as the SQLite
            // suite does: reads on the inserted users, then the writes. Every read's checksum
            // must match Trove's, and so must the final contents (read untimed after the writes).
            var samples: [String: [[Double]]] = [:]
            var titles: [String] = []
            var checksums: [String: Checksum] = [:]
            let finalTitle = "contents after the writes"
            for run in 0..<runs {
                for (index, implementation) in stores.enumerated() {
                    let name = names[index]
                    try blocking { try await implementation.reset() }
                    for (title, workload) in Self.workloads(fixtures) {
                        if run == 0 && index == 0 { titles.append(title) }
                        let start = ContinuousClock.now
                        let checksum = try blocking { try await workload(implementation) }
                        let seconds = start.duration(to: .now).seconds
                        samples[title, default: Array(repeating: [], count: stores.count)][index].append(seconds)
                        if let checksum { try Self.check(checksum, of: name, title: title, index: index, in: &checksums) }
                    }
                    let contents = try blocking { try await implementation.readAll() }
                    try Self.check(contents, of: name, title: finalTitle, index: index, in: &checksums)
                }
            }
            rows = titles.map { title in
                Row(title: title, seconds: samples[title]!.map(Self.median))
            }
        }

        /// Records Trove's checksum (`index` 0), or checks another implementation's against it.
        private static func check(
            _ checksum: Checksum, of name: String, title: String, index: Int, in checksums: inout [String: Checksum]
        ) throws {
            if index == 0 {
                checksums[title] = checksum
            } else if checksums[title] != checksum {
                throw BenchmarkError(
                    "postgres \(title): \(name) found \(checksum), Trove \(checksums[title].map { "\($0)" } ?? "-")")
            }
        }

        private static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted[sorted.count / 2]
        }

        /// The workloads, in order: a title and what it runs (a read returns its checksum).
        static func workloads(_ fixtures: Fixtures) -> [(String, @Sendable (any PostgresBenchmarkStore) async throws -> Checksum?)] {
            let n = Workload.format(fixtures.users.count)
            let users = fixtures.users
            let keys = fixtures.readKeys
            let updates = fixtures.updates
            let deletes = fixtures.deleteKeys
            let singles = fixtures.singleWrites
            return [
                ("insert \(n), one transaction", { store in try await store.insert(users); return nil }),
                ("read all \(n), one transaction", { store in try await store.readAll() }),
                ("\(n) point reads, each its own transaction", { store in try await store.readEach(keys) }),
                ("\(n) point reads, each one statement (no transaction)", { store in try await store.readEachAlone(keys) }),
                ("\(n) point reads, one transaction", { store in try await store.readBatch(keys) }),
                ("\(n) point reads again (Trove's cache warm), each its own transaction", { store in try await store.readEach(keys) }),
                ("\(n) metadata-only reads, one transaction", { store in try await store.readMetadata(keys) }),
                ("update \(Workload.format(updates.count)) (10%), one transaction", { store in try await store.update(updates); return nil }),
                ("delete \(Workload.format(deletes.count)) (10%), one transaction", { store in try await store.delete(deletes); return nil }),
                ("\(Workload.format(singles.count)) writes of one item, each its own transaction", { store in try await store.writeEach(singles); return nil }),
                ("relationships: write 1,000 authors and 10,000 posts with their author edge, one transaction", { store in
                    try await store.writePosts(PostgresCascadeFixtures.posts, of: PostgresCascadeFixtures.authors)
                    return nil
                }),
                ("relationships: remove the 1,000 authors, cascading to their 10,000 posts, one transaction", { store in
                    Checksum(found: try await store.removeAuthors(PostgresCascadeFixtures.authors.map(\.id)))
                }),
                ("search: index 5,000 documents (title and 150 to 350 words), one transaction", { store in
                    try await store.indexDocuments(PostgresSearchFixtures.corpus.documents)
                    return nil
                }),
                ("search: 300 queries, top 20 with a snippet of the body", { store in
                    try await store.searchTop20(PostgresSearchFixtures.queries)
                }),
            ]
        }

        /// The Markdown table of the results.
        func table() -> [String] {
            var lines = ["", "## PostgreSQL (issue 18)", ""]
            lines.append(
                "Elapsed time, median of \(options.runsPhrase), server on loopback. Trove = `PostgresStore` "
                    + "(generated coder, cache, change log + NOTIFY); raw = postgres-nio on the same table with the hand-written coder; "
                    + "Fluent = a FluentKit model with the same fields as columns (fluent-postgres-driver). "
                    + "Trove / raw aim: 1.3× or less; Trove / Fluent aim: below 1×.")
            lines.append("")
            lines.append("| Workload | Trove | raw postgres-nio | Fluent | Trove / raw | Trove / Fluent |")
            lines.append("|---|---:|---:|---:|---:|---:|")
            for row in rows {
                let durations = row.seconds.map(formatDuration).joined(separator: " | ")
                let ratios = row.seconds.dropFirst().map { Self.shownRatio(row.seconds[0] / $0) }.joined(separator: " | ")
                lines.append("| \(row.title) | \(durations) | \(ratios) |")
            }
            return lines
        }

        /// A ratio for the table: far below 1 (Trove's cache answers), "1/250×" says more than "0.00×".
        private static func shownRatio(_ ratio: Double) -> String {
            ratio < 0.1 ? "1/\(Int((1 / ratio).rounded()))×" : formatRatio(ratio)
        }
    }

    /// One implementation of the PostgreSQL suite.
    protocol PostgresBenchmarkStore: Sendable {
        func reset() async throws
        func insert(_ users: [User]) async throws
        func readAll() async throws -> Checksum
        /// Each key read in a `REPEATABLE READ` transaction of its own.
        func readEach(_ keys: [String]) async throws -> Checksum
        /// Each key read by one statement outside a transaction (the statement is its own snapshot).
        func readEachAlone(_ keys: [String]) async throws -> Checksum
        func readBatch(_ keys: [String]) async throws -> Checksum
        func readMetadata(_ keys: [String]) async throws -> Checksum
        func update(_ users: [User]) async throws
        func delete(_ keys: [String]) async throws
        func writeEach(_ users: [User]) async throws
        /// Writes `authors`, then `posts`, each post with its author's edge (Trove), foreign key
        /// (raw) or parent (Fluent), in one transaction.
        func writePosts(_ posts: [Post], of authors: [Author]) async throws
        /// Removes the authors at `keys` in one transaction; their posts go with them (Trove's
        /// delete rule, the foreign key's `ON DELETE CASCADE`); returns the posts left.
        func removeAuthors(_ keys: [String]) async throws -> Int
        /// Writes `documents` in one transaction, each indexed for full-text search.
        func indexDocuments(_ documents: [Document]) async throws
        /// Runs each query (a word, or a prefix), reading the top 20 documents with a snippet of
        /// the body.
        func searchTop20(_ queries: [(text: String, prefix: Bool)]) async throws -> Checksum
        func close()
    }

    /// The authors and posts of the relationship workloads (issue 28): 1,000 authors with 10 posts each.
    enum PostgresCascadeFixtures {
        static let authors = (0..<1_000).map { Author(id: String(format: "a%04d", $0), name: "Author \($0)") }
        static let posts = (0..<10_000).map {
            Post(id: String(format: "p%05d", $0), authorID: String(format: "a%04d", $0 / 10), title: "Post \($0)", body: "lorem ipsum")
        }
    }

    extension PostgresStore.Configuration {
        /// `url` without its password, for the log.
        static func describe(_ url: String) -> String {
            (try? PostgresStore.Configuration(url: url)).map { "\($0.host):\($0.port)/\($0.database)" } ?? url
        }
    }

    /// Trove on PostgreSQL, as its documentation shows it, on the schema `bench_trove`.
    ///
    /// Issue 27: written against the protocol API (`PostgresStore` as an `AsyncDatabaseWriter`:
    /// `store.write { tx in … }`, `store.read(User.self, key:)`, `tx.readAll(User.self)`), which
    /// TrovePostgres provides only once the PostgreSQL branch of issue 27 lands; until then the
    /// `Postgres` trait does not build. What to check then: how `PostgresStore.open` takes its
    /// models (`indexes:` may become `models:`), and that ``readEachAlone(_:)`` still measures one
    /// statement per read: the protocol's `read(_:key:)` runs a read transaction, so unless
    /// `PostgresStore` keeps a one-statement `read(_:key:)` of its own, the workload becomes the
    /// same as ``readEach(_:)``.
    final class TroveOnPostgres: PostgresBenchmarkStore {
        let store: PostgresStore

        /// The relationship of the cascade workload: a post goes with its author.
        static let edges = Relationships<Post>(
            "post_edges",
            edges: [.to("author", Author.self, rules: .deleteSourceWhenDestinationDeleted) { $0.authorID }])

        init(url: String) async throws {
            store = try await PostgresStore.open(
                url: url, schema: "bench_trove",
                extensions: [Self.edges.databaseExtension, Document.fullTextSearch.databaseExtension])
        }

        func reset() async throws {
            try await store.write { tx in
                _ = try await tx.removeAll(User.self)
                _ = try await tx.removeAll(Post.self)
                _ = try await tx.removeAll(Author.self)
                _ = try await tx.removeAll(Document.self)
            }
        }

        func writePosts(_ posts: [Post], of authors: [Author]) async throws {
            try await store.write { tx in
                try await tx.write(authors)
                try await tx.write(posts)
            }
        }

        func removeAuthors(_ keys: [String]) async throws -> Int {
            try await store.write { tx in
                _ = try await tx.remove(Author.self, keys: keys)
                return try await tx.count(of: Post.self)
            }
        }

        func insert(_ users: [User]) async throws {
            try await store.write { tx in try await tx.write(users) }
        }

        func readAll() async throws -> Checksum {
            var checksum = Checksum()
            for user in try await store.read({ tx in try await tx.readAll(User.self) }) { checksum.add(user) }
            return checksum
        }

        func readEach(_ keys: [String]) async throws -> Checksum {
            var checksum = Checksum()
            for key in keys {
                if let user = try await store.read({ tx in try await tx.read(User.self, key: key) }) { checksum.add(user) }
            }
            return checksum
        }

        func readEachAlone(_ keys: [String]) async throws -> Checksum {
            var checksum = Checksum()
            for key in keys {
                if let user = try await store.read(User.self, key: key) { checksum.add(user) }
            }
            return checksum
        }

        func readBatch(_ keys: [String]) async throws -> Checksum {
            try await store.read { tx in
                var checksum = Checksum()
                for key in keys {
                    if let user = try await tx.read(User.self, key: key) { checksum.add(user) }
                }
                return checksum
            }
        }

        func readMetadata(_ keys: [String]) async throws -> Checksum {
            try await store.read { tx in
                var checksum = Checksum()
                for key in keys {
                    if let stats = try await tx.metadata(for: User.self, key: key) { checksum.add(stats) }
                }
                return checksum
            }
        }

        func update(_ users: [User]) async throws {
            try await store.write { tx in try await tx.write(users) }
        }

        func delete(_ keys: [String]) async throws {
            try await store.write { tx in _ = try await tx.remove(User.self, keys: keys) }
        }

        func writeEach(_ users: [User]) async throws {
            for user in users {
                try await store.write { tx in try await tx.write(user) }
            }
        }

        func close() { store.close() }
    }

    /// Raw postgres-nio on Trove's table layout, schema `bench_raw`, with the hand-written coder.
    final class RawPostgres: PostgresBenchmarkStore {
        let client: PostgresClient
        private let task: Task<Void, Never>
        let logger = Logger(label: "bench.raw")

        init(url: String) async throws {
            let configuration = try PostgresStore.Configuration(url: url)
            let client = PostgresClient(
                configuration: .init(
                    host: configuration.host, port: configuration.port, username: configuration.username,
                    password: configuration.password, database: configuration.database, tls: .disable))
            self.client = client
            task = Task { await client.run() }
            try await client.query("CREATE SCHEMA IF NOT EXISTS bench_raw")
            try await client.query(
                """
                CREATE TABLE IF NOT EXISTS bench_raw.items (
                    collection text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL,
                    data bytea NOT NULL, metadata bytea, PRIMARY KEY (collection, key))
                """)
            // The relationship workloads, as a careful user writes them by hand: a foreign key
            // with ON DELETE CASCADE, indexed.
            try await client.query("CREATE TABLE IF NOT EXISTS bench_raw.authors (id text PRIMARY KEY, name text NOT NULL)")
            try await client.query(
                """
                CREATE TABLE IF NOT EXISTS bench_raw.posts (
                    id text PRIMARY KEY, author_id text NOT NULL REFERENCES bench_raw.authors (id) ON DELETE CASCADE,
                    title text NOT NULL, body text NOT NULL)
                """)
            try await client.query("CREATE INDEX IF NOT EXISTS posts_author ON bench_raw.posts (author_id)")
            try await Self.makeSearchTable(client)
        }

        func writePosts(_ posts: [Post], of authors: [Author]) async throws {
            try await transaction("BEGIN") { connection in
                for author in authors {
                    try await connection.query(
                        "INSERT INTO bench_raw.authors (id, name) VALUES (\(author.id), \(author.name))", logger: logger)
                }
                for post in posts {
                    try await connection.query(
                        """
                        INSERT INTO bench_raw.posts (id, author_id, title, body)
                        VALUES (\(post.id), \(post.authorID), \(post.title), \(post.body))
                        """, logger: logger)
                }
            }
        }

        func removeAuthors(_ keys: [String]) async throws -> Int {
            try await transaction("BEGIN") { connection in
                try await connection.query("DELETE FROM bench_raw.authors WHERE id = ANY(\(keys))", logger: logger)
                var count = 0
                for try await value in try await connection.query("SELECT count(*) FROM bench_raw.posts", logger: logger)
                    .decode(Int.self)
                {
                    count = value
                }
                return count
            }
        }

        func close() { task.cancel() }

        private static func encode(_ user: User) -> (ByteBuffer, ByteBuffer?) {
            let writer = CompactWriter()
            HandWrittenCoder.encode(user, to: writer)
            let data = writer.withUnsafeBytes { ByteBuffer(bytes: $0) }
            guard let stats = user.metadata else { return (data, nil) }
            writer.removeAll()
            HandWrittenCoder.encode(stats, to: writer)
            return (data, writer.withUnsafeBytes { ByteBuffer(bytes: $0) })
        }

        private static func decode(_ data: ByteBuffer, _ metadata: ByteBuffer?) throws -> User {
            var user = try data.withUnsafeReadableBytes { try HandWrittenCoder.decodeUser(from: $0) }
            if let metadata {
                user.metadata = try metadata.withUnsafeReadableBytes { try HandWrittenCoder.decodeStats(from: $0) }
            }
            return user
        }

        func transaction<T: Sendable>(
            _ begin: PostgresQuery, _ body: (PostgresConnection) async throws -> T
        ) async throws -> T {
            try await client.withConnection { connection in
                try await connection.query(begin, logger: logger)
                do {
                    let value = try await body(connection)
                    try await connection.query("COMMIT", logger: logger)
                    return value
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }

        func reset() async throws {
            try await client.query("DELETE FROM bench_raw.items WHERE collection = 'users'")
            try await client.query("DELETE FROM bench_raw.authors")
            try await client.query("DELETE FROM bench_raw.documents")
        }

        private func upsert(_ users: [User], on connection: PostgresConnection) async throws {
            for user in users {
                let (data, metadata) = Self.encode(user)
                try await connection.query(
                    """
                    INSERT INTO bench_raw.items (collection, key, data, metadata) VALUES ('users', \(user.id), \(data), \(metadata))
                    ON CONFLICT (collection, key) DO UPDATE SET data = excluded.data, metadata = excluded.metadata
                    """, logger: logger)
            }
        }

        func insert(_ users: [User]) async throws {
            try await transaction("BEGIN") { try await upsert(users, on: $0) }
        }

        func readAll() async throws -> Checksum {
            try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
                var checksum = Checksum()
                let rows = try await connection.query(
                    "SELECT data, metadata FROM bench_raw.items WHERE collection = 'users' ORDER BY key", logger: logger)
                for try await (data, metadata) in rows.decode((ByteBuffer, ByteBuffer?).self) {
                    checksum.add(try Self.decode(data, metadata))
                }
                return checksum
            }
        }

        private func read(_ key: String, on connection: PostgresConnection) async throws -> User? {
            let rows = try await connection.query(
                "SELECT data, metadata FROM bench_raw.items WHERE collection = 'users' AND key = \(key)", logger: logger)
            var user: User?
            for try await (data, metadata) in rows.decode((ByteBuffer, ByteBuffer?).self) {
                user = try Self.decode(data, metadata)
            }
            return user
        }

        func readEach(_ keys: [String]) async throws -> Checksum {
            var checksum = Checksum()
            for key in keys {
                let user = try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                    try await read(key, on: $0)
                }
                if let user { checksum.add(user) }
            }
            return checksum
        }

        func readEachAlone(_ keys: [String]) async throws -> Checksum {
            var checksum = Checksum()
            for key in keys {
                if let user = try await client.withConnection({ try await read(key, on: $0) }) { checksum.add(user) }
            }
            return checksum
        }

        func readBatch(_ keys: [String]) async throws -> Checksum {
            try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
                var checksum = Checksum()
                for key in keys {
                    if let user = try await read(key, on: connection) { checksum.add(user) }
                }
                return checksum
            }
        }

        func readMetadata(_ keys: [String]) async throws -> Checksum {
            try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
                var checksum = Checksum()
                for key in keys {
                    let rows = try await connection.query(
                        "SELECT metadata FROM bench_raw.items WHERE collection = 'users' AND key = \(key)", logger: logger)
                    for try await metadata in rows.decode(ByteBuffer?.self) {
                        if let metadata {
                            checksum.add(try metadata.withUnsafeReadableBytes { try HandWrittenCoder.decodeStats(from: $0) })
                        }
                    }
                }
                return checksum
            }
        }

        func update(_ users: [User]) async throws {
            try await transaction("BEGIN") { try await upsert(users, on: $0) }
        }

        func delete(_ keys: [String]) async throws {
            try await transaction("BEGIN") { connection in
                for key in keys {
                    try await connection.query(
                        "DELETE FROM bench_raw.items WHERE collection = 'users' AND key = \(key)", logger: logger)
                }
            }
        }

        func writeEach(_ users: [User]) async throws {
            for user in users {
                try await transaction("BEGIN") { try await upsert([user], on: $0) }
            }
        }
    }

    /// Runs `work` in a task and waits for it on this (non-cooperative) thread.
    func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = PostgresResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                box.result = .success(try await work())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// The result of a task, handed to the thread that waits for it.
    final class PostgresResultBox<T: Sendable>: @unchecked Sendable {
        // @unchecked because `result` is written by the task before it signals the semaphore and
        // read by the waiting thread after the semaphore: the semaphore orders the two.
        var result: Result<T, any Error>?
    }
#endif
