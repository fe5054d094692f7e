import Foundation

/// A view over the items of several collections, whose closures see each stored row: its
/// collection, its key, and its item and metadata (as YapDatabase's views do).
///
/// ```swift
/// let timeline = MultiCollectionView(
///     "timeline", collections: [Note.collection, Todo.collection],
///     grouping: { row in
///         if let note = try row.item(as: Note.self) { return note.isArchived ? nil : "notes" }
///         if let todo = try row.item(as: Todo.self) { return todo.isDone ? "done" : "open" }
///         return nil
///     },
///     areInIncreasingOrder: { lhs, rhs in try lhs.date() < rhs.date() })
/// let database = try Database(path: path, extensions: [timeline.databaseExtension])
///
/// let latest = try connection.read { tx in
///     try timeline.read(tx).rows(in: "open", range: 0..<50)  // [ViewRowKey]: collection and key
/// }
/// ```
///
/// It is kept, stored and read as a ``View`` of one type is (see ``View`` for the costs), and
/// each commit's ``Changeset/viewChanges`` holds its ``ViewChanges``, whose row changes name the
/// collection of each row (``ViewRowChange/collection``): the keys of two collections may be
/// equal. Rows that compare equal in the sort are ordered by collection, then by the key's text
/// (the view does not know the key types of its collections). The removal
/// of one of its collections takes out that collection's rows only.
///
/// ``ViewMappings`` and ``Database/observe(_:mappings:)-(View<Item>,_)`` take a ``View`` of one type: a
/// multi-collection view is read with ``MultiCollectionViewReader`` and followed through its
/// ``ViewChanges``.
public struct MultiCollectionView: Sendable {
    /// Where a view keeps its pages (see ``View/Storage``).
    public enum Storage: Sendable, Hashable {
        /// The pages are kept in the file: a later open with the same definition does no work.
        case persistent
        /// The pages are rebuilt the first time each process registers the view.
        case rebuiltAtLaunch
        /// The pages live only in the memory of the process (see ``View/Storage/inMemory``).
        case inMemory
    }

    /// The name of the view, unique among the extensions of a file.
    public let name: String
    /// The version of the definition: a new version rebuilds the view.
    public let version: Int
    /// Whether the pages survive from one run to the next.
    public let storage: Storage
    /// The collections whose items the view holds, sorted, without duplicates.
    public let collections: [String]
    let filter: @Sendable (ViewRow) throws -> Bool
    let grouping: @Sendable (ViewRow) throws -> String?
    let areInIncreasingOrder: @Sendable (ViewRow, ViewRow) throws -> Bool
    let fingerprint: String
    let pages: ViewStorage

    /// Defines a view of the items of `collections`.
    ///
    /// - Parameters:
    ///   - name: The name of the view: 1 to 64 ASCII letters, digits and underscores.
    ///   - version: The version of the definition (default 1). Change it when a closure changes:
    ///     Trove cannot see inside closures.
    ///   - storage: Whether the pages survive from one run to the next (default: persistent).
    ///   - collections: The collections whose items the view holds (at least one).
    ///   - filter: Whether a row belongs to the view (default: every row).
    ///   - grouping: The group of a row, or `nil` to leave it out.
    ///   - areInIncreasingOrder: Whether the first row comes before the second in a group: a
    ///     strict weak ordering, as for `sorted(by:)`.
    ///
    /// The closures must be pure functions of the rows they see, and run inside write
    /// transactions; an error they throw fails the write transaction.
    public init(
        _ name: String, version: Int = 1, storage: Storage = .persistent, collections: [String],
        filter: @escaping @Sendable (ViewRow) throws -> Bool = { _ in true },
        grouping: @escaping @Sendable (ViewRow) throws -> String?,
        areInIncreasingOrder: @escaping @Sendable (ViewRow, ViewRow) throws -> Bool
    ) {
        self.name = name
        self.version = version
        self.storage = storage
        self.collections = Array(Set(collections)).sorted()
        self.filter = filter
        self.grouping = grouping
        self.areInIncreasingOrder = areInIncreasingOrder
        var fingerprint =
            "multi-collection view v1 \(self.collections.map { "\($0.utf8.count):\($0)" }.joined(separator: ",")) version \(version) pages \(ViewStorage.maximumPageSize)/\(ViewStorage.minimumPageSize)"
        switch storage {
        case .persistent: break
        case .rebuiltAtLaunch: fingerprint += " launch \(viewLaunchToken)"
        case .inMemory: fingerprint += " memory \(viewLaunchToken)"
        }
        self.fingerprint = fingerprint
        pages = ViewStorage(name: name)
    }

    /// The view as an extension to register (``Database/register(_:)-(DatabaseExtension)``).
    public var databaseExtension: DatabaseExtension {
        DatabaseExtension(name: name, version: version, implementation: ViewImplementation(view: self))
    }

    /// Reads the view in `transaction`, from its snapshot.
    ///
    /// - Parameter transaction: The transaction to read in.
    /// - Returns: The reader.
    public func read(_ transaction: ReadTransaction) -> MultiCollectionViewReader {
        MultiCollectionViewReader(view: self, transaction: transaction)
    }

    /// The SQL that reads a stored row with its collection.
    static let selectRowByID = "SELECT key, data, metadata, collection FROM trove_items WHERE rowid = ?1"
}

extension MultiCollectionView: ViewDefinition {
    typealias Row = ViewRow

    var isInMemory: Bool { storage == .inMemory }
    var populatesStoredItems: Bool { true }
    var parentName: String? { nil }
    func following(_ parent: MultiCollectionView) -> MultiCollectionView? { nil }
    var primaryCollection: String { collections.first ?? "" }
    var reportsCollections: Bool { true }

    func follows(_ collection: String) -> Bool {
        collections.contains(collection)
    }

    func forEachStored(
        in context: ExtensionContext, progress: (Int) -> Void, _ body: (Int64, String, ViewRow) throws -> Void
    ) throws {
        let statement = try context.sqlite.cachedStatement(FileLayout.selectRowsInCollection)
        var done = 0
        for collection in collections {
            defer { statement.reset() }
            try statement.bind(collection, at: 1)
            while try statement.step() {
                let key = statement.string(at: 1)
                let row = ViewRow(
                    collection: collection, key: key, data: Array(statement.bytes(at: 2)),
                    metadata: statement.isNull(at: 3) ? nil : Array(statement.bytes(at: 3)))
                try body(statement.int64(at: 0), key, row)
                done += 1
                if done % 1_000 == 0 { progress(done) }
            }
        }
        progress(done)
    }

    func resolve(_ event: WriteEvent, in context: ExtensionContext) throws -> ViewRow {
        if let data = event.data, event.carriesMetadata {
            return ViewRow(
                collection: event.collection, key: event.key, data: Array(data),
                metadata: event.metadata.map { Array($0) })
        }
        return try row(event.rowID, in: context).row
    }

    func row(_ rowID: Int64, in context: ExtensionContext) throws -> (key: String, row: ViewRow) {
        let statement = try context.sqlite.cachedStatement(Self.selectRowByID)
        defer { statement.reset() }
        try statement.bind(rowID, at: 1)
        guard try statement.step() else {
            throw TroveError.viewRowWithoutItem(view: name, collections: collections)
        }
        let key = statement.string(at: 0)
        let row = ViewRow(
            collection: statement.string(at: 3), key: key, data: Array(statement.bytes(at: 1)),
            metadata: statement.isNull(at: 2) ? nil : Array(statement.bytes(at: 2)))
        return (key, row)
    }

    func group(of row: ViewRow) throws -> String? {
        guard try filter(row) else { return nil }
        return try grouping(row)
    }

    func sortsBefore(_ lhs: ViewRow, key lhsKey: String, _ rhs: ViewRow, key rhsKey: String) throws -> Bool {
        if try areInIncreasingOrder(lhs, rhs) { return true }
        if try areInIncreasingOrder(rhs, lhs) { return false }
        return (lhs.collection, lhsKey) < (rhs.collection, rhsKey)
    }
}
