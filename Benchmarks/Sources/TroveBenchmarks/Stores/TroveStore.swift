import Foundation
// One more field than `User`'s coder knows, written field by field as generated coders write.
@_spi(TroveGenerated) import Trove

/// Trove with its generated coder (`Generated/Model_User+Trove.swift`), used as the
/// documentation shows: one connection that writes, one that reads, the default
/// configuration (WAL, `synchronous = NORMAL`, caches of 1,000 items and 1,000 metadata values).
///
/// For the cached point reads only, a second connection comes from a ``Database`` opened with
/// `itemCacheLimit` at least the number of keys, and is warmed by one untimed pass.
final class TroveStore: BenchmarkStore {
    private let path: String
    private let database: Database
    private let writer: Connection
    private let reader: Connection
    private var cachedReader: Connection?
    /// Whether writes measure the cost of keeping unknown fields (`TROVE_BENCHMARK_UNKNOWN_FIELDS=1`).
    private let showsUnknownField = ProcessInfo.processInfo.environment["TROVE_BENCHMARK_UNKNOWN_FIELDS"] == "1"

    /// How the database opens: the default, or with a key (the columns "Trove, encrypted").
    private let configuration: Configuration

    convenience init(directory: String) throws {
        try self.init(directory: directory, configuration: .benchmark(key: nil))
    }

    init(directory: String, configuration: Configuration) throws {
        path = directory + "/users.trove"
        self.configuration = configuration
        database = try Database(path: path, configuration: configuration)
        writer = try database.newConnection()
        reader = try database.newConnection()
    }

    func insert(_ users: [User]) throws {
        if showsUnknownField, let user = users.first {
            try Self.showUnknownField(like: user, to: database)
        }
        try writer.write { tx in try tx.write(users) }
    }

    /// Makes `database` see, in the users' collection, a field that `User`'s coder does not know:
    /// stores a user with one more field under a key of its own, reads it with the typed API,
    /// removes it. From then on every typed write to the collection keeps unknown fields, at the
    /// cost of one more point read (`TROVE_BENCHMARK_UNKNOWN_FIELDS=1` measures that cost).
    private static func showUnknownField(like user: User, to database: Database) throws {
        var writer = BinaryWriter()
        try MessageCoder<User>.encode(user, to: &writer)
        try writer.encode(true, field: FieldNumber.of("addedByANewerVersion"))
        let data = writer.withUnsafeBytes { Data($0) }
        let connection = try database.newConnection()
        try connection.write { tx in try tx.setData(data, forKey: "unknown-field", in: User.collection) }
        _ = try connection.read(User.self, key: "unknown-field")
        try connection.write { tx in _ = try tx.remove(User.self, key: "unknown-field") }
    }

    func readAll() throws -> [User] {
        try reader.read { tx in try tx.readAll(User.self) }
    }

    func readEach(_ keys: [String]) throws -> Checksum {
        try Self.readEach(keys, on: reader)
    }

    func readBatch(_ keys: [String]) throws -> Checksum {
        try Self.readBatch(keys, on: reader)
    }

    func prepareCachedReads(_ keys: [String]) throws {
        guard cachedReader == nil else { return }
        var configuration = self.configuration
        configuration.itemCacheLimit = max(keys.count, configuration.itemCacheLimit)
        let connection = try Database(path: path, configuration: configuration).newConnection()
        _ = try Self.readBatch(keys, on: connection)
        cachedReader = connection
    }

    func readEachCached(_ keys: [String]) throws -> Checksum {
        try Self.readEach(keys, on: cachedReader!)
    }

    func readBatchCached(_ keys: [String]) throws -> Checksum {
        defer { cachedReader = nil }
        return try Self.readBatch(keys, on: cachedReader!)
    }

    func readMetadata(_ keys: [String]) throws -> Checksum {
        try reader.read { tx in
            var checksum = Checksum()
            for key in keys {
                if let stats = try tx.metadata(for: User.self, key: key) { checksum.add(stats) }
            }
            return checksum
        }
    }

    func update(_ users: [User]) throws {
        try writer.write { tx in try tx.write(users) }
    }

    func delete(_ keys: [String]) throws {
        try writer.write { tx in _ = try tx.remove(User.self, keys: keys) }
    }

    func writeEach(_ users: [User]) throws {
        for user in users {
            try writer.write { tx in try tx.write(user) }
        }
    }

    private static func readEach(_ keys: [String], on connection: Connection) throws -> Checksum {
        var checksum = Checksum()
        for key in keys {
            if let user = try connection.read(User.self, key: key) { checksum.add(user) }
        }
        return checksum
    }

    private static func readBatch(_ keys: [String], on connection: Connection) throws -> Checksum {
        try connection.read { tx in
            var checksum = Checksum()
            for key in keys {
                if let user = try tx.read(User.self, key: key) { checksum.add(user) }
            }
            return checksum
        }
    }
}
