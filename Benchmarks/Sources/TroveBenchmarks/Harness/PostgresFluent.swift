#if Postgres
    import FluentKit
    import FluentPostgresDriver
    import Foundation
    import Logging
    import NIOCore
    import NIOPosix
    import SQLKit
    import TrovePostgres

    /// The benchmark's ``User`` as a Fluent model, with the same fields as columns, in the
    /// PostgreSQL schema `bench_fluent`. The metadata (``UserStats``) is two nullable columns,
    /// as a Fluent user would model it.
    final class FluentUser: Model, @unchecked Sendable {
        // @unchecked Sendable as Fluent's own documentation declares models: a model's property
        // wrappers hold mutable storage, and the benchmark hands each instance to one task only.
        static let schema = "users"
        static let space: String? = "bench_fluent"

        @ID(custom: "id", generatedBy: .user) var id: String?
        @Field(key: "name") var name: String
        @Field(key: "email") var email: String
        @Field(key: "age") var age: Int
        @Field(key: "score") var score: Double
        @Field(key: "tags") var tags: [String]
        @Field(key: "created") var created: Date
        @OptionalField(key: "visits") var visits: Int?
        @OptionalField(key: "last_seen") var lastSeen: Date?

        init() {}

        init(_ user: User) {
            id = user.id
            name = user.name
            email = user.email
            age = user.age
            score = user.score
            tags = user.tags
            created = user.created
            visits = user.metadata?.visits
            lastSeen = user.metadata?.lastSeen
        }

        /// The stats of the model's columns, `nil` when it has none.
        var stats: UserStats? {
            guard let visits, let lastSeen else { return nil }
            return UserStats(visits: visits, lastSeen: lastSeen)
        }

        /// The benchmark's value type.
        var user: User {
            User(
                id: id ?? "", name: name, email: email, age: age, score: score, tags: tags, created: created,
                metadata: stats)
        }
    }

    /// An author of the relationship workloads, as a Fluent model.
    final class FluentAuthor: Model, @unchecked Sendable {
        // @unchecked Sendable as ``FluentUser``.
        static let schema = "authors"
        static let space: String? = "bench_fluent"

        @ID(custom: "id", generatedBy: .user) var id: String?
        @Field(key: "name") var name: String

        init() {}

        init(_ author: Author) {
            id = author.id
            name = author.name
        }
    }

    /// A post of the relationship workloads, as a Fluent model: its author is a `@Parent`, whose
    /// foreign key removes the post with its author (`ON DELETE CASCADE`).
    final class FluentPost: Model, @unchecked Sendable {
        // @unchecked Sendable as ``FluentUser``.
        static let schema = "posts"
        static let space: String? = "bench_fluent"

        @ID(custom: "id", generatedBy: .user) var id: String?
        @Parent(key: "author_id") var author: FluentAuthor
        @Field(key: "title") var title: String
        @Field(key: "body") var body: String

        init() {}

        init(_ post: Post) {
            id = post.id
            $author.id = post.authorID
            title = post.title
            body = post.body
        }
    }

    /// Fluent (FluentKit with its PostgreSQL driver, on its default connection pool) through the
    /// workloads of the suite, written as Fluent's documentation shows: `find` for a point read,
    /// `create` for an insert, a query's `set`/`update` and `delete` for the others, in
    /// `transaction` where the workload asks for one. Batches of reads set `REPEATABLE READ READ
    /// ONLY` first, for the snapshot Trove's and raw postgres-nio's read transactions give.
    final class FluentPostgres: PostgresBenchmarkStore {
        private let databases: Databases
        let database: any Database

        init(url: String) async throws {
            let configuration = try PostgresStore.Configuration(url: url)
            let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
            databases.use(
                .postgres(
                    configuration: SQLPostgresConfiguration(
                        hostname: configuration.host, port: configuration.port, username: configuration.username,
                        password: configuration.password, database: configuration.database, tls: .disable)),
                as: .psql)
            var logger = Logger(label: "bench.fluent")
            logger.logLevel = .error
            guard let database = databases.database(.psql, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
            else { throw BenchmarkError("fluent: no database configured") }
            self.databases = databases
            self.database = database
            guard let sql = database as? any SQLDatabase else { throw BenchmarkError("fluent: not an SQL database") }
            try await sql.raw("CREATE SCHEMA IF NOT EXISTS bench_fluent").run()
            try await database.schema(FluentUser.schema, space: FluentUser.space)
                .field("id", .string, .identifier(auto: false))
                .field("name", .string, .required)
                .field("email", .string, .required)
                .field("age", .int, .required)
                .field("score", .double, .required)
                .field("tags", .array(of: .string), .required)
                .field("created", .datetime, .required)
                .field("visits", .int)
                .field("last_seen", .datetime)
                .ignoreExisting()
                .create()
            try await database.schema(FluentAuthor.schema, space: FluentAuthor.space)
                .field("id", .string, .identifier(auto: false))
                .field("name", .string, .required)
                .ignoreExisting()
                .create()
            try await database.schema(FluentPost.schema, space: FluentPost.space)
                .field("id", .string, .identifier(auto: false))
                .field("author_id", .string, .required, .references(FluentAuthor.schema, space: FluentAuthor.space, "id", onDelete: .cascade))
                .field("title", .string, .required)
                .field("body", .string, .required)
                .ignoreExisting()
                .create()
            try await sql.raw("CREATE INDEX IF NOT EXISTS posts_author ON bench_fluent.posts (author_id)").run()
            try await Self.makeSearchTable(sql)
        }

        func writePosts(_ posts: [Post], of authors: [Author]) async throws {
            try await database.transaction { tx in
                for author in authors { try await FluentAuthor(author).create(on: tx) }
                for post in posts { try await FluentPost(post).create(on: tx) }
            }
        }

        func removeAuthors(_ keys: [String]) async throws -> Int {
            try await database.transaction { tx in
                try await FluentAuthor.query(on: tx).filter(\.$id ~~ keys).delete()
                return try await FluentPost.query(on: tx).count()
            }
        }

        func close() {
            databases.shutdown()
        }

        /// Sets the snapshot isolation of the read workloads on the transaction `database` runs.
        private static func repeatableRead(_ database: any Database) async throws {
            guard let sql = database as? any SQLDatabase else { throw BenchmarkError("fluent: not an SQL database") }
            try await sql.raw("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY").run()
        }

        func reset() async throws {
            try await FluentUser.query(on: database).delete()
            try await FluentAuthor.query(on: database).delete()
            try await FluentDocument.query(on: database).delete()
        }

        func insert(_ users: [User]) async throws {
            try await database.transaction { tx in
                for user in users { try await FluentUser(user).create(on: tx) }
            }
        }

        func readAll() async throws -> Checksum {
            try await database.transaction { tx in
                try await Self.repeatableRead(tx)
                var checksum = Checksum()
                for model in try await FluentUser.query(on: tx).sort(\.$id).all() { checksum.add(model.user) }
                return checksum
            }
        }

        func readEach(_ keys: [String]) async throws -> Checksum {
            var checksum = Checksum()
            for key in keys {
                // Fluent's own transaction (READ COMMITTED: one read needs no more).
                let model = try await database.transaction { tx in try await FluentUser.find(key, on: tx) }
                if let model { checksum.add(model.user) }
            }
            return checksum
        }

        func readEachAlone(_ keys: [String]) async throws -> Checksum {
            var checksum = Checksum()
            for key in keys {
                if let model = try await FluentUser.find(key, on: database) { checksum.add(model.user) }
            }
            return checksum
        }

        func readBatch(_ keys: [String]) async throws -> Checksum {
            try await database.transaction { tx in
                try await Self.repeatableRead(tx)
                var checksum = Checksum()
                for key in keys {
                    if let model = try await FluentUser.find(key, on: tx) { checksum.add(model.user) }
                }
                return checksum
            }
        }

        func readMetadata(_ keys: [String]) async throws -> Checksum {
            try await database.transaction { tx in
                try await Self.repeatableRead(tx)
                var checksum = Checksum()
                for key in keys {
                    if let model = try await FluentUser.query(on: tx).filter(\.$id == key)
                        .field(\.$visits).field(\.$lastSeen).first(),
                        let stats = model.stats
                    {
                        checksum.add(stats)
                    }
                }
                return checksum
            }
        }

        /// Rewrites every column of the stored user (the users of these workloads exist).
        private static func update(_ user: User, on database: any Database) async throws {
            try await FluentUser.query(on: database).filter(\.$id == user.id)
                .set(\.$name, to: user.name)
                .set(\.$email, to: user.email)
                .set(\.$age, to: user.age)
                .set(\.$score, to: user.score)
                .set(\.$tags, to: user.tags)
                .set(\.$created, to: user.created)
                .set(\.$visits, to: user.metadata?.visits)
                .set(\.$lastSeen, to: user.metadata?.lastSeen)
                .update()
        }

        func update(_ users: [User]) async throws {
            try await database.transaction { tx in
                for user in users { try await Self.update(user, on: tx) }
            }
        }

        func delete(_ keys: [String]) async throws {
            try await database.transaction { tx in
                for key in keys { try await FluentUser.query(on: tx).filter(\.$id == key).delete() }
            }
        }

        func writeEach(_ users: [User]) async throws {
            for user in users {
                try await database.transaction { tx in try await Self.update(user, on: tx) }
            }
        }
    }
#endif
