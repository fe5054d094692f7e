/// The tables of a registered extension, read in the snapshot of one transaction: what an
/// extension of your own builds its queries on (YapDatabase's per-transaction part of an
/// extension).
///
/// ```swift
/// extension NoteCounter {
///     func total(in transaction: ReadTransaction) throws -> Int {
///         var total = 0
///         try transaction.extensionTables(named: "note_count").select("SELECT total FROM trove_ext_note_count") { row in
///             total = Int(row.int64(at: 0))
///         }
///         return total
///     }
/// }
/// ```
///
/// Its statements may only read, and only the extension's own tables
/// (``ExtensionImplementation/tableNames(name:)``): anything else is refused with a
/// ``TroveError`` of code ``TroveError/Code/misuse``. An observation that reads them
/// (``Database/observe(_:)``) runs again after every commit that writes the extension's collection.
public struct ExtensionTables {
    let transaction: ReadTransaction
    let name: String
    let implementation: any ExtensionImplementation

    /// Runs a query on the extension's tables, in the transaction's snapshot, and calls `row` with
    /// each row of its result, in order.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement that reads, with `?` (or `?N`) placeholders for `arguments`.
    ///   - arguments: The values bound to the placeholders, in order.
    ///   - row: Called with each row; the row is valid only during the call.
    /// - Throws: ``TroveError`` (``TroveError/Code/misuse``) when the statement writes or reads
    ///   another table; ``TroveError`` when SQLite fails; what `row` throws.
    public func select(_ sql: String, _ arguments: [IndexValue] = [], _ row: (ExtensionRow) throws -> Void) throws {
        try ExtensionStatements.run(
            sql, arguments, extension: name, implementation: implementation, readOnly: true,
            in: transaction.checkedCore, row: row)
    }

    /// The extension's cache in the connection that runs the transaction: the object `make` made
    /// on the first call in this connection, kept, and told of every commit the connection's
    /// transactions come to see (see ``ExtensionConnectionCache``).
    ///
    /// - Parameter make: Makes the cache, on the first call in the connection.
    /// - Returns: The cache.
    public func connectionCache<Cache: ExtensionConnectionCache>(_ make: () -> Cache) -> Cache {
        let core = transaction.checkedCore
        if let cache = core.extensionCaches[name] as? Cache {
            return cache
        }
        let cache = make()
        core.extensionCaches[name] = cache
        return cache
    }
}

// Explicit non-conformance to Sendable: the tables are read in one transaction.
@available(*, unavailable)
extension ExtensionTables: Sendable {}

/// What an extension keeps in one connection between transactions (YapDatabase's per-connection
/// part of an extension), such as totals it read, made by ``ExtensionTables/connectionCache(_:)``.
///
/// The connection tells it of every commit that its next transaction sees, its own and those of
/// the other connections of the process, before the transaction reads anything; and asks it to
/// forget everything when it cannot tell what changed (another process wrote the file, a
/// rollback, ``Connection/flushCaches()``).
public protocol ExtensionConnectionCache: AnyObject {
    /// Forgets what `changeset` made out of date (``Changeset/changedExtensions`` lists the
    /// extension when it was rebuilt or removed; ``Changeset/extensionNotes`` has what it recorded).
    func apply(_ changeset: Changeset)
    /// Forgets everything.
    func removeAll()
}

extension ReadTransaction {
    /// The tables of the extension `name`, to read in this transaction's snapshot (see
    /// ``ExtensionTables``).
    ///
    /// - Parameter name: The name of a registered extension.
    /// - Returns: Its tables.
    /// - Throws: ``TroveError`` (``TroveError/Code/extensionFailed``) when no extension of that name
    ///   is registered on this database, or it is stale (another process wrote its collection
    ///   without maintaining it: the next write transaction rebuilds it).
    public func extensionTables(named name: String) throws -> ExtensionTables {
        let core = checkedCore
        guard let definition = core.registeredExtension(named: name) else {
            throw TroveError.notRegistered(extension: name)
        }
        let implementation = definition.implementation
        recorder?.recordIndex(name, of: implementation.collection)
        try core.checkQueryable(name, fingerprint: implementation.fingerprint)
        return ExtensionTables(transaction: self, name: name, implementation: implementation)
    }
}
