import Foundation

/// The actions that the items of a collection declare, kept in the file: each has a date, runs
/// once at that date, survives restarts, is tried again with back-off when it fails, and is
/// dropped when its item changes or goes (YapDatabase's action manager). An ``ActionRunner``
/// runs them.
///
/// ```swift
/// let expiry = ActionSchedule<Note>("note_actions") { note in
///     [ScheduledAction("expire", at: note.expiresAt)]
/// }
/// let database = try Database(path: path, extensions: [expiry.databaseExtension])
/// ```
///
/// It is an extension written on ``ExtensionImplementation``, with the public API alone. It keeps
/// one row per declared action in its table `trove_ext_<name>` and follows every write of the
/// collection in the writing transaction:
/// - a new item declares its actions;
/// - a write of an item's data drops its actions, done or not, and declares those of the new item
///   (so a handler that is done with an action writes the item so that it no longer declares it,
///   or declares it at a later date; else the next write of the item declares it again);
/// - a write of the metadata alone, or a touch, keeps them;
/// - a removal of the item, or of its collection, drops them.
///
/// A new version or definition rebuilds the table from the items: every action is declared anew,
/// its tries forgotten.
public struct ActionSchedule<Item: Persistable>: ExtensionImplementation {
    /// The name the schedule is registered under.
    public let name: String
    /// The version of the definition: a new one declares every action anew.
    public let version: Int
    /// The actions an item declares.
    public let actions: @Sendable (Item) -> [ScheduledAction]

    /// A schedule registered as `name`, whose items declare `actions`.
    ///
    /// - Parameters:
    ///   - name: The name of the extension (letters, digits and `_`).
    ///   - version: The version of `actions`: change it when `actions` changes.
    ///   - actions: The actions an item declares.
    public init(_ name: String, version: Int = 1, actions: @escaping @Sendable (Item) -> [ScheduledAction]) {
        self.name = name
        self.version = version
        self.actions = actions
    }

    /// The extension to register.
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: self)
    }

    /// The actions waiting in the schedule, in the snapshot of `transaction`, in the order they
    /// run: by their next try, then by declaration.
    ///
    /// - Throws: ``TroveError`` when the schedule is not registered, or SQLite fails.
    public func pendingActions(in transaction: ReadTransaction) throws -> [PendingAction] {
        try ActionTable(name: name).pending(in: transaction.extensionTables(named: name))
    }

    // MARK: ExtensionImplementation

    /// `actionSchedule`.
    public var kind: String { "actionSchedule" }
    /// The collection of `Item`.
    public var collection: String { Item.collection }
    /// The layout of the table; the actions are versioned by ``version``.
    public var fingerprint: String { "actionSchedule v1" }
    /// A removal of the collection empties the table without listing the rows.
    public var needsRemovedRows: Bool { false }

    /// `trove_ext_<name>` (the actions) and `trove_ext_<name>_counter` (the next declaration
    /// number).
    public func tableNames(name: String) -> [String] {
        let table = ActionTable(name: name)
        return [table.actions, table.counter]
    }

    /// Creates the tables, empty.
    public func create(name: String, in context: ExtensionContext) throws {
        try ActionTable(name: name).create(in: context)
    }

    /// Declares the actions of every item.
    public func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
        let table = ActionTable(name: name)
        try context.forEachItem(of: Item.self, progress: progress) { rowID, key, item in
            try table.declare(actions(item), rowID: rowID, key: key, in: context)
        }
    }

    /// Declares, replaces or drops the actions of the item of `event`.
    public func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        let table = ActionTable(name: name)
        switch event.kind {
        case .inserted:
            guard let item = try context.item(of: event, as: Item.self) else { return }
            try table.declare(actions(item), rowID: event.rowID, key: event.key, in: context)
        case .dataUpdated:
            try table.drop(rowID: event.rowID, in: context)
            guard let item = try context.item(of: event, as: Item.self) else { return }
            try table.declare(actions(item), rowID: event.rowID, key: event.key, in: context)
        case .metadataUpdated, .touched:
            break
        case .removed:
            try table.drop(rowID: event.rowID, in: context)
        }
    }

    /// Drops every action.
    public func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try ActionTable(name: name).dropAll(in: context)
    }
}

extension ActionSchedule where Item: ActionScheduling {
    /// A schedule registered as `name`, whose items declare their
    /// ``ActionScheduling/scheduledActions``.
    public init(_ name: String, version: Int = 1) {
        self.init(name, version: version) { $0.scheduledActions }
    }
}

/// The SQL of an action schedule's tables, on the public extension API
/// (``ExtensionContext``, ``ExtensionTables``).
struct ActionTable {
    /// The table of actions.
    let actions: String
    /// The one-row table of the next declaration number.
    let counter: String

    init(name: String) {
        actions = "trove_ext_\(name)"
        counter = "trove_ext_\(name)_counter"
    }

    /// The columns ``pending(in:)`` reads, in order.
    private var columns: String {
        "id, key, action, date, nextTry, attempts, failures, maxFailures, initialDelay, multiplier, maxDelay, lastError"
    }

    func create(in context: ExtensionContext) throws {
        try context.execute(
            """
            CREATE TABLE \(actions) (id INTEGER PRIMARY KEY, item INTEGER NOT NULL, key TEXT NOT NULL, \
            action TEXT NOT NULL, date REAL NOT NULL, nextTry REAL NOT NULL, attempts INTEGER NOT NULL, \
            failures INTEGER NOT NULL, maxFailures INTEGER NOT NULL, initialDelay REAL NOT NULL, \
            multiplier REAL NOT NULL, maxDelay REAL NOT NULL, lastError TEXT)
            """)
        try context.execute("CREATE INDEX \(actions)_item ON \(actions) (item)")
        try context.execute("CREATE INDEX \(actions)_due ON \(actions) (nextTry, id)")
        try context.execute("CREATE TABLE \(counter) (next INTEGER NOT NULL)")
        try context.execute("INSERT INTO \(counter) VALUES (1)")
    }

    /// Declares `declared` for the item `rowID` at `key`, the last of each name.
    func declare(_ declared: [ScheduledAction], rowID: Int64, key: String, in context: ExtensionContext) throws {
        guard !declared.isEmpty else { return }
        var seen = Set<String>()
        let unique = declared.reversed().filter { seen.insert($0.name).inserted }.reversed()
        for action in unique {
            var id: Int64 = 0
            try context.select("SELECT next FROM \(counter)") { id = $0.int64(at: 0) }
            try context.execute("UPDATE \(counter) SET next = next + 1")
            let date = action.date.timeIntervalSince1970
            try context.execute(
                """
                INSERT INTO \(actions) (id, item, key, action, date, nextTry, attempts, failures, maxFailures, \
                initialDelay, multiplier, maxDelay) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)
                """,
                [
                    .integer(id), .integer(rowID), .text(key), .text(action.name), .real(date), .real(date),
                    .integer(Int64(action.retry.maxFailures)), .real(action.retry.initialDelay),
                    .real(action.retry.multiplier), .real(action.retry.maxDelay),
                ])
        }
        context.recordChange("declared \(key)")
    }

    /// Drops the actions of the item `rowID`.
    func drop(rowID: Int64, in context: ExtensionContext) throws {
        if try context.execute("DELETE FROM \(actions) WHERE item = ?", [.integer(rowID)]) > 0 {
            context.recordChange("dropped \(rowID)")
        }
    }

    func dropAll(in context: ExtensionContext) throws {
        if try context.execute("DELETE FROM \(actions)") > 0 {
            context.recordChange("dropped all")
        }
    }

    /// The waiting actions, by next try then declaration; at most `limit`.
    func pending(in tables: ExtensionTables, limit: Int? = nil) throws -> [PendingAction] {
        var pending: [PendingAction] = []
        let limitClause = limit.map { " LIMIT \($0)" } ?? ""
        try tables.select("SELECT \(columns) FROM \(actions) ORDER BY nextTry, id\(limitClause)") { row in
            pending.append(
                PendingAction(
                    declaration: row.int64(at: 0), key: row.string(at: 1), name: row.string(at: 2),
                    date: Date(timeIntervalSince1970: row.double(at: 3)),
                    nextTry: Date(timeIntervalSince1970: row.double(at: 4)), attempts: Int(row.int64(at: 5)),
                    failures: Int(row.int64(at: 6)),
                    retry: RetryPolicy(
                        maxFailures: Int(row.int64(at: 7)), initialDelay: row.double(at: 8),
                        multiplier: row.double(at: 9), maxDelay: row.double(at: 10)),
                    lastError: row.isNull(at: 11) ? nil : row.string(at: 11)))
        }
        return pending
    }

    /// Counts a start of the declaration `id`; `false` when it is gone (its item changed or went).
    func recordStart(of id: Int64, in context: ExtensionContext) throws -> Bool {
        try context.execute("UPDATE \(actions) SET attempts = attempts + 1 WHERE id = ?", [.integer(id)]) > 0
    }

    /// Drops the declaration `id`, done (or failed for good).
    func recordDone(_ id: Int64, in context: ExtensionContext) throws {
        if try context.execute("DELETE FROM \(actions) WHERE id = ?", [.integer(id)]) > 0 {
            context.recordChange("done \(id)")
        }
    }

    /// Records a failure of the declaration `id`, to be tried again at `nextTry`.
    func recordFailure(of id: Int64, nextTry: Date, error: String, in context: ExtensionContext) throws {
        if try context.execute(
            "UPDATE \(actions) SET failures = failures + 1, nextTry = ?, lastError = ? WHERE id = ?",
            [.real(nextTry.timeIntervalSince1970), .text(error), .integer(id)]) > 0
        {
            context.recordChange("failed \(id)")
        }
    }
}
