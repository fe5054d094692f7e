import Synchronization

/// Registering, rebuilding and removing extensions, inside a write transaction of the
/// connection (see ``Database/register(_:)-(DatabaseExtension)``).
extension ConnectionCore {
    /// Registers `definition`: creates and fills its tables, or rebuilds them when the file holds
    /// another version or definition, or a stale copy; does nothing when the file holds the same,
    /// in step with the items.
    func register(_ definition: DatabaseExtension, progress: (Int) -> Void) throws -> ExtensionRegistration {
        try DatabaseExtension.validate(name: definition.name)
        let implementation = definition.implementation
        try DatabaseExtension.validateTables(of: implementation, name: definition.name)
        let stored = try storedExtension(named: definition.name)
        if let stored, stored.kind == implementation.kind, stored.version == definition.version,
            stored.fingerprint == implementation.fingerprint, stored.collection == implementation.collection,
            stored.state == "ready", implementation.isBuilt(name: definition.name, in: ExtensionContext(core: self, extension: definition))
        {
            try implementation.recover(name: definition.name, in: ExtensionContext(core: self, extension: definition))
            return .unchanged
        }
        try build(definition, replacing: stored, progress: progress)
        try implementation.recover(name: definition.name, in: ExtensionContext(core: self, extension: definition))
        return stored == nil ? .created : .rebuilt
    }

    /// Drops the tables of the extension `name` and its row in the file.
    ///
    /// - Returns: `true` when the file had such an extension.
    func unregister(_ name: String) throws -> Bool {
        guard let stored = try storedExtension(named: name) else { return false }
        try dropTables(stored.tables)
        extensionStatements.removeAll()
        try UnreadableItems.forget(extensionName: name, in: sqlite)
        let statement = try sqlite.cachedStatement(FileLayout.deleteExtension)
        defer { statement.reset() }
        try statement.bind(name, at: 1)
        try statement.stepToEnd()
        changes.recordExtensionChange(name)
        return true
    }

    /// Rebuilds the registered extensions that another process left stale (see
    /// ``ExtensionRegistry/stale``), at the start of a write transaction.
    func rebuildStaleExtensions() throws {
        guard database.extensionGeneration.load(ordering: .relaxed) != 0 else { return }
        if database.snapshotPins.isInUse {
            // In-memory views that another writer's commit left behind are rebuilt too.
            let behind = database.viewVersions.namesBehind(fileWriterToken: fileWriterToken)
            if !behind.isEmpty {
                database.updateExtensions { registry in
                    registry.stale.formUnion(behind.filter { registry.registered[$0] != nil })
                }
            }
        }
        let stale: [DatabaseExtension] = database.extensions.withLock { registry in
            ExtensionRegistry.inWriteOrder(registry.stale.compactMap { registry.registered[$0] })
        }
        for definition in stale {
            let stored = try storedExtension(named: definition.name)
            try build(definition, replacing: stored, progress: { _ in })
            extensionsRebuilt.append(definition.name)
        }
    }

    /// Builds `definition` from the items, in place of what the file holds as `stored`: drops
    /// its tables but those that the implementation keeps from an extension of the same kind and
    /// collection (`tablesKeptByRebuild(name:storedFingerprint:)`), creates and fills them.
    private func build(_ definition: DatabaseExtension, replacing stored: StoredExtension?, progress: (Int) -> Void)
        throws
    {
        let implementation = definition.implementation
        var kept: Set<String> = []
        if let stored, stored.kind == implementation.kind, stored.collection == implementation.collection {
            kept = Set(
                implementation.tablesKeptByRebuild(name: definition.name, storedFingerprint: stored.fingerprint)
            ).intersection(stored.tables)
        }
        let tables = (stored?.tables ?? []) + implementation.tableNames(name: definition.name)
        try dropTables(tables.filter { !kept.contains($0) })
        extensionStatements.removeAll()
        // What an earlier build left out is found again by this one.
        try UnreadableItems.forget(extensionName: definition.name, in: sqlite)
        let context = ExtensionContext(core: self, extension: definition)
        do {
            try implementation.create(name: definition.name, in: context)
            try implementation.populate(name: definition.name, in: context, progress: progress)
        } catch var error as TroveError {
            if error.extensionName == nil { error.extensionName = definition.name }
            throw error
        }
        try recordInRegistry(definition)
    }

    /// Writes the row of `definition` in the file's registry of extensions (its kind, version,
    /// fingerprint, collection and tables; ready), and records the change in the changeset.
    func recordInRegistry(_ definition: DatabaseExtension) throws {
        let implementation = definition.implementation
        let statement = try sqlite.cachedStatement(FileLayout.upsertExtension)
        defer { statement.reset() }
        try statement.bind(definition.name, at: 1)
        try statement.bind(implementation.kind, at: 2)
        try statement.bind(Int64(definition.version), at: 3)
        try statement.bind(implementation.fingerprint, at: 4)
        try statement.bind(implementation.collection, at: 5)
        try statement.bind(implementation.tableNames(name: definition.name).joined(separator: " "), at: 6)
        try statement.stepToEnd()
        changes.recordExtensionChange(definition.name)
    }

    /// Drops tables that an extension owns. Only names that Trove gives its extensions' tables
    /// are accepted, so that a damaged registry cannot drop anything else.
    private func dropTables(_ tables: [String]) throws {
        for table in Set(tables) where !table.isEmpty {
            guard table.hasPrefix("trove_ext_"), table.utf8.allSatisfy({ $0 != UInt8(ascii: "\"") }) else {
                throw TroveError(
                    code: .extensionFailed,
                    message: "The registry names a table that no extension can own: '\(table)'. It was left alone.")
            }
            try sqlite.execute("DROP TABLE IF EXISTS \"\(table)\"")
        }
    }

    private func storedExtension(named name: String) throws -> StoredExtension? {
        let statement = try sqlite.cachedStatement(FileLayout.selectExtension)
        defer { statement.reset() }
        try statement.bind(name, at: 1)
        guard try statement.step() else { return nil }
        return StoredExtension(
            kind: statement.string(at: 0), version: Int(statement.int64(at: 1)), fingerprint: statement.string(at: 2),
            collection: statement.string(at: 3),
            tables: statement.string(at: 4).split(separator: " ").map(String.init), state: statement.string(at: 5))
    }
}

/// An extension's row in the file's `trove_extensions` table.
private struct StoredExtension {
    var kind: String
    var version: Int
    var fingerprint: String
    var collection: String
    var tables: [String]
    var state: String
}
