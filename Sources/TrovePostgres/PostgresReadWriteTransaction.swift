import Foundation
import NIOCore
import PostgresNIO
import Trove

/// A read-write transaction of a ``PostgresStore``, at `SERIALIZABLE`: valid only inside the body
/// of `store.write { tx in … }`.
///
/// It is a ``/Trove/TransactionWriting``: its typed writes and removals are the protocol's, with
/// `await`. Its reads go to the server (not the store's cache), so that PostgreSQL sees every
/// read and aborts a transaction that would lose an update; its writes keep the secondary
/// indexes and the edges of relationships, and its removals apply their delete rules.
public final class PostgresReadWriteTransaction: PostgresReadTransaction {
    var changedItems: Set<CacheKey> = []
    var clearedCollections: Set<String> = []
    /// The items written, to cache once committed.
    var writtenItems: [CacheKey: any Sendable] = [:]
    /// The change this transaction announced, once ``announce()`` ran.
    var committedChange: (CommittedChange, [CacheKey: any Sendable])?

    /// Rows written to collections without indexes and not sent yet.
    var pendingRows = PendingRows()
    /// What extensions hold back of the items written and have not sent yet, by extension name.
    private var heldBack: [String: HeldBackRows] = [:]
    /// How many writes ``heldBack`` holds (an item written twice counts twice).
    private var heldBackCount = 0

    /// The removals that delete rules decided and that have not run yet, in order.
    private var cascade: [CacheKey] = []
    /// The notices that notify rules decided and that have not been delivered yet, in order.
    private var notices: [(RelationshipNotice, RelationshipNotifier)] = []
    private var isRunningCascade = false

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
    func buffer(_ address: CacheKey, data: ByteBuffer, metadata: ByteBuffer?) async throws {
        pendingRows.add(address, data: data, metadata: metadata)
        if pendingRows.count >= PendingRows.batchSize {
            try await sendPendingRows()
        }
    }

    /// Queues the removal of the item at `address`, decided by a delete rule: it runs once the
    /// removals that fired the rule are done (``runCascade()``).
    func queueRemoval(_ address: CacheKey) {
        cascade.append(address)
    }

    /// Queues `notice`, decided by a notify rule, for `notifier` to deliver once the removals
    /// queued before it are done (``runCascade()``).
    func queueNotice(_ notice: RelationshipNotice, to notifier: RelationshipNotifier) {
        notices.append((notice, notifier))
    }

    /// Runs the queued removals in waves: each wave removes what the one before queued, one
    /// statement per collection (and one per extension that follows it), and its rules queue the
    /// next wave, until none is left. Does nothing when called from inside the loop, which picks
    /// up what was queued: a cascade runs at a bounded depth of calls, however long its chain.
    /// An item already gone is skipped: that is how a cycle ends.
    ///
    /// A wave removes several items before their rules are read, where a Trove file removes them
    /// one by one; both end with the same items, since every rule only ever removes more as more
    /// goes (`RelationshipEngineTests` checks both against one model).
    ///
    /// Once no removal is left, the queued notices are delivered one by one, each followed by the
    /// removals its answer caused, as on a Trove file: the notified item is read, told, and what
    /// it answers is written or removed (an item gone by then is not told).
    func runCascade() async throws {
        guard !isRunningCascade, !cascade.isEmpty || !notices.isEmpty else { return }
        isRunningCascade = true
        defer {
            isRunningCascade = false
            cascade.removeAll()
            notices.removeAll()
        }
        while !cascade.isEmpty || !notices.isEmpty {
            guard !cascade.isEmpty else {
                let (notice, notifier) = notices.removeFirst()
                try await notifier.deliver(notice, in: self)
                continue
            }
            let wave = cascade
            cascade.removeAll()
            var collections: [String] = []
            var keys: [String: [String]] = [:]
            var seen: Set<CacheKey> = []
            for address in wave where seen.insert(address).inserted {
                if keys[address.collection] == nil { collections.append(address.collection) }
                keys[address.collection, default: []].append(address.key)
            }
            for collection in collections {
                _ = try await deleteRows(forKeys: keys[collection]!, in: collection)
            }
        }
    }

    /// Holds back `row`, what `kept` keeps of the item at `key` (replacing any row held for that
    /// key), to send it with the rows of the other items written meanwhile, before the next
    /// statement (``sendPendingRows()``) or the commit; sends them when a batch is full.
    func holdBack(_ row: any Sendable, of key: String, for kept: any PostgresHoldingBack) async throws {
        heldBack[kept.name, default: HeldBackRows(kept: kept)].rows[key] = row
        heldBackCount += 1
        if heldBackCount >= PendingRows.batchSize {
            try await sendPendingRows()
        }
    }

    /// Sends the rows held back, in one statement, then what extensions held back, in one
    /// statement per extension (``PostgresHoldingBack/sendHeldBack(_:in:)``).
    override func sendPendingRows() async throws {
        if !pendingRows.isEmpty {
            let rows = pendingRows
            pendingRows = PendingRows()
            let sql = rows.upsertSQL(into: names.items, firstParameter: 1)
            var bindings = PostgresBindings(capacity: 5)
            rows.bind(into: &bindings)
            _ = try await run(PostgresQuery(unsafeSQL: sql, binds: bindings), key: rows.onlyKey)
        }
        guard !heldBack.isEmpty else { return }
        let held = heldBack
        heldBack = [:]
        heldBackCount = 0
        for name in held.keys.sorted() {
            let rows = held[name]!
            try await rows.kept.sendHeldBack(rows.rows, in: self)
        }
    }

    /// What one extension held back of the items written and has not sent yet, by item key.
    struct HeldBackRows {
        let kept: any PostgresHoldingBack
        var rows: [String: any Sendable] = [:]
    }

    /// Notes that the item at `address` changed; `item` is its new value, or `nil` when removed.
    func noteChange(_ address: CacheKey, item: (any Sendable)?) {
        changedItems.insert(address)
        writtenItems[address] = item
    }

    /// Notes that the item at `address` changed without a new value (a manual edge of it was
    /// added or removed): caches evict it, observations and `changes` hear of it.
    func noteTouched(_ address: CacheKey) {
        changedItems.insert(address)
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
        if !heldBack.isEmpty {
            // Extensions' rows go in statements of their own, before the change log's (which
            // opens the transaction: it is no longer one statement alone).
            try await sendPendingRows()
        }
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
            CommittedChange(
                number: number, keys: Array(changedItems), clearedCollections: clearedCollections, isFlush: false),
            writtenItems.compactMapValues { $0 }
        )
    }

    /// The rest of a notification after its number: the changed keys, or `*` when they do not
    /// fit (PostgreSQL's payloads stop at 8000 bytes; listeners then read the log).
    static func payload(items: Set<CacheKey>, cleared: Set<String>) -> String {
        struct Body: Encodable {
            var k: [[String]]
            var c: [String]
        }
        // Each key takes at least 7 bytes of JSON (`["c","k"],`): more than 1,000 never fit, and
        // are not encoded only to be thrown away (a cascade's commit changes thousands).
        guard items.count + cleared.count <= 1_000 else { return " *" }
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

    private var positions: [CacheKey: Int] = [:]
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
    mutating func add(_ address: CacheKey, data bytes: ByteBuffer, metadata meta: ByteBuffer?) {
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
