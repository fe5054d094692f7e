import Foundation
import NIOCore
import PostgresNIO
import Trove

/// A read-only transaction of a ``PostgresStore``, at `REPEATABLE READ`: valid only inside the
/// body of `store.read { tx in … }` (or, as its subclass, of `store.write { tx in … }`).
///
/// It is a ``/Trove/TransactionReading``: its typed reads are the protocol's, with `await`
/// (`try await tx.read(User.self, key: id)`), and queries run in it with their terminals
/// (`try await User.query.filter(.age(18...)).items(tx)`). Its untyped reads (``keys(in:)``,
/// ``count(in:)``, ``hasItem(forKey:in:)``, ``collections()``) have the names of a Trove file's.
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
    /// one statement (``PostgresStore/read(_:key:)``), which is its own snapshot and leaves the
    /// cache alone.
    var pendingBegin: String?
    /// Whether a transaction is open on the connection: `pendingBegin` was sent.
    private(set) var isOpen = false
    /// Records what the transaction reads, for an observation (``PostgresStore/observedRead(_:)``);
    /// `nil` for every other transaction, so that recording costs one `nil` check per read.
    var recorder: ReadRecorder?

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
                if oldest == 0 || from + 1 < oldest {
                    // The log no longer holds every change since the cache's number.
                    store.cache.flush()
                    continue
                }
                var keys: [CacheKey] = []
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
                        keys.append(CacheKey(collection: collection, key: key))
                    } else {
                        cleared.insert(collection)
                    }
                }
                store.cache.catchUp(from: from, to: newest, evicting: keys, clearing: cleared)
            }
        }
    }

    // MARK: Statements

    /// Runs `sql` with `values` bound to `$1`, `$2`…; failures become ``/Trove/TroveError``s
    /// naming the SQL and the item.
    package func query(
        _ sql: String, _ values: (any PostgresThrowingDynamicTypeEncodable)?..., collection: String? = nil,
        key: String? = nil
    ) async throws -> PostgresRowSequence {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            if let value { try bindings.append(value) } else { bindings.appendNull() }
        }
        return try await run(PostgresQuery(unsafeSQL: sql, binds: bindings), collection: collection, key: key)
    }

    /// Runs `query`; failures become ``/Trove/TroveError``s naming the SQL and the item.
    ///
    /// Rows a read-write transaction holds back are sent first (``sendPendingRows()``), so that
    /// every statement sees every write before it; the transaction is opened before its first
    /// statement (``pendingBegin``).
    package func run(_ query: PostgresQuery, collection: String? = nil, key: String? = nil) async throws
        -> PostgresRowSequence
    {
        try await sendPendingRows()
        do {
            try await open()
            return try await connection.checkedQuery(query, logger: store.logger)
        } catch {
            throw PostgresErrors.statementFailed(error, sql: query.sql, collection: collection, key: key)
        }
    }

    /// Sends the rows written but held back; a read transaction holds none.
    func sendPendingRows() async throws {}

    /// Opens the transaction unless it is open or needs no `BEGIN`.
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

    /// Reads every row of `collection` in key order, and decodes each: `decodeData` with a reader
    /// on its data, then, when `withMetadata` and the row has metadata, `decodeMetadata` with a
    /// reader on its metadata. The non-generic part of ``readAll(_:)``.
    ///
    /// The key of each row stays in its bytes: it becomes a `String` only for the error of a row
    /// that does not decode, which names it (``decodeStored(_:collection:key:field:_:)``).
    @usableFromInline
    func readAllRows(
        in collection: String, withMetadata: Bool, decodeData: (inout BinaryReader) throws -> Void,
        decodeMetadata: (inout BinaryReader) throws -> Void
    ) async throws {
        recorder?.recordCollection(collection)
        let sql = "SELECT key, data, metadata FROM \(names.items) WHERE collection = $1 ORDER BY key"
        for try await row in try await query(sql, collection, collection: collection) {
            // Each row's cells are decoded here, one by one, not by PostgresNIO's `decode` of the
            // row sequence or of the row as a tuple: those run unspecialized generic code for
            // every row (the tuple's type looked up in the runtime's caches, each column through
            // witness tables), which cost read-all more than decoding the items (issue 29's
            // profile). A cell's `decode` is inlinable: specialized here, it is a copy of the
            // bytes' reference, and still throws for a `NULL` where bytes must be.
            var cells = row.makeIterator()
            guard let keyCell = cells.next(), let dataCell = cells.next(), let metadataCell = cells.next() else {
                throw TroveError(
                    code: .server, message: "PostgreSQL returned a row of '\(collection)' without its key, data and metadata.",
                    collection: collection)
            }
            let key = try keyCell.decode(ByteBuffer.self)
            let data = try dataCell.decode(ByteBuffer.self)
            let metadata = try metadataCell.decode(ByteBuffer?.self)
            try decodeStored(data, collection: collection, key: String(buffer: key), field: nil, decodeData)
            if withMetadata, let metadata {
                try decodeStored(
                    metadata, collection: collection, key: String(buffer: key), field: "metadata", decodeMetadata)
            }
        }
    }

    /// Decodes an item and its metadata; a failure is Trove's error for the bytes of a file that
    /// do not decode, naming the collection, the key and the field (`metadata.…` for the metadata).
    func decodeItem<Item: Persistable>(
        _ type: Item.Type, data: ByteBuffer, metadata: ByteBuffer?, key: String
    ) throws -> Item {
        var item = try decodeStored(data, collection: Item.collection, key: key, field: nil) {
            try Item.Coder.decode(from: &$0)
        }
        if let metadata, Item.Metadata.self != NoMetadata.self {
            item.metadata = try decodeMetadata(Item.self, from: metadata, key: key)
        }
        return item
    }

    /// Decodes the metadata of an item of type `Item`, naming the item and the field when it
    /// cannot.
    func decodeMetadata<Item: Persistable>(_ type: Item.Type, from bytes: ByteBuffer, key: String) throws
        -> Item.Metadata
    {
        try decodeStored(bytes, collection: Item.collection, key: key, field: "metadata") {
            try Item.MetadataCoder.decode(from: &$0)
        }
    }

    /// Decodes stored bytes of `collection` with `decode`, on a reader of `buffer`: notes the
    /// collection in the store when the reader skipped fields it does not know (so that later
    /// typed writes keep them), and turns a failure into Trove's error for bytes that do not
    /// decode, naming the item and `field` (`nil`: the data). Items, their metadata and
    /// read-all's rows all decode here.
    ///
    /// - Parameter key: The item's key, made only for the error.
    func decodeStored<Value>(
        _ buffer: ByteBuffer, collection: String, key: @autoclosure () -> String, field: String?,
        _ decode: (inout BinaryReader) throws -> Value
    ) throws -> Value {
        do {
            return try buffer.withUnsafeReadableBytes { bytes in
                var reader = BinaryReader(bytes)
                let value = try decode(&reader)
                if reader.hasSkippedFields { store.unknownFields.note(collection) }
                return value
            }
        } catch {
            throw TroveError.coderFailure(error, decoding: true, collection: collection, key: key(), field: field)
        }
    }

    // MARK: Raw reads

    /// The keys of `collection`, in order (byte order of their UTF-8, as in a Trove file).
    ///
    /// - Parameter collection: The collection.
    /// - Returns: The keys.
    /// - Throws: ``/Trove/TroveError/Code/server`` when the server fails.
    public func keys(in collection: String) async throws -> [String] {
        recorder?.recordCollection(collection)
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
    /// - Throws: ``/Trove/TroveError/Code/server`` when the server fails.
    public func count(in collection: String) async throws -> Int {
        recorder?.recordCollection(collection)
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
    /// - Throws: ``/Trove/TroveError/Code/server`` when the server fails.
    public func hasItem(forKey key: String, in collection: String) async throws -> Bool {
        recorder?.recordKey(key, in: collection)
        let sql = "SELECT 1 FROM \(names.items) WHERE collection = $1 AND key = $2"
        let found = try await count(
            PostgresQuery(unsafeSQL: sql, binds: try Self.bind(collection, key)), collection: collection, key: key)
        return found > 0
    }

    /// The names of the collections that hold items, in order.
    ///
    /// - Returns: The collections.
    /// - Throws: ``/Trove/TroveError/Code/server`` when the server fails.
    public func collections() async throws -> [String] {
        recorder?.recordEverything()
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

