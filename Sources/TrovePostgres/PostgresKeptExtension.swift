import NIOCore
import PostgresNIO
import Trove

/// An extension that a ``PostgresStore`` keeps in tables of its own, in the transactions that
/// write the items: a secondary index (``PostgresIndex``), relationships
/// (``PostgresRelationships``) or a full-text search (``PostgresSearch``). The store calls it on every write and removal of a collection it
/// follows; its life (tables made once, rebuilt from the items when its definition changes, rows
/// copied from a Trove file) is written once, in ``PostgresExtensionBuilder``.
protocol PostgresKeptExtension: Sendable {
    /// The name of the extension, unique in the store.
    var name: String { get }
    /// The version of its definition.
    var version: Int { get }
    /// What its tables are built from: a change rebuilds them.
    var fingerprint: String { get }
    /// The collection whose items it is built from.
    var collection: String { get }
    /// The collections whose removals it follows (its own, and any other it acts on).
    var followedRemovals: Set<String> { get }

    /// Drops its tables, if any, and makes them again, empty.
    func makeTables(in transaction: PostgresReadWriteTransaction) async throws
    /// Adds what it keeps of the stored item at `key` of its collection, from its bytes (when it
    /// is built, or when a Trove file is copied).
    func store(key: String, data: ByteBuffer, metadata: ByteBuffer?, in transaction: PostgresReadWriteTransaction)
        async throws
    /// Follows the write of `item`, of its collection, at `key`.
    func written(_ item: any Sendable, key: String, in transaction: PostgresReadWriteTransaction) async throws
    /// Follows the removal of the items at `keys` (each removed, none repeated) of `collection`.
    func removed(keys: [String], collection: String, in transaction: PostgresReadWriteTransaction) async throws
    /// Whether ``removedAll(of:keys:in:)`` needs the keys of the items removed from `collection`.
    func needsRemovedKeys(of collection: String) -> Bool
    /// Follows the removal of every item of `collection`, whose keys were `keys` (when
    /// ``needsRemovedKeys(of:)``, else empty).
    func removedAll(of collection: String, keys: [String], in transaction: PostgresReadWriteTransaction) async throws
}

/// Makes the tables of the extensions a store keeps, and rebuilds those whose definition changed.
enum PostgresExtensionBuilder {
    /// Brings the tables of `extensions` up to their definitions, each in a transaction of its
    /// own under an advisory lock, so that instances starting together build each once.
    static func prepare(_ extensions: [any PostgresKeptExtension], in store: PostgresStore) async throws {
        let names = store.names
        for kept in extensions {
            try await store.write { tx in
                _ = try await tx.query("SELECT pg_advisory_xact_lock($1)", names.lockKey &+ 2)
                var current = false
                for try await (version, fingerprint) in try await tx.query(
                    "SELECT version, fingerprint FROM \(names.extensions) WHERE name = $1", kept.name
                ).decode((Int32, String).self) {
                    current = Int(version) == kept.version && fingerprint == kept.fingerprint
                }
                guard !current else { return }
                try await kept.makeTables(in: tx)
                var rows: [(String, ByteBuffer, ByteBuffer?)] = []
                for try await row in try await tx.query(
                    "SELECT key, data, metadata FROM \(names.items) WHERE collection = $1", kept.collection,
                    collection: kept.collection
                ).decode((String, ByteBuffer, ByteBuffer?).self) {
                    rows.append(row)
                }
                for (key, data, metadata) in rows {
                    try await kept.store(key: key, data: data, metadata: metadata, in: tx)
                }
                _ = try await tx.query(
                    """
                    INSERT INTO \(names.extensions) (name, version, fingerprint) VALUES ($1, $2, $3)
                    ON CONFLICT (name) DO UPDATE SET version = excluded.version, fingerprint = excluded.fingerprint
                    """, kept.name, Int32(kept.version), kept.fingerprint)
            }
        }
    }
}

/// A kept extension with one row per item of its collection in one table, keyed by the item's
/// key (a secondary index, a full-text search): its rows go with their items, written once here.
protocol PostgresRowPerItem: PostgresKeptExtension {
    /// The table of the rows.
    func table(_ names: PostgresNames) -> String
}

extension PostgresRowPerItem {
    var followedRemovals: Set<String> { [collection] }

    /// Removes the rows at `keys`.
    func removed(keys: [String], collection: String, in transaction: PostgresReadWriteTransaction) async throws {
        _ = try await transaction.query(
            "DELETE FROM \(table(transaction.names)) WHERE key = ANY($1)", keys, collection: collection,
            key: keys.count == 1 ? keys[0] : nil)
    }

    func needsRemovedKeys(of collection: String) -> Bool { false }

    /// Removes every row.
    func removedAll(of collection: String, keys: [String], in transaction: PostgresReadWriteTransaction) async throws {
        _ = try await transaction.query("DELETE FROM \(table(transaction.names))", collection: collection)
    }
}

/// The parts of a query's SQL that every kind of query shares: its limit, and its keys or count.
enum PostgresSelect {
    /// ` LIMIT n OFFSET m`, or what of it applies (nothing without a limit or an offset).
    static func limitClause(_ limit: Int?, offset: Int) -> String {
        var clause = ""
        if let limit { clause += " LIMIT \(limit)" }
        if offset > 0 { clause += " OFFSET \(offset)" }
        return clause
    }

    /// The keys (the expression `key`) of the rows of `from` (its joins and `WHERE`), in `order`,
    /// limited.
    static func keys(_ key: String, from: String, order: String, limit: String) -> String {
        "SELECT \(key) FROM \(from)\(order)\(limit)"
    }

    /// The number of rows of `from`; after the limit, when there is one.
    static func count(_ key: String, from: String, order: String, limit: String) -> String {
        limit.isEmpty
            ? "SELECT count(*) FROM \(from)"
            : "SELECT count(*) FROM (\(keys(key, from: from, order: order, limit: limit))) AS matched"
    }
}

/// A kept extension that holds back what it keeps of each item written, to send the rows of many
/// items in one statement (``sendHeldBack(_:in:)``): its writes are written once here.
protocol PostgresHoldingBack: PostgresKeptExtension {
    /// Sends, in one statement, the rows that ``written(_:key:in:)`` or
    /// ``store(key:data:metadata:in:)`` held back with
    /// ``PostgresReadWriteTransaction/holdBack(_:of:for:)``: the last row held for each key, by key.
    func sendHeldBack(_ rows: [String: any Sendable], in transaction: PostgresReadWriteTransaction) async throws
    /// What the extension keeps of `item`, written; `nil` for an item of another type.
    func heldRow(of item: any Sendable) -> (any Sendable)?
    /// What the extension keeps of the stored item at `key`, from its bytes.
    func heldRow(key: String, data: ByteBuffer, metadata: ByteBuffer?, in transaction: PostgresReadWriteTransaction)
        throws -> any Sendable
}

extension PostgresKeptExtension {
    /// Whether ``written(_:key:in:)`` holds what it writes back until the transaction's next
    /// statement (a ``PostgresHoldingBack``), so that the item's own row may be held back too (a
    /// unique index must see its row at once, to name the item a violation is about).
    var holdsWritesBack: Bool { self is any PostgresHoldingBack }
}

extension PostgresHoldingBack {
    func store(key: String, data: ByteBuffer, metadata: ByteBuffer?, in transaction: PostgresReadWriteTransaction)
        async throws
    {
        try await transaction.holdBack(heldRow(key: key, data: data, metadata: metadata, in: transaction), of: key, for: self)
    }

    /// Holds back what the extension keeps of the item written: it goes with the rows of the
    /// other items written before the transaction's next statement.
    func written(_ item: any Sendable, key: String, in transaction: PostgresReadWriteTransaction) async throws {
        guard let row = heldRow(of: item) else { return }
        try await transaction.holdBack(row, of: key, for: self)
    }
}
