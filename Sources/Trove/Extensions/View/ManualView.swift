/// A view whose rows the app places itself (YapDatabase's manual view): groups of keys of one
/// collection, in the order the app gives them, kept by the database with the items, read and
/// followed as a ``View`` is.
///
/// ```swift
/// let favourites = ManualView<Message>("favourites")
/// let database = try Database(path: path, extensions: [favourites.databaseExtension])
///
/// try connection.write { tx in
///     let writer = favourites.write(tx)
///     try writer.append(messageID, to: "pinned")
///     try writer.move(from: 0, in: "pinned", to: 0, in: "later")
/// }
/// let pinned = try favourites.rows(in: "pinned").items(in: database)
/// ```
///
/// - No closure places a row: the app adds, inserts, moves and removes rows in a
///   ``ReadWriteTransaction`` through ``write(_:)`` (a ``ManualViewWriter``). An item is in at
///   most one row of the view: adding a key already in it moves its row.
/// - The items follow their rows: removing an item (one by one, by a whole collection's removal,
///   or by a relationship's delete rule) removes its row in the same transaction; storing it
///   again (or touching it) keeps its row where it is and reports it as updated.
/// - It is stored as a ``View``'s pages are (see <doc:Views>), with the same ``View/Storage``
///   choices: ``View/Storage/persistent`` keeps the rows in the file from one run to the next;
///   ``View/Storage/rebuiltAtLaunch`` and ``View/Storage/inMemory`` start empty in each process.
///   A new version (or another storage) starts it empty again: there is nothing to rebuild it
///   from.
/// - It is read as a ``View`` is, through a ``ViewReader`` (``read(_:)``) or a ``ViewQuery``
///   (``rows(in:range:)``); each commit that changed it holds its ``ViewChanges`` in
///   ``Changeset/viewChanges``, which ``ViewMappings`` and
///   ``Database/observe(_:mappings:)-(ManualView<Item>,_)`` turn into sections.
///
/// - Each row keeps the key the app placed it with, beside the item's row id. When the view
///   falls behind (another process wrote its collection without the view registered, see
///   <doc:ExtensionsAndIndexes>; for an in-memory view, any commit of another process), its
///   rebuild keeps the rows whose keys are still stored, in their order, and drops the others,
///   also when a new item took a removed one's row id.
public struct ManualView<Item: Persistable>: Sendable {
    /// The definition the view is stored, registered and read under: a ``View`` that no item
    /// enters by its closures.
    let view: View<Item>

    /// The name of the view, unique among the extensions of a file.
    public var name: String { view.name }
    /// The version of the definition: a new version starts the view empty.
    public var version: Int { view.version }
    /// Where the rows are kept, and whether they survive from one run to the next.
    public var storage: View<Item>.Storage { view.storage }

    /// Defines a manual view of the items of `Item`.
    ///
    /// - Parameters:
    ///   - name: The name of the view: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1): a new version starts the view
    ///     empty.
    ///   - storage: Where the rows are kept (default: persistent, in the file).
    public init(_ name: String, version: Int = 1, storage: View<Item>.Storage = .persistent) {
        view = View(manual: name, version: version, storage: storage)
    }

    /// The view as an extension to register (``Database/register(_:)-(DatabaseExtension)``).
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: ViewImplementation(view: view))
    }

    /// Reads the view in `transaction`, from its snapshot, as a ``View`` is read.
    ///
    /// ``ViewReader/enumerate(in:reversed:_:)`` walks the rows in the app's order; after a write
    /// in its body, it goes on from the index the last row it handed out had, skipping the rows
    /// handed out already, so that removing or moving that row skips none of the rows to come.
    ///
    /// - Parameter transaction: The transaction to read in.
    /// - Returns: The reader.
    public func read(_ transaction: ReadTransaction) -> ViewReader<Item> {
        ViewReader(view: view, transaction: transaction)
    }

    /// Changes the rows of the view in `transaction`.
    ///
    /// - Parameter transaction: The write transaction.
    /// - Returns: The writer.
    /// - Important: The writer must not escape the closure of its transaction.
    public func write(_ transaction: ReadWriteTransaction) -> ManualViewWriter<Item> {
        ManualViewWriter(view: view, transaction: transaction)
    }

    /// The rows of `group` in `range`, clamped to the group's rows (every row by default), as a
    /// query to run with its terminals (see ``View/rows(in:range:)``).
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - range: The indexes of the rows, from 0.
    /// - Returns: The query.
    public func rows(in group: String, range: Range<Int>? = nil) -> ViewQuery<Item> {
        ViewQuery(view: view, group: group, range: range)
    }
}

extension Database {
    /// Observes the contents of a manual view (the keys of its groups), as
    /// ``observe(_:groups:)-(View<Item>,_)`` does for a ``View``.
    ///
    /// - Parameters:
    ///   - view: The view, registered on this database.
    ///   - groups: The groups to follow; `nil` for all.
    /// - Returns: The observation.
    public func observe<Item: Persistable>(_ view: ManualView<Item>, groups: [String]? = nil)
        -> DatabaseObservation<ViewContents>
    {
        observe(view.view, groups: groups)
    }

    /// Observes the sections of a manual view under `mappings`, with the section and row changes
    /// from one value to the next, as ``observe(_:mappings:)-(View<Item>,_)`` does for a
    /// ``View``.
    ///
    /// - Parameters:
    ///   - view: The view, registered on this database.
    ///   - mappings: Which groups and rows to show.
    /// - Returns: The observation.
    public func observe<Item: Persistable>(_ view: ManualView<Item>, mappings: ViewMappings)
        -> ViewSectionsObservation
    {
        observe(view.view, mappings: mappings)
    }
}
