import Foundation
import NIOCore
import PostgresNIO
import Trove

/// A read-only transaction of a ``PostgresStore``, at `REPEATABLE READ`: valid only inside the
/// body of ``PostgresStore/read(_:)`` (or, as its subclass, ``PostgresStore/readWrite(_:)``).
///
/// Its typed calls have the names and shapes of a Trove file's `ReadTransaction`, made `async`:
/// `try await tx.read(User.self, key: id)`, `try await tx.read(User.self, key: id)`.
public class PostgresReadTransaction {
    let store: PostgresStore
    let connection: PostgresConnection
    /// The change log's newest number in this transaction's snapshot, once read.
    var snapshotNumber: Int64 = 0
    /// Whether this transaction reads and fills the store's cache (decided with the snapshot).
    var usesCache = false
    /// Whether the snapshot's numbers have been read (or are not needed: a read-write
    /// transaction does not use the cache).
    var snapshotTaken: Bool
    /// The statement that opens the transaction, sent just before its first statement (so that
    /// a transaction that sends nothing costs no round trip); `nil` once sent, and for a read of
    /// one statement (``PostgresStore/read(_:key:)``), which is its own snapshot.
    var pendingBegin: String?
    /// Whether a transaction is open on the connection: `pendingBegin` was sent.
    private(set) var isOpen = false
    /// Whether the transaction may catch the cache up from the change log: not for a read of one
    /// statement, whose catch-up query would run at a later snapshot than its read (the log may
    /// have been pruned in between). Such a read then leaves the cache alone.
    var mayCatchUpCache = true

    init(store: PostgresStore, connection: PostgresConnection, begin: String?) {
        self.store = store
        self.connection = connection
        snapshotTaken = false
        pendingBegin = begin
    }

    var names: PostgresNames { store.names }

    /// The statement that reads the change log's newest and oldest numbers in the snapshot.
    var snapshotSQL: String {
        "SELECT coalesce(max(seq), 0) AS newest, coalesce(min(seq), 0) AS oldest FROM \(names.changes)"
    }

    /// Reads the change log's numbers in the snapshot and brings the cache up to it, unless done:
    /// called before the cache is consulted.
    ///
    /// At `REPEATABLE READ` every statement of the transaction sees the snapshot its first
    /// statement took, so this need not be the first: it is taken when first needed, and the
    /// first point read takes it in its own statement (one round trip instead of two).
    func takeSnapshot() async throws {
        guard !snapshotTaken else { return }
        var newest: Int64 = 0
        var oldest: Int64 = 0
        for try await (maximum, minimum) in try await query(snapshotSQL).decode((Int64, Int64).self) {
            newest = maximum
            oldest = minimum
        }
        try await adoptSnapshot(newest: newest, oldest: oldest)
    }

    /// Records the snapshot's numbers (the change log's newest and oldest) and brings the cache
    /// up to the snapshot: catches up from the log, or flushes it when the log no longer reaches
    /// back to the cache's number.
    func adoptSnapshot(newest: Int64, oldest: Int64) async throws {
        snapshotTaken = true
        snapshotNumber = newest
        while true {
            switch store.cache.access(at: newest) {
            case .ready:
                usesCache = true
                return
            case .ahead:
                usesCache = false
                return
            case .behind(let from):
                guard mayCatchUpCache else {
                    usesCache = false
                    return
                }
                if oldest == 0 || from + 1 < oldest {
                    // The log no longer holds every change since the cache's number.
                    store.cache.flush()
                    continue
                }
                var keys: [PostgresItemAddress] = []
                var cleared: Set<String> = []
                let changed = "SELECT collection, key FROM \(names.changes) WHERE seq > $1 AND seq <= $2"
                for try await (collection, key) in try await query(changed, from, newest).decode(
                    (String?, String?).self)
                {
                    guard let collection else {
                        store.cache.flush()
                        continue
                    }
                    if let key {
                        keys.append(PostgresItemAddress(collection: collection, key: key))
                    } else {
                        cleared.insert(collection)
                    }
                }
                store.cache.catchUp(from: from, to: newest, evicting: keys, clearing: cleared)
            }
        }
    }

    // MARK: Statements

    /// Runs `sql` with `values` bound to `$1`, `$2`…; failures become ``Trove/TroveError``s
    /// naming the SQL and the item.
    func query(
        _ sql: String, _ values: (any PostgresThrowingDynamicTypeEncodable)?..., collection: String? = nil,
        key: String? = nil
    ) async throws -> PostgresRowSequence {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            if let value { try bindings.append(value) } else { bindings.appendNull() }
        }
        return try await run(PostgresQuery(unsafeSQL: sql, binds: bindings), collection: collection, key: key)
    }

    /// Runs `query`; failures become ``Trove/TroveError``s naming the SQL and the item.
    ///
    /// Rows a read-write transaction holds back are sent first (``sendPendingRows()``), so that
    /// every statement sees every write before it; the transaction is opened before its first
    /// statement (``pendingBegin``).
    func run(_ query: PostgresQuery, collection: String? = nil, key: String? = nil) async throws
        -> PostgresRowSequence
    {
        try await sendPendingRows()
        try await open()
        do {
            return try await connection.checkedQuery(query, logger: store.logger)
        } catch {
            throw PostgresErrors.statementFailed(error, sql: query.sql, collection: collection, key: key)
        }
    }

    /// Sends the rows written but held back; a read transaction holds none.
    func sendPendingRows() async throws {}

    /// Opens the transaction unless it is open or needs no `BEGIN`. Its failure is thrown as
    /// postgres-nio reports it, as a failed `BEGIN` always was (the store maps it).
    func open() async throws {
        guard let begin = pendingBegin else { return }
        pendingBegin = nil
        try await connection.checkedQuery(PostgresQuery(unsafeSQL: begin), logger: store.logger)
        isOpen = true
    }

    /// Runs `query` and counts its rows; failures as ``run(_:collection:key:)``.
    func count(_ query: PostgresQuery, collection: String? = nil, key: String? = nil) async throws -> Int {
        var count = 0
        do {
            for try await _ in try await run(query, collection: collection, key: key) { count += 1 }
        } catch {
            throw PostgresErrors.statementFailed(error, sql: query.sql, collection: collection, key: key)
        }
        return count
    }

    // MARK: Rows

    /// The data and metadata of the item at `key` of `collection`.
    func row(collection: String, key: String) async throws -> (data: ByteBuffer, metadata: ByteBuffer?)? {
        let sql = "SELECT data, metadata FROM \(names.items) WHERE collection = $1 AND key = $2"
        var found: (ByteBuffer, ByteBuffer?)?
        do {
            for try await row in try await query(sql, collection, key, collection: collection, key: key).decode(
                (ByteBuffer, ByteBuffer?).self)
            {
                found = row
            }
        } catch {
            throw PostgresErrors.statementFailed(error, sql: sql, collection: collection, key: key)
        }
        return found
    }

    /// The data and metadata of the item at `key` of `collection`, read in one statement with
    /// the snapshot's numbers, which it adopts (``adoptSnapshot(newest:oldest:)``): the first
    /// point read of a transaction costs one round trip, not two.
    func snapshotAndRow(collection: String, key: String) async throws -> (data: ByteBuffer, metadata: ByteBuffer?)? {
        let sql = """
            SELECT s.newest, s.oldest, i.data, i.metadata FROM (\(snapshotSQL)) AS s
            LEFT JOIN \(names.items) AS i ON i.collection = $1 AND i.key = $2
            """
        var numbers: (newest: Int64, oldest: Int64) = (0, 0)
        var found: (ByteBuffer, ByteBuffer?)?
        do {
            for try await (newest, oldest, data, metadata) in try await query(
                sql, collection, key, collection: collection, key: key
            ).decode((Int64, Int64, ByteBuffer?, ByteBuffer?).self) {
                numbers = (newest, oldest)
                if let data { found = (data, metadata) }
            }
        } catch {
            throw PostgresErrors.statementFailed(error, sql: sql, collection: collection, key: key)
        }
        try await adoptSnapshot(newest: numbers.newest, oldest: numbers.oldest)
        return found
    }

    /// Decodes a stored value, naming the item when it cannot.
    func decode<Coder: ValueCoder>(
        _ coder: Coder.Type, from buffer: ByteBuffer, collection: String, key: String
    ) throws -> Coder.Value {
        do {
            return try buffer.withUnsafeReadableBytes { bytes in
                var reader = BinaryReader(bytes)
                return try Coder.decode(from: &reader)
            }
        } catch let error as TroveError {
            throw error.locating(collection: collection, key: key)
        }
    }

    /// Decodes an item and its metadata.
    func decodeItem<Item: Persistable>(
        _ type: Item.Type, data: ByteBuffer, metadata: ByteBuffer?, key: String
    ) throws -> Item {
        var item = try decode(Item.Coder.self, from: data, collection: Item.collection, key: key)
        if let metadata, Item.Metadata.self != NoMetadata.self {
            item.metadata = try decode(Item.MetadataCoder.self, from: metadata, collection: Item.collection, key: key)
        }
        return item
    }

    // MARK: Raw reads

    /// The keys of `collection`, in order (byte order of their UTF-8, as in a Trove file).
    ///
    /// - Parameter collection: The collection.
    /// - Returns: The keys.
    /// - Throws: ``Trove/TroveError/Code/server`` when the server fails.
    public func keys(in collection: String) async throws -> [String] {
        let sql = "SELECT key FROM \(names.items) WHERE collection = $1 ORDER BY key"
        var keys: [String] = []
        for try await (key) in try await query(sql, collection, collection: collection).decode(String.self) {
            keys.append(key)
        }
        return keys
    }

    /// The number of items of `collection`.
    ///
    /// - Parameter collection: The collection.
    /// - Returns: The number of items.
    /// - Throws: ``Trove/TroveError/Code/server`` when the server fails.
    public func count(in collection: String) async throws -> Int {
        let sql = "SELECT count(*) FROM \(names.items) WHERE collection = $1"
        var count: Int64 = 0
        for try await (value) in try await query(sql, collection, collection: collection).decode(Int64.self) {
            count = value
        }
        return Int(count)
    }

    /// Whether an item is stored at `key` of `collection`.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - collection: The collection.
    /// - Returns: `true` when there is one.
    /// - Throws: ``Trove/TroveError/Code/server`` when the server fails.
    public func hasItem(forKey key: String, in collection: String) async throws -> Bool {
        let sql = "SELECT 1 FROM \(names.items) WHERE collection = $1 AND key = $2"
        let found = try await count(
            PostgresQuery(unsafeSQL: sql, binds: try Self.bind(collection, key)), collection: collection, key: key)
        return found > 0
    }

    /// The names of the collections that hold items, in order.
    ///
    /// - Returns: The collections.
    /// - Throws: ``Trove/TroveError/Code/server`` when the server fails.
    public func collections() async throws -> [String] {
        let sql = "SELECT DISTINCT collection FROM \(names.items) ORDER BY collection"
        var collections: [String] = []
        for try await (collection) in try await query(sql).decode(String.self) {
            collections.append(collection)
        }
        return collections
    }

    static func bind(_ values: String...) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }
}

// Explicit non-conformance to Sendable: a transaction is valid only inside its body, on its
// connection.
@available(*, unavailable)
extension PostgresReadTransaction: Sendable {}

/// A read-write transaction of a ``PostgresStore``, at `SERIALIZABLE`: valid only inside the body
/// of ``PostgresStore/readWrite(_:)``.
///
/// Its reads go to the server (not the store's cache), so that PostgreSQL sees every read and
/// aborts a transaction that would lose an update; its writes keep the secondary indexes.
public final class PostgresReadWriteTransaction: PostgresReadTransaction {
    var changedItems: Set<PostgresItemAddress> = []
    var clearedCollections: Set<String> = []
    /// The items written, to cache once committed.
    var writtenItems: [PostgresItemAddress: any Sendable] = [:]
    /// The change this transaction announced, once ``announce()`` ran.
    var committedChange: (PostgresChange, [PostgresItemAddress: any Sendable])?

    /// Rows written to collections without indexes and not sent yet.
    var pendingRows = PendingRows()

    /// Whether ``announce()`` sent its statement alone, outside a transaction: nothing had been
    /// sent before it, so that statement was the whole transaction and committed by itself.
    private(set) var committedAlone = false

    init(store: PostgresStore, connection: PostgresConnection) {
        super.init(store: store, connection: connection, begin: "BEGIN ISOLATION LEVEL SERIALIZABLE")
        // Its reads go to the server: no snapshot number to read.
        snapshotTaken = true
    }

    /// Holds back the row of an item of a collection without indexes, to send it with the next
    /// statement (``sendPendingRows()``) or the change log's (``announce()``); sends the rows
    /// held when a batch is full.
    func buffer(_ address: PostgresItemAddress, data: ByteBuffer, metadata: ByteBuffer?) async throws {
        pendingRows.add(address, data: data, metadata: metadata)
        if pendingRows.count >= PendingRows.batchSize {
            try await sendPendingRows()
        }
    }

    /// Sends the rows held back, in one statement.
    override func sendPendingRows() async throws {
        guard !pendingRows.isEmpty else { return }
        let rows = pendingRows
        pendingRows = PendingRows()
        let sql = rows.upsertSQL(into: names.items, firstParameter: 1)
        var bindings = PostgresBindings(capacity: 5)
        rows.bind(into: &bindings)
        _ = try await run(PostgresQuery(unsafeSQL: sql, binds: bindings), key: rows.onlyKey)
    }

    /// Notes that the item at `address` changed; `item` is its new value, or `nil` when removed.
    func noteChange(_ address: PostgresItemAddress, item: (any Sendable)?) {
        changedItems.insert(address)
        writtenItems[address] = item
    }

    /// Notes that `collection` was emptied.
    func noteCleared(_ collection: String) {
        clearedCollections.insert(collection)
        changedItems = changedItems.filter { $0.collection != collection }
        writtenItems = writtenItems.filter { $0.key.collection != collection }
    }

    /// Records what changed in the change log under the next number and announces it with
    /// `NOTIFY`, in the last statement before `COMMIT`, which also writes the rows still held
    /// back (``PendingRows``).
    ///
    /// The transaction-level advisory lock is held until the commit: a number is taken only once
    /// the previous one is committed, so the log's numbers are in commit order, and a snapshot
    /// that holds a number holds every lower one.
    ///
    /// A transaction that sent nothing before (blind writes to collections without indexes, the
    /// common one-item write) sends this statement alone, without `BEGIN` and `COMMIT`: one
    /// statement is atomic by itself, holds the advisory lock until it commits, and read nothing
    /// that a serializable transaction would have to protect. One round trip instead of three.
    func announce() async throws {
        guard !changedItems.isEmpty || !clearedCollections.isEmpty else {
            // (Every row held back is a noted change: nothing to send here, in principle.)
            try await sendPendingRows()
            return
        }
        if pendingBegin != nil {
            pendingBegin = nil
            committedAlone = true
        }
        var collections: [String] = []
        var keys: [String] = []
        var whole: [Bool] = []
        for address in changedItems {
            collections.append(address.collection)
            keys.append(address.key)
            whole.append(false)
        }
        for collection in clearedCollections {
            collections.append(collection)
            keys.append("")
            whole.append(true)
        }
        let payload = Self.payload(items: changedItems, cleared: clearedCollections)
        // Rows still held back are written by this statement too: a data-modifying `WITH` runs
        // to completion whether or not the query reads it.
        let rows = pendingRows
        pendingRows = PendingRows()
        let written = rows.isEmpty ? "" : "written AS (\(rows.upsertSQL(into: names.items, firstParameter: 7))),\n"
        let sql = """
            WITH \(written)locked AS (SELECT pg_advisory_xact_lock($1)),
            numbered AS (SELECT nextval('\(names.changeSequence)') AS seq FROM locked),
            logged AS (
                INSERT INTO \(names.changes) (seq, collection, key)
                SELECT numbered.seq, c, CASE WHEN w THEN NULL ELSE k END
                FROM numbered, unnest($2::text[], $3::text[], $4::bool[]) AS u(c, k, w)
            )
            SELECT seq, pg_notify($5, seq::text || $6) FROM numbered
            """
        var bindings = PostgresBindings(capacity: 11)
        bindings.append(names.lockKey)
        bindings.append(collections)
        bindings.append(keys)
        bindings.append(whole)
        bindings.append(names.channel)
        bindings.append(payload)
        rows.bind(into: &bindings)
        var number: Int64 = 0
        do {
            for try await (seq, _) in try await run(PostgresQuery(unsafeSQL: sql, binds: bindings), key: rows.onlyKey)
                .decode((Int64, String).self)
            {
                number = seq
            }
        } catch where committedAlone && PostgresErrors.isConnectionLoss(error) {
            // The statement was the commit: whether it committed is unknown, as for a lost COMMIT.
            throw PostgresErrors.commitFailed(error)
        }
        committedChange = (
            PostgresChange(number: number, items: changedItems, clearedCollections: clearedCollections, isFlush: false),
            writtenItems.compactMapValues { $0 }
        )
    }

    /// The rest of a notification after its number: the changed keys, or `*` when they do not
    /// fit (PostgreSQL's payloads stop at 8000 bytes; listeners then read the log).
    static func payload(items: Set<PostgresItemAddress>, cleared: Set<String>) -> String {
        struct Body: Encodable {
            var k: [[String]]
            var c: [String]
        }
        let body = Body(k: items.map { [$0.collection, $0.key] }, c: Array(cleared))
        guard let json = try? JSONEncoder().encode(body), json.count < 7000,
            let text = String(data: json, encoding: .utf8)
        else { return " *" }
        return " " + text
    }
}

/// The rows a read-write transaction has written to collections without indexes and not yet
/// sent: they travel in one statement, with the next statement's round trip or the commit's,
/// instead of one round trip each. A row written twice is sent once, with its last bytes.
struct PendingRows {
    /// The most rows held before they are sent.
    static let batchSize = 1_000

    private var positions: [PostgresItemAddress: Int] = [:]
    private var collections: [String] = []
    private var keys: [String] = []
    private var data: [ByteBuffer] = []
    private var metadata: [ByteBuffer] = []
    private var hasMetadata: [Bool] = []

    /// Whether no row is held.
    var isEmpty: Bool { keys.isEmpty }
    /// The number of rows held.
    var count: Int { keys.count }
    /// The key of the only row, to name it in an error; `nil` when there are several.
    var onlyKey: String? { keys.count == 1 ? keys[0] : nil }

    /// Holds the row of `address`, replacing the one held for it.
    mutating func add(_ address: PostgresItemAddress, data bytes: ByteBuffer, metadata meta: ByteBuffer?) {
        if let position = positions[address] {
            data[position] = bytes
            metadata[position] = meta ?? ByteBuffer()
            hasMetadata[position] = meta != nil
            return
        }
        positions[address] = keys.count
        collections.append(address.collection)
        keys.append(address.key)
        data.append(bytes)
        metadata.append(meta ?? ByteBuffer())
        hasMetadata.append(meta != nil)
    }

    /// The upsert of the rows into `table`, its arrays bound from `$firstParameter` on (five).
    func upsertSQL(into table: String, firstParameter first: Int) -> String {
        """
        INSERT INTO \(table) (collection, key, data, metadata)
        SELECT c, k, d, CASE WHEN h THEN m END
        FROM unnest($\(first)::text[], $\(first + 1)::text[], $\(first + 2)::bytea[], $\(first + 3)::bytea[], $\(first + 4)::bool[])
            AS w(c, k, d, m, h)
        ON CONFLICT (collection, key) DO UPDATE SET data = excluded.data, metadata = excluded.metadata
        """
    }

    /// Binds the rows' five arrays, in the order of ``upsertSQL(into:firstParameter:)``.
    func bind(into bindings: inout PostgresBindings) {
        bindings.append(collections)
        bindings.append(keys)
        bindings.append(data)
        bindings.append(metadata)
        bindings.append(hasMetadata)
    }
}
