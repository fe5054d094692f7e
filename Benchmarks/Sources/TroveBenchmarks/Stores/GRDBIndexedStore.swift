import GRDB

/// GRDB.swift 7.10.0 with SQL indexes on its `age` and `email` columns (`email` unique), the
/// idiomatic way: the table of ``GRDBStore`` plus two `CREATE INDEX`, queried with
/// `User.filter(Column("age") == age).fetchAll(db)` through a `DatabasePool`.
final class GRDBIndexedStore: IndexedBenchmarkStore {
    private static let age = Column("age")
    private static let id = Column("id")
    private static let email = Column("email")

    private let path: String
    private var openPool: DatabasePool?

    private var pool: DatabasePool {
        get throws {
            guard let openPool else { throw BenchmarkError("the GRDB database is closed") }
            return openPool
        }
    }

    init(directory: String) throws {
        path = directory + "/users.grdb.sqlite"
        openPool = try Self.open(path)
    }

    /// Opens the pool, creating the table and the indexes when they are not there.
    private static func open(_ path: String) throws -> DatabasePool {
        var configuration = GRDB.Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.create(table: User.databaseTableName, options: .ifNotExists) { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("email", .text).notNull()
                table.column("age", .integer).notNull()
                table.column("score", .double).notNull()
                table.column("tags", .jsonText).notNull()
                table.column("created", .datetime).notNull()
                table.column("metadata", .jsonText)
            }
            try createIndexes(db)
        }
        return pool
    }

    private static func createIndexes(_ db: GRDB.Database) throws {
        try db.create(indexOn: User.databaseTableName, columns: ["age"], options: .ifNotExists)
        try db.create(indexOn: User.databaseTableName, columns: ["email"], options: [.unique, .ifNotExists])
    }

    func insert(_ users: [User]) throws {
        try pool.write { db in
            for user in users { try user.insert(db) }
        }
    }

    func users(age: Int) throws -> [User] {
        try pool.read { db in try User.filter(Self.age == age).fetchAll(db) }
    }

    func users(ages: Range<Int>) throws -> [User] {
        try pool.read { db in try User.filter(ages.contains(Self.age)).fetchAll(db) }
    }

    func page(age: Int, limit: Int) throws -> [User] {
        try pool.read { db in try User.filter(Self.age == age).order(Self.id).limit(limit).fetchAll(db) }
    }

    func page(ages: Range<Int>, limit: Int) throws -> [User] {
        try pool.read { db in try User.filter(ages.contains(Self.age)).order(Self.id).limit(limit).fetchAll(db) }
    }

    func pageSortedByEmail(age: Int, limit: Int) throws -> [User] {
        try pool.read { db in try User.filter(Self.age == age).order(Self.email).limit(limit).fetchAll(db) }
    }

    func ageAggregates(ages: Range<Int>) throws -> AgeAggregates {
        try pool.read { db in
            let request = User.filter(ages.contains(Self.age))
            let sum = try request.select(GRDB.sum(Self.age), as: Int.self).fetchOne(db) ?? 0
            // COUNT(*), which the index on age answers alone (COUNT(id) reads every row's id from the table).
            let rows = try request.select(Self.age, SQL("COUNT(*)")).group(Self.age).order(Self.age)
                .asRequest(of: Row.self).fetchAll(db)
            return AgeAggregates(sum: sum, counts: rows.map { AgeCount(age: $0[0], count: $0[1]) })
        }
    }

    func update(_ users: [User]) throws {
        try pool.write { db in
            for user in users { try user.update(db) }
        }
    }

    func dropIndex() throws {
        try pool.write { db in
            try db.drop(indexOn: User.databaseTableName, columns: ["age"])
            try db.drop(indexOn: User.databaseTableName, columns: ["email"])
        }
    }

    func addIndex() throws {
        try pool.write { db in try Self.createIndexes(db) }
    }

    func close() throws {
        try openPool?.close()
        openPool = nil
    }

    func reopen() throws {
        openPool = try Self.open(path)
    }
}
