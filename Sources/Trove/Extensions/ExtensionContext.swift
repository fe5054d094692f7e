/// What the methods of an ``ExtensionImplementation`` work with: the write transaction that runs
/// them, narrowed to what an extension may do in it.
///
/// - **SQL on its own tables.** ``execute(_:_:)`` and ``select(_:_:_:)`` run statements in the
///   transaction, on the tables of ``ExtensionImplementation/tableNames(name:)`` only: a statement
///   that reads or writes another table, begins or ends a transaction, attaches a database or
///   creates a trigger is refused before it runs, with a ``TroveError`` of code
///   ``TroveError/Code/misuse``. Prepared statements are kept by the connection.
/// - **The items.** ``item(of:as:)`` gives the item of a write event, and
///   ``forEachItem(of:progress:_:)`` every stored item of a type, decoded.
/// - **State for the transaction.** ``transactionState(_:)`` keeps an object until the transaction
///   ends, whose ``ExtensionTransactionState`` methods run before and after the commit.
/// - **Its part of the changeset.** ``recordChange(_:)``.
///
/// A context is valid only during the call that receives it.
public struct ExtensionContext {
    let core: ConnectionCore
    /// The name of the extension the context runs for.
    public let extensionName: String
    /// The definition of the extension, when the caller has it at hand; else it is looked up when
    /// a statement is first prepared.
    let implementation: (any ExtensionImplementation)?

    /// A context for the extension `definition`.
    init(core: ConnectionCore, extension definition: DatabaseExtension) {
        self.init(core: core, name: definition.name, implementation: definition.implementation)
    }

    /// A context for the extension `name`, defined by `implementation`, or by the definition
    /// registered for the current transaction when `nil`.
    init(core: ConnectionCore, name: String, implementation: (any ExtensionImplementation)? = nil) {
        self.core = core
        self.extensionName = name
        self.implementation = implementation
    }

    var sqlite: SQLiteConnection { core.sqlite }

    // MARK: SQL

    /// Runs a statement on the extension's tables that returns no rows, such as `CREATE TABLE`,
    /// `INSERT`, `UPDATE` or `DELETE`, in the transaction.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement, with `?` (or `?N`) placeholders for `arguments`.
    ///   - arguments: The values bound to the placeholders, in order.
    /// - Returns: The number of rows the statement inserted, updated or deleted.
    /// - Throws: ``TroveError`` (``TroveError/Code/misuse``) when the statement uses anything but
    ///   the extension's tables; ``TroveError`` when SQLite fails.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [IndexValue] = []) throws -> Int {
        try ExtensionStatements.run(
            sql, arguments, extension: extensionName, implementation: implementation, readOnly: false, in: core
        ) { _ in }
        return core.sqlite.changes
    }

    /// Runs a query on the extension's tables in the transaction, and calls `row` with each row
    /// of its result, in order.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement, with `?` (or `?N`) placeholders for `arguments`.
    ///   - arguments: The values bound to the placeholders, in order.
    ///   - row: Called with each row; the row is valid only during the call.
    /// - Throws: ``TroveError`` (``TroveError/Code/misuse``) when the statement uses anything but
    ///   the extension's tables; ``TroveError`` when SQLite fails; what `row` throws.
    public func select(_ sql: String, _ arguments: [IndexValue] = [], _ row: (ExtensionRow) throws -> Void) throws {
        try ExtensionStatements.run(
            sql, arguments, extension: extensionName, implementation: implementation, readOnly: false, in: core, row: row)
    }

    // MARK: Items

    /// The item of `event`, decoded as `Item`: as written when the write was typed, else decoded
    /// from its bytes. `nil` for a removal, and when the bytes do not decode: the item is then
    /// listed among the database's unreadable items for this extension (see
    /// ``ReadTransaction/unreadableItems()``), as the built-in extensions do, and one
    /// undecodable item never fails a write of others.
    ///
    /// - Throws: ``TroveError`` when SQLite fails.
    public func item<Item: Persistable>(of event: WriteEvent, as type: Item.Type = Item.self) throws -> Item? {
        guard event.kind != .removed else { return nil }
        return try ExtensionItems<Item>.resolveReadable(event, name: extensionName, in: self)
    }

    /// Calls `body` with the row id, the key and the decoded item of every stored item of
    /// `Item`'s collection, and `progress` with the number done from time to time: what
    /// ``ExtensionImplementation/populate(name:in:progress:)`` reads. An item that does not decode
    /// is left out and listed among the unreadable items (see ``item(of:as:)``).
    ///
    /// - Throws: ``TroveError`` when SQLite fails; what `body` throws.
    public func forEachItem<Item: Persistable>(
        of type: Item.Type, progress: (Int) -> Void = { _ in }, _ body: (_ rowID: Int64, _ key: String, Item) throws -> Void
    ) throws {
        try ExtensionItems<Item>.forEachStored(name: extensionName, in: self, progress: progress, body)
    }

    // MARK: Transaction

    /// The extension's state for the current transaction: the object that `make` made on the
    /// first call of the transaction, kept until the transaction commits or rolls back.
    ///
    /// - Parameter make: Makes the state, on the first call of the transaction.
    /// - Returns: The state.
    public func transactionState<State: ExtensionTransactionState>(_ make: () throws -> State) rethrows -> State {
        if let state = core.extensionStates[extensionName] as? State {
            return state
        }
        let state = try make()
        core.extensionStates[extensionName] = state
        if let implementation {
            core.extensionStateImplementations[extensionName] = implementation
        }
        return state
    }

    /// Adds `note` to the extension's part of the commit's changeset
    /// (``Changeset/extensionNotes``): what observers of the database learn of the extension's
    /// changes, such as the keys or the totals that changed. A rollback drops it.
    public func recordChange(_ note: String) {
        core.changes.recordExtensionNote(note, of: extensionName)
    }
}

// Explicit non-conformance to Sendable: a context belongs to one transaction.
@available(*, unavailable)
extension ExtensionContext: Sendable {}

/// One row of the result of an extension's query (see ``ExtensionContext/select(_:_:_:)``), valid
/// only during the call that receives it.
public struct ExtensionRow {
    let statement: Statement

    /// The number of columns.
    public var count: Int {
        Int(statement.columnCount)
    }

    /// The value of the column at `index` (from 0), as SQLite stores it.
    public subscript(index: Int) -> IndexValue {
        statement.value(at: Int32(index))
    }

    /// The integer of the column at `index` (0 for `NULL`).
    public func int64(at index: Int) -> Int64 {
        statement.int64(at: Int32(index))
    }

    /// The floating-point number of the column at `index` (0 for `NULL`).
    public func double(at index: Int) -> Double {
        statement.double(at: Int32(index))
    }

    /// The text of the column at `index` (empty for `NULL`).
    public func string(at index: Int) -> String {
        statement.string(at: Int32(index))
    }

    /// Whether the column at `index` is `NULL`.
    public func isNull(at index: Int) -> Bool {
        statement.isNull(at: Int32(index))
    }
}

// Explicit non-conformance to Sendable: a row is the statement's current row.
@available(*, unavailable)
extension ExtensionRow: Sendable {}

/// The statements of extensions of a connection, prepared on first use and kept: each is checked
/// once, when it is prepared, to use only the tables of the extension that runs it (see
/// ``TableAccess``), and kept apart from the connection's other statements so that the same SQL
/// of another extension is checked for that one.
struct ExtensionStatements {
    private struct Key: Hashable {
        var extensionName: String
        var sql: String
        var readOnly: Bool
    }

    private var statements: [Key: Statement] = [:]

    /// Forgets every statement (they are finalized when no one uses them any more).
    mutating func removeAll() {
        statements.removeAll()
    }

    /// Runs `sql` with `arguments` for the extension `name` (whose definition is
    /// `implementation`, or the one registered for the current transaction when `nil`), calling
    /// `row` with each row.
    static func run(
        _ sql: String, _ arguments: [IndexValue], extension name: String,
        implementation: (any ExtensionImplementation)?, readOnly: Bool, in core: ConnectionCore,
        row: (ExtensionRow) throws -> Void
    ) throws {
        let statement = try core.extensionStatements.statement(
            sql, extension: name, implementation: implementation, readOnly: readOnly, in: core)
        defer { statement.reset() }
        do {
            for (index, argument) in arguments.enumerated() {
                try statement.bind(argument, at: Int32(index + 1))
            }
            while try statement.step() {
                try row(ExtensionRow(statement: statement))
            }
        } catch var error as TroveError {
            if error.extensionName == nil { error.extensionName = name }
            throw error
        }
    }

    /// The statement of `sql` for the extension `name`: the kept one, or a new one when it is
    /// being stepped (a query run again inside the handling of its own rows).
    private mutating func statement(
        _ sql: String, extension name: String, implementation: (any ExtensionImplementation)?, readOnly: Bool,
        in core: ConnectionCore
    ) throws -> Statement {
        let key = Key(extensionName: name, sql: sql, readOnly: readOnly)
        if let kept = statements[key], !kept.isBusy {
            return kept
        }
        guard let implementation = implementation ?? core.registeredExtension(named: name)?.implementation else {
            throw TroveError.notRegistered(extension: name)
        }
        let access = TableAccess(tables: implementation.tableNames(name: name), readOnly: readOnly)
        let statement: Statement
        switch try core.sqlite.makeStatement(sql, limitedTo: access) {
        case .success(let made):
            statement = made
        case .failure(let refusal):
            throw TroveError(
                code: .misuse,
                message:
                    "The extension '\(name)' may use only its own tables (\(access.tables.map { "'\($0)'" }.joined(separator: ", "))) inside the transaction, and one of its statements was refused: \(refusal.reason).",
                extensionName: name)
        }
        if statements[key] == nil {
            statements[key] = statement
        }
        return statement
    }
}
