import Foundation
import Testing
import Trove
import TrovePostgres

/// The typed API of Trove as the shared suite uses it: one set of behaviours, two stores. Each
/// call is one transaction of the store, written with the store's own typed calls
/// (`User.read(tx).byKey`, `tx.write`, `tx.removeAll`…): the SQLite ones synchronously inside
/// `database.read/readWrite`, the PostgreSQL ones with `await` inside `store.read/readWrite`.
protocol TypedBackend: Sendable {
    var name: String { get }
    func write(_ users: [User]) async throws
    func byKey(_ id: UUID) async throws -> User?
    func byKeys(_ ids: [UUID]) async throws -> [User]
    func all() async throws -> [User]
    func filterExisting(_ ids: [UUID]) async throws -> (items: [User], missing: [UUID])
    func metadata(_ id: UUID) async throws -> UserStats?
    func setMetadata(_ stats: UserStats?, _ id: UUID) async throws -> Bool
    func remove(_ user: User) async throws -> Bool
    func remove(keys: [UUID]) async throws -> Int
    func removeAll() async throws -> Int
    func count() async throws -> Int
    func keys() async throws -> [UUID]
    func contains(_ id: UUID) async throws -> Bool
    func query(_ conditions: [IndexCondition<User>], _ orderings: [IndexOrder<User>], limit: Int?) async throws -> [UUID]
    func queryCount(_ conditions: [IndexCondition<User>]) async throws -> Int
    func dispose() async
}

/// The two stores; PostgreSQL twice: with the index of `User`, whose writes go one statement
/// each with their index rows, and without it, whose writes are held back and sent in batches
/// (``PendingRows``), with the next statement or the commit.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    case postgresWithoutIndex = "postgres-without-index"

    var testDescription: String { rawValue }

    /// The backends to run: PostgreSQL only when a server is configured (its skip is reported by
    /// ``PostgresSkipNotice``).
    static let available: [Backend] =
        TestServer.isConfigured ? [.sqlite, .postgres, .postgresWithoutIndex] : [.sqlite]

    /// The backends that keep the index of `User`, for the tests of its queries.
    static let indexed = available.filter { $0 != .postgresWithoutIndex }

    func make() async throws -> any TypedBackend {
        switch self {
        case .sqlite: SQLiteBackend(database: try Database.temporary(models: [User.self]))
        case .postgres: PostgresBackend(store: try await TestServer.openStore(indexes: [PostgresIndex(User.index)]))
        case .postgresWithoutIndex: PostgresBackend(store: try await TestServer.openStore())
        }
    }
}

struct SQLiteBackend: TypedBackend {
    let database: Database
    var name: String { "sqlite" }

    func write(_ users: [User]) async throws { try await database.write { tx in try tx.write(users) } }
    func byKey(_ id: UUID) async throws -> User? { try await database.read { tx in try tx.read(User.self, key: id) } }
    func byKeys(_ ids: [UUID]) async throws -> [User] { try await database.read { tx in try tx.read(User.self, keys: ids) } }
    func all() async throws -> [User] { try await database.read { tx in try tx.readAll(User.self) } }
    func filterExisting(_ ids: [UUID]) async throws -> (items: [User], missing: [UUID]) {
        let (items, missing) = try await database.read { tx in try tx.filterExisting(User.self, keys: ids) }
        return (items, missing)
    }
    func metadata(_ id: UUID) async throws -> UserStats? {
        try await database.read { tx in try tx.metadata(for: User.self, key: id) }
    }
    func setMetadata(_ stats: UserStats?, _ id: UUID) async throws -> Bool {
        try await database.write { tx in try tx.setMetadata(stats, for: User.self, key: id) }
    }
    func remove(_ user: User) async throws -> Bool { try await database.write { tx in try tx.remove(user) } }
    func remove(keys: [UUID]) async throws -> Int {
        try await database.write { tx in try tx.remove(User.self, keys: keys) }
    }
    func removeAll() async throws -> Int { try await database.write { tx in try tx.removeAll(User.self) } }
    func count() async throws -> Int { try await database.read { tx in try tx.count(of: User.self) } }
    func keys() async throws -> [UUID] { try await database.read { tx in try tx.keys(of: User.self) } }
    func contains(_ id: UUID) async throws -> Bool { try await database.read { tx in try tx.contains(User.self, key: id) } }
    func query(_ conditions: [IndexCondition<User>], _ orderings: [IndexOrder<User>], limit: Int?) async throws -> [UUID] {
        try await database.read { tx in
            var query = conditions.reduce(User.query) { $0.filter($1) }
            query = orderings.reduce(query) { $0.sorted(by: $1) }
            if let limit { query = query.limit(limit) }
            return try query.items(tx).map(\.userID)
        }
    }
    func queryCount(_ conditions: [IndexCondition<User>]) async throws -> Int {
        try await database.read { tx in try conditions.reduce(User.query(tx)) { $0.filter($1) }.count() }
    }
    func dispose() async {}
}

struct PostgresBackend: TypedBackend {
    let store: PostgresStore
    var name: String { "postgres" }

    func write(_ users: [User]) async throws { try await store.write { tx in try await tx.write(users) } }
    func byKey(_ id: UUID) async throws -> User? { try await store.read { tx in try await tx.read(User.self, key: id) } }
    func byKeys(_ ids: [UUID]) async throws -> [User] {
        try await store.read { tx in try await tx.read(User.self, keys: ids) }
    }
    func all() async throws -> [User] { try await store.read { tx in try await tx.readAll(User.self) } }
    func filterExisting(_ ids: [UUID]) async throws -> (items: [User], missing: [UUID]) {
        let (items, missing) = try await store.read { tx in try await tx.filterExisting(User.self, keys: ids) }
        return (items, missing)
    }
    func metadata(_ id: UUID) async throws -> UserStats? {
        try await store.read { tx in try await tx.metadata(for: User.self, key: id) }
    }
    func setMetadata(_ stats: UserStats?, _ id: UUID) async throws -> Bool {
        try await store.write { tx in try await tx.setMetadata(stats, for: User.self, key: id) }
    }
    func remove(_ user: User) async throws -> Bool { try await store.write { tx in try await tx.remove(user) } }
    func remove(keys: [UUID]) async throws -> Int {
        try await store.write { tx in try await tx.remove(User.self, keys: keys) }
    }
    func removeAll() async throws -> Int { try await store.write { tx in try await tx.removeAll(User.self) } }
    func count() async throws -> Int { try await store.read { tx in try await tx.count(of: User.self) } }
    func keys() async throws -> [UUID] { try await store.read { tx in try await tx.keys(of: User.self) } }
    func contains(_ id: UUID) async throws -> Bool {
        try await store.read { tx in try await tx.contains(User.self, key: id) }
    }
    func query(_ conditions: [IndexCondition<User>], _ orderings: [IndexOrder<User>], limit: Int?) async throws -> [UUID] {
        try await store.read { tx in
            var query = conditions.reduce(User.index.query) { $0.filter($1) }
            query = orderings.reduce(query) { $0.sorted(by: $1) }
            if let limit { query = query.limit(limit) }
            return try await query.items(tx).map(\.userID)
        }
    }
    func queryCount(_ conditions: [IndexCondition<User>]) async throws -> Int {
        try await store.read { tx in try await conditions.reduce(User.index.query(tx)) { $0.filter($1) }.count() }
    }
    func dispose() async { await TestServer.dispose(store) }
}
