import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// Every place the typed API runs on, each through the product's own protocols:
///
/// - SQLite's places synchronously, generic over ``DatabaseWriter`` (a `Connection`, the `Database`
///   pool), and inside one synchronous transaction (`ReadWriteTransaction`);
/// - every engine's places asynchronously, generic over ``AsyncDatabaseWriter`` (a `Connection`,
///   the `Database`, a `PostgresStore`), and inside their transactions, generic over
///   ``TransactionWriting``.
///
/// Each operation is called once per form (synchronous or not, place or transaction) in the four
/// drivers below, which are generic over the product's protocols: a place that lacked an
/// operation would not compile, and the suite never names an engine in an operation.
enum SuitePlace: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case transaction, connection, database
    case connectionAsync = "connection-async"
    case databaseAsync = "database-async"
    case sqliteAnyEngineTransaction = "sqlite-any-engine-transaction"
    case postgres
    case postgresTransaction = "postgres-transaction"

    var testDescription: String { rawValue }

    var isPostgres: Bool { self == .postgres || self == .postgresTransaction }

    /// The places to run: PostgreSQL's only when a server is configured.
    static let available: [SuitePlace] = allCases.filter { TestServer.isConfigured || !$0.isPostgres }
}

/// The operations of the suite, as one place runs them.
protocol SuiteDriver: Sendable {
    func write(_ user: User) async throws
    func write(_ users: [User]) async throws
    func write(_ posts: [Post]) async throws
    func read(_ id: UUID) async throws -> User?
    func read(keys: [UUID]) async throws -> [User]
    func readAll() async throws -> [User]
    func keys() async throws -> [UUID]
    func count() async throws -> Int
    func contains(_ id: UUID) async throws -> Bool
    func metadata(_ id: UUID) async throws -> UserStats?
    func setMetadata(_ stats: UserStats?, _ id: UUID) async throws -> Bool
    func remove(_ user: User) async throws -> Bool
    func remove(keys: [UUID]) async throws -> Int
    func removeAll() async throws -> Int
    func items<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item]
    func keys<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item.ID]
    func first<Query: ItemQuery>(_ query: Query) async throws -> Query.Item?
    func count<Query: ItemQuery>(_ query: Query) async throws -> Int
    func hits(_ search: FullTextQuery<User>) async throws -> [SearchHit<User>]
}

/// Runs `body` on the caller's thread: a synchronous context, where SQLite's synchronous
/// overloads are the ones chosen.
private func synchronously<T>(_ body: () throws -> T) rethrows -> T {
    try body()
}

/// A SQLite place, synchronously: one-call conveniences and query terminals `in:` the place.
struct SyncPlaceDriver<Place: DatabaseWriter>: SuiteDriver {
    let place: Place

    func write(_ user: User) async throws { try synchronously { try place.write(user) } }
    func write(_ users: [User]) async throws { try synchronously { try place.write(users) } }
    func write(_ posts: [Post]) async throws { try synchronously { try place.write(posts) } }
    func read(_ id: UUID) async throws -> User? { try synchronously { try place.read(User.self, key: id) } }
    func read(keys: [UUID]) async throws -> [User] { try synchronously { try place.read(User.self, keys: keys) } }
    func readAll() async throws -> [User] { try synchronously { try place.readAll(User.self) } }
    func keys() async throws -> [UUID] { try synchronously { try place.keys(of: User.self) } }
    func count() async throws -> Int { try synchronously { try place.count(of: User.self) } }
    func contains(_ id: UUID) async throws -> Bool { try synchronously { try place.contains(User.self, key: id) } }
    func metadata(_ id: UUID) async throws -> UserStats? {
        try synchronously { try place.metadata(for: User.self, key: id) }
    }
    func setMetadata(_ stats: UserStats?, _ id: UUID) async throws -> Bool {
        try synchronously { try place.setMetadata(stats, for: User.self, key: id) }
    }
    func remove(_ user: User) async throws -> Bool { try synchronously { try place.remove(user) } }
    func remove(keys: [UUID]) async throws -> Int { try synchronously { try place.remove(User.self, keys: keys) } }
    func removeAll() async throws -> Int { try synchronously { try place.removeAll(User.self) } }
    func items<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item] {
        try synchronously { try query.items(in: place) }
    }
    func keys<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item.ID] {
        try synchronously { try query.keys(in: place) }
    }
    func first<Query: ItemQuery>(_ query: Query) async throws -> Query.Item? {
        try synchronously { try query.first(in: place) }
    }
    func count<Query: ItemQuery>(_ query: Query) async throws -> Int {
        try synchronously { try query.count(in: place) }
    }
    func hits(_ search: FullTextQuery<User>) async throws -> [SearchHit<User>] {
        try synchronously { try search.hits(in: place) }
    }
}

/// Inside transactions of a SQLite place, synchronously: the transaction's methods and the query
/// terminals that take a `ReadTransaction`.
struct SyncTransactionDriver<Place: DatabaseWriter>: SuiteDriver {
    let place: Place

    func write(_ user: User) async throws { try synchronously { try place.write { tx in try tx.write(user) } } }
    func write(_ users: [User]) async throws { try synchronously { try place.write { tx in try tx.write(users) } } }
    func write(_ posts: [Post]) async throws { try synchronously { try place.write { tx in try tx.write(posts) } } }
    func read(_ id: UUID) async throws -> User? {
        try synchronously { try place.read { tx in try tx.read(User.self, key: id) } }
    }
    func read(keys: [UUID]) async throws -> [User] {
        try synchronously { try place.read { tx in try tx.read(User.self, keys: keys) } }
    }
    func readAll() async throws -> [User] { try synchronously { try place.read { tx in try tx.readAll(User.self) } } }
    func keys() async throws -> [UUID] { try synchronously { try place.read { tx in try tx.keys(of: User.self) } } }
    func count() async throws -> Int { try synchronously { try place.read { tx in try tx.count(of: User.self) } } }
    func contains(_ id: UUID) async throws -> Bool {
        try synchronously { try place.read { tx in try tx.contains(User.self, key: id) } }
    }
    func metadata(_ id: UUID) async throws -> UserStats? {
        try synchronously { try place.read { tx in try tx.metadata(for: User.self, key: id) } }
    }
    func setMetadata(_ stats: UserStats?, _ id: UUID) async throws -> Bool {
        try synchronously { try place.write { tx in try tx.setMetadata(stats, for: User.self, key: id) } }
    }
    func remove(_ user: User) async throws -> Bool {
        try synchronously { try place.write { tx in try tx.remove(user) } }
    }
    func remove(keys: [UUID]) async throws -> Int {
        try synchronously { try place.write { tx in try tx.remove(User.self, keys: keys) } }
    }
    func removeAll() async throws -> Int { try synchronously { try place.write { tx in try tx.removeAll(User.self) } } }
    func items<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item] {
        try synchronously { try place.read { tx in try query.items(tx) } }
    }
    func keys<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item.ID] {
        try synchronously { try place.read { tx in try query.keys(tx) } }
    }
    func first<Query: ItemQuery>(_ query: Query) async throws -> Query.Item? {
        try synchronously { try place.read { tx in try query.first(tx) } }
    }
    func count<Query: ItemQuery>(_ query: Query) async throws -> Int {
        try synchronously { try place.read { tx in try query.count(tx) } }
    }
    func hits(_ search: FullTextQuery<User>) async throws -> [SearchHit<User>] {
        try synchronously { try place.read { tx in try search.hits(tx) } }
    }
}

/// A place of any engine, asynchronously: one-call conveniences and query terminals `in:` it.
struct AsyncPlaceDriver<Place: AsyncDatabaseWriter>: SuiteDriver {
    let place: Place

    func write(_ user: User) async throws { try await place.write(user) }
    func write(_ users: [User]) async throws { try await place.write(users) }
    func write(_ posts: [Post]) async throws { try await place.write(posts) }
    func read(_ id: UUID) async throws -> User? { try await place.read(User.self, key: id) }
    func read(keys: [UUID]) async throws -> [User] { try await place.read(User.self, keys: keys) }
    func readAll() async throws -> [User] { try await place.readAll(User.self) }
    func keys() async throws -> [UUID] { try await place.keys(of: User.self) }
    func count() async throws -> Int { try await place.count(of: User.self) }
    func contains(_ id: UUID) async throws -> Bool { try await place.contains(User.self, key: id) }
    func metadata(_ id: UUID) async throws -> UserStats? { try await place.metadata(for: User.self, key: id) }
    func setMetadata(_ stats: UserStats?, _ id: UUID) async throws -> Bool {
        try await place.setMetadata(stats, for: User.self, key: id)
    }
    func remove(_ user: User) async throws -> Bool { try await place.remove(user) }
    func remove(keys: [UUID]) async throws -> Int { try await place.remove(User.self, keys: keys) }
    func removeAll() async throws -> Int { try await place.removeAll(User.self) }
    func items<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item] { try await query.items(in: place) }
    func keys<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item.ID] { try await query.keys(in: place) }
    func first<Query: ItemQuery>(_ query: Query) async throws -> Query.Item? { try await query.first(in: place) }
    func count<Query: ItemQuery>(_ query: Query) async throws -> Int { try await query.count(in: place) }
    func hits(_ search: FullTextQuery<User>) async throws -> [SearchHit<User>] { try await search.hits(in: place) }
}

/// Inside transactions of a place of any engine, asynchronously: the transaction's methods as
/// ``TransactionReading`` and ``TransactionWriting`` declare them, and the query terminals that
/// take any engine's transaction.
struct AnyEngineTransactionDriver<Place: AsyncDatabaseWriter>: SuiteDriver {
    let place: Place

    func write(_ user: User) async throws { try await place.write { tx in try await tx.write(user) } }
    func write(_ users: [User]) async throws { try await place.write { tx in try await tx.write(users) } }
    func write(_ posts: [Post]) async throws { try await place.write { tx in try await tx.write(posts) } }
    func read(_ id: UUID) async throws -> User? { try await place.read { tx in try await tx.read(User.self, key: id) } }
    func read(keys: [UUID]) async throws -> [User] {
        try await place.read { tx in try await tx.read(User.self, keys: keys) }
    }
    func readAll() async throws -> [User] { try await place.read { tx in try await tx.readAll(User.self) } }
    func keys() async throws -> [UUID] { try await place.read { tx in try await tx.keys(of: User.self) } }
    func count() async throws -> Int { try await place.read { tx in try await tx.count(of: User.self) } }
    func contains(_ id: UUID) async throws -> Bool {
        try await place.read { tx in try await tx.contains(User.self, key: id) }
    }
    func metadata(_ id: UUID) async throws -> UserStats? {
        try await place.read { tx in try await tx.metadata(for: User.self, key: id) }
    }
    func setMetadata(_ stats: UserStats?, _ id: UUID) async throws -> Bool {
        try await place.write { tx in try await tx.setMetadata(stats, for: User.self, key: id) }
    }
    func remove(_ user: User) async throws -> Bool { try await place.write { tx in try await tx.remove(user) } }
    func remove(keys: [UUID]) async throws -> Int {
        try await place.write { tx in try await tx.remove(User.self, keys: keys) }
    }
    func removeAll() async throws -> Int { try await place.write { tx in try await tx.removeAll(User.self) } }
    func items<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item] {
        try await place.read { tx in try await query.items(tx) }
    }
    func keys<Query: ItemQuery>(_ query: Query) async throws -> [Query.Item.ID] {
        try await place.read { tx in try await query.keys(tx) }
    }
    func first<Query: ItemQuery>(_ query: Query) async throws -> Query.Item? {
        try await place.read { tx in try await query.first(tx) }
    }
    func count<Query: ItemQuery>(_ query: Query) async throws -> Int {
        try await place.read { tx in try await query.count(tx) }
    }
    func hits(_ search: FullTextQuery<User>) async throws -> [SearchHit<User>] {
        try await place.read { tx in try await search.hits(tx) }
    }
}
