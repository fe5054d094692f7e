import Trove

/// Trove with a ``SecondaryIndex`` on `age` and a unique one on `email`, defined by hand (the
/// benchmark's model carries no `@indexed` annotations) and registered at open, as the
/// documentation shows; one connection writes, one reads, default configuration.
final class TroveIndexedStore: IndexedBenchmarkStore {
    /// The index: `age`, and `email` unique.
    static let byAgeAndEmail = SecondaryIndex<User>(
        "users_by_age_and_email",
        columns: [
            .column("age") { $0.age },
            .column("email", unique: true) { $0.email },
        ])

    /// An open database with its two connections.
    private final class Session {
        let database: Database
        let writer: Connection
        let reader: Connection

        init(path: String, configuration: Configuration) throws {
            database = try Database(
                path: path, configuration: configuration, extensions: [TroveIndexedStore.byAgeAndEmail.databaseExtension])
            writer = try database.newConnection()
            reader = try database.newConnection()
        }
    }

    private let path: String
    private var openSession: Session?

    private var session: Session {
        get throws {
            guard let openSession else { throw BenchmarkError("the Trove database is closed") }
            return openSession
        }
    }

    /// How the database opens: the default, or with a key (the columns "Trove, encrypted").
    private let configuration: Configuration

    convenience init(directory: String) throws {
        try self.init(directory: directory, configuration: .benchmark(key: nil))
    }

    init(directory: String, configuration: Configuration) throws {
        self.configuration = configuration
        path = directory + "/users.trove"
        openSession = try Session(path: path, configuration: configuration)
    }

    func insert(_ users: [User]) throws {
        try session.writer.write { tx in try tx.write(users) }
    }

    func users(age: Int) throws -> [User] {
        try session.reader.read { tx in
            try Self.byAgeAndEmail.query.filter(.column("age", equals: age)).items(tx)
        }
    }

    func users(ages: Range<Int>) throws -> [User] {
        try session.reader.read { tx in
            try Self.byAgeAndEmail.query.filter(.column("age", in: ages)).items(tx)
        }
    }

    func page(age: Int, limit: Int) throws -> [User] {
        try session.reader.read { tx in
            try Self.byAgeAndEmail.query.filter(.column("age", equals: age)).limit(limit).items(tx)
        }
    }

    func page(ages: Range<Int>, limit: Int) throws -> [User] {
        try session.reader.read { tx in
            try Self.byAgeAndEmail.query.filter(.column("age", in: ages)).limit(limit).items(tx)
        }
    }

    func pageSortedByEmail(age: Int, limit: Int) throws -> [User] {
        try session.reader.read { tx in
            try Self.byAgeAndEmail.query.filter(.column("age", equals: age)).sorted(by: .column("email")).limit(limit)
                .items(tx)
        }
    }

    func ageAggregates(ages: Range<Int>) throws -> AgeAggregates {
        try session.reader.read { tx in
            let query = Self.byAgeAndEmail.query.filter(.column("age", in: ages))
            let sum = try query.sum(of: "age").value(tx)
            let groups = try query.grouped(by: "age").count().value(tx)
            return AgeAggregates(
                sum: sum,
                counts: groups.map { group in
                    guard case .integer(let age) = group.group else { return AgeCount(age: -1, count: group.value) }
                    return AgeCount(age: Int(age), count: group.value)
                })
        }
    }

    func update(_ users: [User]) throws {
        try session.writer.write { tx in try tx.write(users) }
    }

    func dropIndex() throws {
        try session.database.unregister(Self.byAgeAndEmail.name)
    }

    func addIndex() throws {
        let registration = try session.database.register(Self.byAgeAndEmail.databaseExtension)
        guard registration == .created else { throw BenchmarkError("Trove: the index was \(registration), not created") }
    }

    func close() throws {
        openSession = nil
    }

    func reopen() throws {
        openSession = try Session(path: path, configuration: configuration)
    }
}
