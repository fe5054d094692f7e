import Foundation

/// A read transaction: one consistent snapshot of the database, valid only inside the closure
/// of the `read` of a ``DatabaseReader`` that received it.
///
/// The untyped layer reads stored bytes by collection and key; the typed layer
/// (``read(_:key:)``, ``readAll(_:)``) decodes ``Persistable`` items and keeps them in the
/// connection's cache.
///
/// A read transaction has no method that writes: writing takes the ``ReadWriteTransaction`` of
/// the `write` of a ``DatabaseWriter``, so a write inside a read does not compile.
///
/// ```swift
/// try connection.read { tx in
///     try tx.write(user)  // error: value of type 'ReadTransaction' has no member 'write'
/// }
/// ```
///
/// A transaction is not `Sendable` either: handing it to a `Thread`, a dispatch queue or a
/// `Task` does not compile, so it cannot be used at the same time as its closure.
///
/// - Important: A transaction must not escape its closure. Using it afterwards stops the
///   program with a message.
public class ReadTransaction {
    let core: ConnectionCore
    /// Whether the transaction's closure is still running; a cursor checks it before each use.
    private(set) var isValid = true
    /// Records what this transaction reads, for an observation (see ``Database/observe(_:)``);
    /// `nil` in every transaction that no observation runs, so that a read pays one `nil` check.
    var recorder: ReadRecorder?

    init(core: ConnectionCore) {
        self.core = core
    }

    func invalidate() {
        isValid = false
    }

    /// The connection state, checked to be used only inside the transaction's closure.
    var checkedCore: ConnectionCore {
        precondition(
            isValid,
            "Trove: a transaction was used after its closure returned. Transactions must not escape the closure of read or write."
        )
        return core
    }

    // MARK: Untyped reads

    /// The stored data of the item at `key` in `collection`.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: The stored bytes, or `nil` when there is no such item.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func data(forKey key: String, in collection: String) throws -> Data? {
        try withRow(FileLayout.selectData, key: key, collection: collection) { $0.data(at: 0) }
    }

    /// The stored metadata of the item at `key` in `collection`.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: The stored metadata bytes, or `nil` when there is no such item or it has no
    ///   metadata.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func metadata(forKey key: String, in collection: String) throws -> Data? {
        try withRow(FileLayout.selectMetadata, key: key, collection: collection) { row in
            row.isNull(at: 0) ? nil : row.data(at: 0)
        } ?? nil
    }

    /// The stored data and metadata of the item at `key` in `collection`, read in one statement.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: The stored bytes and metadata bytes, or `nil` when there is no such item.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func dataAndMetadata(forKey key: String, in collection: String) throws -> (data: Data, metadata: Data?)? {
        try withRow(FileLayout.selectItem, key: key, collection: collection) { row in
            (row.data(at: 0), row.isNull(at: 1) ? nil : row.data(at: 1))
        }
    }

    /// Whether an item is stored at `key` in `collection`.
    ///
    /// - Parameters:
    ///   - key: The key of the item.
    ///   - collection: The collection of the item.
    /// - Returns: `true` when the item exists.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func hasItem(forKey key: String, in collection: String) throws -> Bool {
        try withRow(FileLayout.selectExists, key: key, collection: collection) { _ in true } ?? false
    }

    /// The names of every collection that holds at least one item, sorted.
    ///
    /// - Returns: The collection names.
    /// - Throws: ``TroveError`` when SQLite fails.
    /// - Complexity: O(n) in the number of items.
    public func collections() throws -> [String] {
        recorder?.recordEverything()
        let statement = try checkedCore.sqlite.cachedStatement(FileLayout.selectCollections)
        defer { statement.reset() }
        var result: [String] = []
        while try statement.step() {
            result.append(statement.string(at: 0))
        }
        return result
    }

    /// The keys of every item of `collection`, sorted.
    ///
    /// - Parameter collection: The collection.
    /// - Returns: The keys.
    /// - Throws: ``TroveError`` when SQLite fails.
    /// - Complexity: O(n) in the number of items of the collection.
    public func keys(in collection: String) throws -> [String] {
        var result: [String] = []
        try enumerateKeys(in: collection) { key, _ in result.append(key) }
        return result
    }

    /// Calls `body` with each key of `collection`, in sorted order, until it sets `stop`.
    ///
    /// Keys are read a page at a time, with no statement in the middle of a scan while `body`
    /// runs: `body` may read, and in a read-write transaction write (see
    /// <doc:Enumeration>).
    ///
    /// - Parameters:
    ///   - collection: The collection.
    ///   - body: Called with each key; set its second argument to `true` to stop.
    /// - Throws: The error of `body`, or ``TroveError`` when SQLite fails.
    public func enumerateKeys(in collection: String, _ body: (String, inout Bool) throws -> Void) throws {
        let pager = RowPager(transaction: self, collection: collection, columns: .keys, filter: nil)
        var stop = false
        while !stop, let row = try pager.nextRow() {
            try body(pager.key(ofRow: row), &stop)
        }
    }

    /// The number of items in `collection`.
    ///
    /// - Parameter collection: The collection.
    /// - Returns: The number of items.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func count(in collection: String) throws -> Int {
        recorder?.recordCollection(collection)
        let statement = try checkedCore.sqlite.cachedStatement(FileLayout.countInCollection)
        defer { statement.reset() }
        try statement.bind(collection, at: 1)
        _ = try statement.step()
        return Int(statement.int64(at: 0))
    }

    /// The number of items in every collection.
    ///
    /// - Returns: The number of items.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func count() throws -> Int {
        recorder?.recordEverything()
        let statement = try checkedCore.sqlite.cachedStatement(FileLayout.countAll)
        defer { statement.reset() }
        _ = try statement.step()
        return Int(statement.int64(at: 0))
    }

    /// Runs a cached statement bound to (collection, key), and maps its first row.
    func withRow<T>(
        _ sql: String, key: String, collection: String, _ map: (Statement) throws -> T
    ) throws -> T? {
        recorder?.recordKey(key, in: collection)
        let statement = try checkedCore.sqlite.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(collection, at: 1)
        try statement.bind(key, at: 2)
        guard try statement.step(collection: collection, key: key) else { return nil }
        return try map(statement)
    }
}

// Explicit non-conformance to Sendable: a transaction is valid only inside its closure, on the
// thread that runs it.
@available(*, unavailable)
extension ReadTransaction: Sendable {}
