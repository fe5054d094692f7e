/// What a kind of extension does: its tables, how to fill them from the items, and how to follow
/// every write of the collection it follows. The built-in extensions (``SecondaryIndex``,
/// ``FullTextSearch``, ``View``, ``Relationships``) are written on this protocol, and so is an
/// extension of your own.
///
/// A conforming value describes one extension as its definition gives it, and keeps no state
/// of its own: Trove calls its methods inside a write transaction, under the writer lock, on the
/// connection that writes, with an ``ExtensionContext`` that runs SQL on the extension's own tables
/// in that transaction. Register it under a name and a version with
/// ``DatabaseExtension/init(name:version:implementation:)``:
///
/// ```swift
/// struct NoteCounter: ExtensionImplementation {
///     var kind: String { "noteCounter" }
///     var collection: String { "notes" }
///     var fingerprint: String { "count v1" }
///
///     func tableNames(name: String) -> [String] { ["trove_ext_\(name)"] }
///
///     func create(name: String, in context: ExtensionContext) throws {
///         try context.execute("CREATE TABLE trove_ext_\(name) (total INTEGER NOT NULL)")
///         try context.execute("INSERT INTO trove_ext_\(name) VALUES (0)")
///     }
///
///     func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {
///         try context.forEachItem(of: Note.self, progress: progress) { _, _, _ in
///             try context.execute("UPDATE trove_ext_\(name) SET total = total + 1")
///         }
///     }
///
///     func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
///         switch event.kind {
///         case .inserted: try context.execute("UPDATE trove_ext_\(name) SET total = total + 1")
///         case .removed: try context.execute("UPDATE trove_ext_\(name) SET total = total - 1")
///         case .dataUpdated, .metadataUpdated, .touched: break
///         }
///     }
/// }
/// ```
///
/// The extension is then persistent, versioned and transactional as the built-in ones are (see
/// ``DatabaseExtension``): its tables are in the file, a new version or ``fingerprint`` rebuilds
/// them with ``create(name:in:)`` and ``populate(name:in:progress:)``, every write reaches
/// ``apply(_:name:in:)`` in the writing transaction, and a rollback undoes what it wrote. The
/// *Writing an extension* article walks through one.
///
/// Only ``kind``, ``collection``, ``fingerprint``, ``tableNames(name:)``, ``create(name:in:)``,
/// ``populate(name:in:progress:)`` and ``apply(_:name:in:)`` have no default. The others let an
/// extension follow bulk removals faster, keep tables across a rebuild, follow more than one
/// collection, or read another extension.
public protocol ExtensionImplementation: Sendable {
    /// The kind of the extension, stored in the file beside its name (`secondaryIndex` for the
    /// built-in index). Choose one that no other kind of extension uses.
    var kind: String { get }
    /// The collection whose items the extension follows.
    var collection: String { get }
    /// A description of the definition (columns, types, options): when it differs from the one
    /// stored in the file, the extension is rebuilt, even at the same version.
    var fingerprint: String { get }
    /// Whether a removal of the whole collection (or of everything) must list the rows that go,
    /// for ``removeAll(rows:name:in:)``. `true` by default; listing them costs a read of every row.
    var needsRemovedRows: Bool { get }

    /// The tables the extension named `name` owns: each is dropped when the extension is rebuilt
    /// or unregistered, and its ``ExtensionContext`` may use these tables and no other. Each name
    /// is `trove_ext_` followed by `name`, then by nothing, or by `_` and more (`trove_ext_counts`,
    /// `trove_ext_counts_log`); a virtual table's own shadow tables (named after it) are the
    /// extension's too.
    func tableNames(name: String) -> [String]
    /// Creates the extension's tables, empty.
    func create(name: String, in context: ExtensionContext) throws
    /// Fills the tables from the items of ``collection`` (see
    /// ``ExtensionContext/forEachItem(of:progress:_:)``), calling `progress` with the number of
    /// items done so far from time to time.
    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws
    /// Follows one change of one item of a collection the extension ``follows(_:)``. A thrown
    /// error fails the whole transaction: the write that caused the event throws it, and so does
    /// the commit if the caller goes on.
    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws
    /// Follows the removal of `rows`, in order, all of one collection that the extension
    /// ``follows(_:)``, each already gone from the database; by default each is handed to
    /// ``apply(_:name:in:)`` as a removal.
    func applyRemovals(_ rows: [RemovedRow], name: String, in context: ExtensionContext) throws
    /// Follows the removal of every item of ``collection``; `rows` lists them when
    /// ``needsRemovedRows``. By default each listed row is handed to ``apply(_:name:in:)`` as a
    /// removal.
    func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws

    /// Whether the extension follows the writes of `collection`: ``collection`` by default;
    /// relationships follow the collections their edges point to as well.
    func follows(_ collection: String) -> Bool
    /// Whether the extension named `name` holds its data for this database: what the file
    /// records is not enough for an extension that keeps its data in memory. `true` by default.
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
    /// Runs each time the extension named `name` is registered (each open of a database that
    /// lists it), once its tables are found built or are built again, in the registering write
    /// transaction: the place to finish work that the extension does after a commit (outside the
    /// file) and that a process stopped before doing. Relationships remove here the files that a
    /// killed process had to remove after its commit. Nothing by default.
    func recover(name: String, in context: ExtensionContext) throws
}

/// An extension that another one reads (see ``ExtensionImplementation/dependencies``).
public struct ExtensionDependency: Sendable, Hashable {
    /// Its name.
    public var name: String
    /// The ``ExtensionImplementation/fingerprint`` its definition must have.
    public var fingerprint: String
    /// What it is, in words, for error messages ("the full-text search 'notes_search'").
    public var description: String

    /// Names the extension `name`, whose definition must have `fingerprint`; `description` says
    /// what it is in error messages.
    public init(name: String, fingerprint: String, description: String) {
        self.name = name
        self.fingerprint = fingerprint
        self.description = description
    }
}

extension ExtensionImplementation {
    /// No parent.
    public var parentName: String? { nil }

    /// No dependency.
    public var dependencies: [ExtensionDependency] { [] }

    /// Not made over another extension.
    public func following(_ parent: any ExtensionImplementation) -> (any ExtensionImplementation)? { nil }

    /// The rows of a removed collection are listed.
    public var needsRemovedRows: Bool { true }

    /// Each listed row is handed to ``apply(_:name:in:)`` as a removal.
    public func removeAll(rows: [RemovedRow]?, name: String, in context: ExtensionContext) throws {
        try applyRemovals(rows ?? [], name: name, in: context)
    }
}
