/// What the runtime asks of a kind of extension (a secondary index; full-text search, views and
/// relationships later): its tables, how to fill them, and how to follow every write.
///
/// One value describes one extension as its definition gives it; it keeps no state. Its methods
/// run inside a write transaction, under the writer lock, on the connection that writes.
protocol ExtensionImplementation: Sendable {
    /// The kind of the extension, stored in the file (`secondaryIndex`).
    var kind: String { get }
    /// The collection whose items the extension follows.
    var collection: String { get }
    /// A description of the definition (columns, types, options): when it differs from the one
    /// stored in the file, the extension is rebuilt, even at the same version.
    var fingerprint: String { get }
    /// Whether a removal of the whole collection (or of everything) must list the rows that go.
    var needsRemovedRows: Bool { get }

    /// The tables the extension named `name` owns, each dropped when it is rebuilt or removed.
    func tableNames(name: String) -> [String]
    /// Creates the extension's tables, empty.
    func create(name: String, in context: ExtensionContext) throws
    /// Fills the tables from the items of ``collection``, calling `progress` with the number of
    /// items done so far from time to time.
    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws
    /// Follows one change of a row of ``collection``.
    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws
    /// Follows the removal of `rows`, in order, all of one collection that the extension
    /// ``follows(_:)``, each already gone from `trove_items`; by default each is handed to
    /// ``apply(_:name:in:)`` as a removal.
    func applyRemovals(_ rows: [RemovedRow], name: String, in context: ExtensionContext) throws
    /// Follows the removal of every item of ``collection``; `rows` lists them when
    /// ``needsRemovedRows``.
    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws

    /// Whether the extension follows the writes of `collection`: ``collection`` by default; a
    /// relationship follows the collections its edges point to as well (see
    /// `ExtensionImplementation+Following.swift`).
    func follows(_ collection: String) -> Bool
    /// Whether the extension named `name` holds its data for this database: what the file
    /// records is not enough for an extension that keeps its data in memory. True by default.
    func isBuilt(name: String, in context: ExtensionContext) -> Bool
    /// The tables of ``tableNames(name:)`` that a rebuild keeps, when the file holds an
    /// extension of the same kind and collection whose definition had `storedFingerprint` (an
    /// older version or definition, or a stale copy): ``create(name:in:)`` finds them as they
    /// were, and ``populate(name:in:progress:)`` brings them in step with the definition and the
    /// items. None by default: a rebuild starts from empty tables. Relationships keep their
    /// manual edges this way.
    func tablesKeptByRebuild(name: String, storedFingerprint: String) -> [String]
    /// Follows the removal of every item of `collection` (`nil`: of every collection), which the
    /// extension ``follows(_:)``; by default ``removeAll(rows:name:in:)``.
    func removeAll(rows: [RemovedRow]?, ofCollection collection: String?, name: String, in context: ExtensionContext)
        throws
    /// The name of the extension this one is made from (the view a filtered view filters), which
    /// it follows: rebuilt when that one is registered again, unregistered with it. `nil` by
    /// default.
    var parentName: String? { get }
    /// This extension made again over `parent`, the extension named ``parentName`` as registered
    /// now, or `nil` when it cannot be (another kind of extension): it then keeps its own
    /// definition. `nil` by default.
    func following(_ parent: any ExtensionImplementation) -> (any ExtensionImplementation)?
    /// The extensions this one reads while it follows a write (a search results view reads its
    /// full-text search's table): they must be registered, with these definitions, for it to be
    /// registered; each write reaches them before it; they are built before it; and it is
    /// unregistered with them. None by default.
    var dependencies: [ExtensionDependency] { get }
}

/// An extension that another one reads (see ``ExtensionImplementation/dependencies``).
struct ExtensionDependency: Sendable, Hashable {
    /// Its name.
    var name: String
    /// The fingerprint its definition must have.
    var fingerprint: String
    /// What it is, in words, for error messages ("the full-text search 'notes_search'").
    var description: String
}

extension ExtensionImplementation {
    var parentName: String? { nil }

    var dependencies: [ExtensionDependency] { [] }

    func following(_ parent: any ExtensionImplementation) -> (any ExtensionImplementation)? { nil }
}

/// What an extension's methods work with: the connection of the write transaction.
struct ExtensionContext {
    let core: ConnectionCore

    var sqlite: SQLiteConnection { core.sqlite }
}

// Explicit non-conformance to Sendable: a context belongs to one transaction.
@available(*, unavailable)
extension ExtensionContext: Sendable {}
