import Foundation

/// A view: a persistent list of the items of one collection, filtered, grouped and sorted, kept
/// up to date by every write in the same transaction, that reports which rows each commit
/// inserted, removed, moved and updated, so that a list on screen can animate.
///
/// ```swift
/// let inbox = View<Message>(
///     "inbox",
///     filter: { message, _ in !message.isArchived },
///     grouping: { message, _ in message.conversationID },
///     sortedBy: [.descending(\.date)])
/// let database = try Database(path: path, extensions: [inbox.databaseExtension])
///
/// let latest = try inbox.rows(in: conversationID, range: 0..<50).items(in: database)
/// for await changeset in database.changes {
///     if let changes = changeset.viewChanges["inbox"] { animate(changes) }
/// }
/// ```
///
/// - The **filter** says which items belong (default: all); the **grouping** gives each item's
///   group, or `nil` to leave it out; the **sort** orders the items of a group (criteria of
///   ``ViewSort``, or a closure). Items that compare equal are ordered by key: by value for an
///   integer key type (-1 before 9 before 10), by text for the others (`String`, `UUID`, any
///   `LosslessStringConvertible`), as Swift's `<` compares strings. The closures receive the item
///   and its metadata, must be pure functions of them, and run inside write transactions: keep
///   them fast.
/// - The ordered rows are stored in the file in pages of row ids (see <doc:Views>): one
///   write costs O(log n) comparisons and rewrites one page, or two when a page splits or merges
///   (rarely, every page of the group, when their numbering is used up).
///   A later open with the same name and version does no work; a new version (or another
///   ``Storage``) rebuilds the view. With ``Storage/inMemory``, the same pages live in memory
///   only, versioned by commit.
/// - Reads see the transaction's snapshot: the rows of a group are a query
///   (``rows(in:range:)``, a ``ViewQuery``), the rest (groups, positions, enumerations) is read
///   with ``read(_:)``; index lookups skip whole pages.
/// - Each commit's ``Changeset/viewChanges`` holds the view's ``ViewChanges``;
///   ``ViewMappings`` and ``Database/observe(_:mappings:)-(View<Item>,_)`` turn them into sections for a UI.
public struct View<Item: Persistable>: Sendable {
    /// Where a view keeps its pages, and whether they survive from one run of the program to
    /// the next.
    public enum Storage: Sendable, Hashable {
        /// The pages are kept in the file: a later open with the same definition does no work.
        case persistent
        /// The pages are rebuilt the first time each process registers the view; nothing from
        /// an earlier run is trusted. For views whose closures depend on the running program
        /// (a locale, a setting). The pages still live in the file while the program runs, so
        /// that every reader sees them in its snapshot.
        case rebuiltAtLaunch
        /// The pages live only in the memory of the process, never in the file: built when the
        /// view is registered on a ``Database``, changed by every write transaction (and rolled
        /// back with it), and read by each transaction at its snapshot, like the items: a
        /// transaction that began before a commit does not see the commit's changes. Reads and
        /// ``ViewChanges`` are the same as for the other storages.
        ///
        /// Commits keep only the versions that a transaction under way still reads. The file
        /// holds only the view's row in the registry of extensions (its name, version and
        /// definition), so that other processes know of it. When another process (or another
        /// `Database` on the file) commits, the view is rebuilt by this database's next write
        /// transaction; reading it meanwhile throws.
        case inMemory
    }

    /// The name of the view, unique among the extensions of a file.
    public let name: String
    /// The version of the definition: a new version rebuilds the view.
    public let version: Int
    /// Whether the pages survive from one run to the next.
    public let storage: Storage
    /// Whether the view starts empty instead of holding the items already stored: only the
    /// items written after it is built enter it (see ``init(_:version:storage:startsEmpty:filter:grouping:sortedBy:)``).
    public let startsEmpty: Bool
    let filter: @Sendable (Item, Item.Metadata?) -> Bool
    let grouping: @Sendable (Item, Item.Metadata?) -> String?
    let areInIncreasingOrder: @Sendable (Item, Item) -> Bool
    /// For a view made by ``filtered(_:version:by:)``: the name of the view it filters, and its
    /// own filter, to make it again over the parent as registered (see ``following(_:)``).
    let parent: (name: String, filter: @Sendable (Item, Item.Metadata?) -> Bool)?
    /// How keys compare, to break the ties of the sort.
    let keyOrder: ItemKeyOrder
    /// The fingerprint of the definition, and the view's parents' (see ``filtered(_:version:by:)``).
    let fingerprint: String
    let pages: ViewStorage
    /// Whether this is the reading side of a ``ManualView``: no item belongs to it by its
    /// closures, and its rows are placed by the app (see ``ManualViewWriter``).
    let isManual: Bool

    /// Defines a view of the items of `Item`, sorted by criteria.
    ///
    /// - Parameters:
    ///   - name: The name of the view: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1). Change it when a closure changes:
    ///     Trove cannot see inside closures.
    ///   - storage: Whether the pages survive from one run to the next (default: persistent).
    ///   - startsEmpty: Whether the view starts empty (default: `false`, it holds every stored
    ///     item that belongs). An empty view fills with the items written from then on: inserted,
    ///     updated, or whose metadata is set, when they belong; a touch does not add an item. It
    ///     starts empty whenever Trove builds it: at its first registration, at a new version, and
    ///     when it must be rebuilt because another process that does not register it wrote its
    ///     collection (which rows those writes would have added cannot be known). An in-memory view
    ///     is built by each process that registers it, and again after another process's commit.
    ///   - filter: Whether an item belongs to the view (default: every item).
    ///   - grouping: The group of an item, or `nil` to leave it out.
    ///   - sortedBy: The order of the items of a group.
    public init(
        _ name: String, version: Int = 1, storage: Storage = .persistent, startsEmpty: Bool = false,
        filter: @escaping @Sendable (Item, Item.Metadata?) -> Bool = { _, _ in true },
        grouping: @escaping @Sendable (Item, Item.Metadata?) -> String?,
        sortedBy: [ViewSort<Item>]
    ) {
        self.init(
            name, version: version, storage: storage, startsEmpty: startsEmpty, filter: filter, grouping: grouping,
            areInIncreasingOrder: ViewSort.combined(sortedBy), parent: nil, parentFingerprint: "")
    }

    /// Defines a view of the items of `Item`, sorted by a closure.
    ///
    /// - Parameters:
    ///   - name: The name of the view: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1).
    ///   - storage: Whether the pages survive from one run to the next (default: persistent).
    ///   - startsEmpty: Whether the view starts empty (default: `false`), as for
    ///     ``init(_:version:storage:startsEmpty:filter:grouping:sortedBy:)``.
    ///   - filter: Whether an item belongs to the view (default: every item).
    ///   - grouping: The group of an item, or `nil` to leave it out.
    ///   - areInIncreasingOrder: Whether the first item comes before the second in a group: a
    ///     strict weak ordering, as for `sorted(by:)`.
    public init(
        _ name: String, version: Int = 1, storage: Storage = .persistent, startsEmpty: Bool = false,
        filter: @escaping @Sendable (Item, Item.Metadata?) -> Bool = { _, _ in true },
        grouping: @escaping @Sendable (Item, Item.Metadata?) -> String?,
        areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool
    ) {
        self.init(
            name, version: version, storage: storage, startsEmpty: startsEmpty, filter: filter, grouping: grouping,
            areInIncreasingOrder: areInIncreasingOrder, parent: nil, parentFingerprint: "")
    }

    private init(
        _ name: String, version: Int, storage: Storage, startsEmpty: Bool,
        filter: @escaping @Sendable (Item, Item.Metadata?) -> Bool,
        grouping: @escaping @Sendable (Item, Item.Metadata?) -> String?,
        areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool,
        parent: (name: String, filter: @Sendable (Item, Item.Metadata?) -> Bool)?, parentFingerprint: String
    ) {
        self.name = name
        self.version = version
        self.storage = storage
        self.startsEmpty = startsEmpty
        self.filter = filter
        self.grouping = grouping
        self.areInIncreasingOrder = areInIncreasingOrder
        self.parent = parent
        keyOrder = ItemKeyOrder(of: Item.ID.self)
        var fingerprint =
            "view v1 \(Item.collection) version \(version) pages \(ViewStorage.maximumPageSize)/\(ViewStorage.minimumPageSize)"
        // Views of integer keys built when ties compared the keys' text are rebuilt once.
        if keyOrder == .integer { fingerprint += " integer keys" }
        switch storage {
        case .persistent: break
        case .rebuiltAtLaunch: fingerprint += " launch \(View.launchToken)"
        case .inMemory: fingerprint += " memory \(View.launchToken)"
        }
        if startsEmpty { fingerprint += " starts empty" }
        if !parentFingerprint.isEmpty { fingerprint += " of (\(parentFingerprint))" }
        self.fingerprint = fingerprint
        pages = ViewStorage(name: name)
        isManual = false
    }

    /// The definition of the manual view `name` (see ``ManualView``): no closure places a row,
    /// so the items are left out by the grouping and the sort is never asked; the fingerprint
    /// says it is manual, so that it never passes for a sorted view of the same name.
    init(manual name: String, version: Int, storage: Storage) {
        self.name = name
        self.version = version
        self.storage = storage
        // The app fills it: a build places no row.
        startsEmpty = true
        filter = { _, _ in false }
        grouping = { _, _ in nil }
        areInIncreasingOrder = { _, _ in false }
        parent = nil
        keyOrder = ItemKeyOrder(of: Item.ID.self)
        var fingerprint =
            "manual view v2 \(Item.collection) version \(version) pages \(ViewStorage.maximumPageSize)/\(ViewStorage.minimumPageSize)"
        switch storage {
        case .persistent: break
        case .rebuiltAtLaunch: fingerprint += " launch \(View.launchToken)"
        case .inMemory: fingerprint += " memory \(View.launchToken)"
        }
        self.fingerprint = fingerprint
        pages = ViewStorage(name: name, keepsKeys: true)
        isManual = true
    }

    /// The reading side of the ``SearchResultsView`` `name`: the groups and sort of `base`, no
    /// item placed by a build (the view's query places them), and `fingerprint`, the search
    /// results view's, so that it never passes for another view of the same name.
    init(searchResults name: String, version: Int, storage: Storage, over base: View<Item>, fingerprint: String) {
        self.name = name
        self.version = version
        self.storage = storage
        startsEmpty = true
        filter = base.filter
        grouping = base.grouping
        areInIncreasingOrder = base.areInIncreasingOrder
        parent = nil
        keyOrder = base.keyOrder
        self.fingerprint = fingerprint
        pages = ViewStorage(name: name)
        isManual = false
    }

    /// A view of the items of this view that also pass `filter`: the same groups, in the same
    /// order, the same storage, and empty at its start when this view starts empty. Filtered
    /// views chain.
    ///
    /// A registered filtered view follows the view it filters, by name: when that view is
    /// registered again with another version or definition, the filtered view is rebuilt over
    /// it in the same transaction (read it then through `newParent.filtered(…)`: the value made
    /// from the old parent no longer reads it); when that view is unregistered, the filtered view
    /// is unregistered with it. Registered while that view is not, it filters the definition it
    /// was made from. Replace the filter at run time (a search box over a list) by
    /// registering a filtered view with the same name and a new version: the view is rebuilt.
    ///
    /// ```swift
    /// let matches = inbox.filtered("inbox_search", version: searchVersion) { message, _ in
    ///     message.text.localizedStandardContains(searchText)
    /// }
    /// try await database.register(matches.databaseExtension) { _ in }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of the filtered view.
    ///   - version: The version of its filter: a new version rebuilds it.
    ///   - filter: Whether an item of this view belongs to the filtered view.
    /// - Returns: The filtered view; it does not need this view to be registered.
    public func filtered(
        _ name: String, version: Int = 1, by filter: @escaping @Sendable (Item, Item.Metadata?) -> Bool
    ) -> View<Item> {
        let parentFilter = self.filter
        return View(
            name, version: version, storage: storage, startsEmpty: startsEmpty,
            filter: { item, metadata in parentFilter(item, metadata) && filter(item, metadata) },
            grouping: grouping, areInIncreasingOrder: areInIncreasingOrder,
            parent: (self.name, filter), parentFingerprint: "\(self.name) v\(self.version) \(self.fingerprint)")
    }

    /// The view as an extension to register (``Database/register(_:)-(DatabaseExtension)``).
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: ViewImplementation(view: self))
    }

    /// Reads the view in `transaction`, from its snapshot.
    ///
    /// - Parameter transaction: The transaction to read in.
    /// - Returns: The reader.
    public func read(_ transaction: ReadTransaction) -> ViewReader<Item> {
        ViewReader(view: self, transaction: transaction)
    }

    /// The group of `item`, or `nil` when it is not in the view.
    func group(of item: Item) -> String? {
        let metadata = item.metadata
        guard filter(item, metadata) else { return nil }
        return grouping(item, metadata)
    }

    /// Whether `lhs` (at `lhsKey`) comes before `rhs` (at `rhsKey`): the sort, then the key
    /// (see ``ItemKeyOrder``).
    func sortsBefore(_ lhs: Item, key lhsKey: String, _ rhs: Item, key rhsKey: String) -> Bool {
        if areInIncreasingOrder(lhs, rhs) { return true }
        if areInIncreasingOrder(rhs, lhs) { return false }
        return keyOrder.precedes(lhsKey, rhsKey)
    }

    /// Drawn once per process: the fingerprint of a ``Storage/rebuiltAtLaunch`` view.
    static var launchToken: String { viewLaunchToken }
}

extension View: ViewDefinition {
    typealias Row = Item

    var isInMemory: Bool { storage == .inMemory }
    var populatesStoredItems: Bool { !startsEmpty }
    var parentName: String? { parent?.name }

    /// This filtered view made again over `parent`, the view it filters as registered now.
    func following(_ parent: View<Item>) -> View<Item>? {
        guard let own = self.parent, own.name == parent.name else { return nil }
        return parent.filtered(name, version: version, by: own.filter)
    }
    var primaryCollection: String { Item.collection }
    var collections: [String] { [Item.collection] }
    var reportsCollections: Bool { false }

    func follows(_ collection: String) -> Bool {
        collection == Item.collection
    }

    func forEachStored(
        in context: ExtensionContext, progress: (Int) -> Void, _ body: (Int64, String, Item) throws -> Void
    ) throws {
        try ExtensionItems<Item>.forEachStored(name: name, in: context, progress: progress, body)
    }

    func resolve(_ event: WriteEvent, in context: ExtensionContext) throws -> Item {
        try ExtensionItems<Item>.resolve(event, in: context)
    }

    func row(_ rowID: Int64, in context: ExtensionContext) throws -> (key: String, row: Item) {
        let statement = try context.sqlite.cachedStatement(FileLayout.selectRowByID)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        guard try statement.step() else {
            throw TroveError.viewRowWithoutItem(view: name, collections: [Item.collection])
        }
        let key = statement.string(at: 0)
        let item = try ExtensionItems<Item>.decode(
            key: key, data: statement.bytes(at: 1), metadata: statement.isNull(at: 2) ? nil : statement.bytes(at: 2))
        return (key, item)
    }
}

/// Drawn once per process (see ``View/Storage/rebuiltAtLaunch``): a constant, not mutable state.
let viewLaunchToken = UUID().uuidString
