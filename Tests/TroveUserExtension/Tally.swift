import Synchronization
import Trove

/// An extension written the way a user of Trove writes one: against the public API alone (this
/// module imports `Trove` without `@testable` or SPI), registered, versioned, persistent and
/// transactional like the built-in ones.
///
/// It keeps, for the items of one collection:
/// - a total: how many items there are and the sum of a number each item gives (``value``), in
///   one row of its table `trove_ext_<name>`;
/// - a "last modified" log: every item's key with the number of the extension's commit that
///   last changed or touched it, in `trove_ext_<name>_log`;
/// - the number of commits that changed its collection, written once per transaction by its
///   transaction state, before the commit.
///
/// Version 1 counts every item; version 2 (another fingerprint) only the items whose value is
/// even, so that a version change must rebuild it to give the right answers.
public struct Tally<Item: Persistable>: ExtensionImplementation {
    /// The version of the definition.
    public let version: Int
    /// The number each item adds to the sum.
    public let value: @Sendable (Item) -> Int
    /// Whether a transaction that wrote an item with this key must fail before its commit (to
    /// test a will-commit step that throws).
    public let failingKey: String?

    /// A tally of version `version`.
    public init(version: Int = 1, failingKey: String? = nil, value: @escaping @Sendable (Item) -> Int) {
        self.version = version
        self.failingKey = failingKey
        self.value = value
    }

    /// The extension to register under `name`.
    public func databaseExtension(name: String) -> DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: self)
    }

    // MARK: ExtensionImplementation

    public var kind: String { "tally" }
    public var collection: String { Item.collection }
    public var fingerprint: String { "tally v\(version)" }

    public func tableNames(name: String) -> [String] {
        ["trove_ext_\(name)", "trove_ext_\(name)_log"]
    }

    public func create(name: String, in context: ExtensionContext) throws {
        try context.execute(
            "CREATE TABLE trove_ext_\(name) (items INTEGER NOT NULL, total INTEGER NOT NULL, commits INTEGER NOT NULL)")
        try context.execute("INSERT INTO trove_ext_\(name) VALUES (0, 0, 0)")
        try context.execute(
            "CREATE TABLE trove_ext_\(name)_log (key TEXT PRIMARY KEY, value INTEGER NOT NULL, commitNumber INTEGER NOT NULL) WITHOUT ROWID"
        )
    }

    public func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        try context.forEachItem(of: Item.self, progress: progress) { _, key, item in
            try add(key: key, item: item, name: name, in: context)
        }
    }

    public func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        let pending = context.transactionState { PendingCommit(failingKey: failingKey) }
        pending.keys.append(event.key)
        switch event.kind {
        case .inserted:
            guard let item = try context.item(of: event, as: Item.self) else { return }
            try add(key: event.key, item: item, name: name, in: context)
        case .dataUpdated, .metadataUpdated:
            try remove(key: event.key, name: name, in: context)
            guard let item = try context.item(of: event, as: Item.self) else { return }
            try add(key: event.key, item: item, name: name, in: context)
        case .touched:
            break
        case .removed:
            try remove(key: event.key, name: name, in: context)
        }
    }

    public func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try context.execute("DELETE FROM trove_ext_\(name)_log")
        try context.execute("UPDATE trove_ext_\(name) SET items = 0, total = 0")
        context.transactionState { PendingCommit(failingKey: failingKey) }.keys.append("*")
    }

    /// Whether version ``version`` counts `item`.
    private func counts(_ value: Int) -> Bool {
        version < 2 || value % 2 == 0
    }

    private func add(key: String, item: Item, name: String, in context: ExtensionContext) throws {
        let value = self.value(item)
        guard counts(value) else { return }
        try context.execute(
            "INSERT INTO trove_ext_\(name)_log (key, value, commitNumber) VALUES (?, ?, (SELECT commits FROM trove_ext_\(name)))",
            [.text(key), .integer(Int64(value))])
        try context.execute(
            "UPDATE trove_ext_\(name) SET items = items + 1, total = total + ?", [.integer(Int64(value))])
    }

    private func remove(key: String, name: String, in context: ExtensionContext) throws {
        var old: Int64?
        try context.select("SELECT value FROM trove_ext_\(name)_log WHERE key = ?", [.text(key)]) { row in
            old = row.int64(at: 0)
        }
        guard let old else { return }
        try context.execute("DELETE FROM trove_ext_\(name)_log WHERE key = ?", [.text(key)])
        try context.execute("UPDATE trove_ext_\(name) SET items = items - 1, total = total - ?", [.integer(old)])
    }

    // MARK: Reading

    /// What the tally holds, in the snapshot of `transaction`.
    public func totals(named name: String, in transaction: ReadTransaction) throws -> Totals {
        let tables = try transaction.extensionTables(named: name)
        let cache = tables.connectionCache { TotalsCache(collection: collection) }
        if let cached = cache.totals {
            cache.hits += 1
            return cached
        }
        var totals = Totals(items: 0, total: 0, commits: 0)
        try tables.select("SELECT items, total, commits FROM trove_ext_\(name)") { row in
            totals = Totals(items: Int(row.int64(at: 0)), total: Int(row.int64(at: 1)), commits: Int(row.int64(at: 2)))
        }
        cache.totals = totals
        return totals
    }

    /// The "last modified" log, in the snapshot of `transaction`: each key with the number of
    /// the commit that last wrote or touched it, by key.
    public func log(named name: String, in transaction: ReadTransaction) throws -> [String: Int] {
        var log: [String: Int] = [:]
        try transaction.extensionTables(named: name).select("SELECT key, commitNumber FROM trove_ext_\(name)_log") {
            log[$0.string(at: 0)] = Int($0.int64(at: 1))
        }
        return log
    }

    /// How many reads of ``totals(named:in:)`` the connection that runs `transaction` answered
    /// from its cache.
    public func cacheHits(named name: String, in transaction: ReadTransaction) throws -> Int {
        try transaction.extensionTables(named: name).connectionCache { TotalsCache(collection: collection) }.hits
    }
}

/// The totals of a ``Tally``.
public struct Totals: Sendable, Hashable {
    /// The number of items counted.
    public var items: Int
    /// The sum of their values.
    public var total: Int
    /// The number of commits that changed the collection since the tally was built.
    public var commits: Int

    /// Totals with these numbers.
    public init(items: Int, total: Int, commits: Int) {
        self.items = items
        self.total = total
        self.commits = commits
    }
}

/// What a ``Tally`` gathers during one transaction: the keys it wrote; before the commit it
/// counts the commit and stamps those keys in the log.
final class PendingCommit: ExtensionTransactionState {
    var keys: [String] = []
    let failingKey: String?

    init(failingKey: String?) {
        self.failingKey = failingKey
    }

    func willCommit(name: String, in context: ExtensionContext) throws {
        if let failingKey, keys.contains(failingKey) {
            throw TallyRefusal(key: failingKey)
        }
        try context.execute("UPDATE trove_ext_\(name) SET commits = commits + 1")
        let stamped = Set(keys).filter { $0 != "*" }
        for key in stamped.sorted() {
            try context.execute(
                "UPDATE trove_ext_\(name)_log SET commitNumber = (SELECT commits FROM trove_ext_\(name)) WHERE key = ?",
                [.text(key)])
        }
        context.recordChange("\(stamped.count) keys")
    }

    func didRollback(name: String) {
        TallyEvents.shared.record("rolled back \(name)")
    }

    func didCommit(name: String, commit: ExtensionCommit) {
        TallyEvents.shared.record("committed \(name) \(commit.snapshot)")
    }
}

/// The error of a will-commit step that refuses the commit.
public struct TallyRefusal: Error, Equatable {
    /// The key whose write the tally refused.
    public var key: String
}

/// The totals a connection read last, forgotten when a commit changes the collection.
final class TotalsCache: ExtensionConnectionCache {
    let collection: String
    var totals: Totals?
    var hits = 0

    init(collection: String) {
        self.collection = collection
    }

    func apply(_ changeset: Changeset) {
        if changeset.containsChange(in: collection) || !changeset.changedExtensions.isEmpty {
            totals = nil
        }
    }

    func removeAll() {
        totals = nil
    }
}

/// What the transaction states of tallies did after their transactions ended, in order: the
/// tests read it to see that the did-commit and did-rollback steps run.
public final class TallyEvents: Sendable {
    /// The events of every tally of the process.
    public static let shared = TallyEvents()

    private let events = Mutex<[String]>([])

    /// Adds `event`.
    func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    /// The events of the tally `name` so far, and forgets them.
    public func take(of name: String) -> [String] {
        events.withLock { events in
            let taken = events.filter { $0.hasSuffix(" \(name)") || $0.contains(" \(name) ") }
            events.removeAll { $0.hasSuffix(" \(name)") || $0.contains(" \(name) ") }
            return taken
        }
    }
}
