import Synchronization

/// The extensions of one ``Database``: those it registered, and the orphans it found in the file
/// (registered there by an earlier run or another process, not by this instance).
struct ExtensionRegistry {
    /// The extensions this instance maintains, by name.
    var registered: [String: DatabaseExtension] = [:]
    /// Extensions in the file that this instance does not maintain: name → collection. Every
    /// transaction of this instance that writes to its collection marks it stale in the file
    /// (a no-op once it is), also after another process rebuilt it.
    var orphans: [String: String] = [:]
    /// Registered extensions that the file says are stale, or of another version: another
    /// process wrote around them or rebuilt them. Queries on them throw; the next write
    /// transaction of this instance rebuilds them.
    var stale: Set<String> = []
    /// The hooks this instance calls around writes, by name (see ``Hooks``): not in the file.
    var hooks: [String: Hooks] = [:]

    func watchers(of collection: String) -> CollectionWatchers {
        CollectionWatchers(
            extensions: ExtensionRegistry.inWriteOrder(registered.values.filter { $0.implementation.follows(collection) }),
            orphans: orphans.filter { $0.value == collection }.map(\.key).sorted(),
            hooks: hooks.values.filter { $0.follows(collection) }.sorted { $0.name < $1.name })
    }

    /// `definitions` in the order in which they follow a write and are built: by name, those
    /// that read other extensions (``ExtensionImplementation/dependencies``) after the others,
    /// so that what they read is up to date (a search results view after its full-text search).
    static func inWriteOrder(_ definitions: some Sequence<DatabaseExtension>) -> [DatabaseExtension] {
        definitions.sorted { lhs, rhs in
            let lhsDepends = !lhs.implementation.dependencies.isEmpty
            let rhsDepends = !rhs.implementation.dependencies.isEmpty
            return lhsDepends != rhsDepends ? rhsDepends : lhs.name < rhs.name
        }
    }
}

extension Database {
    /// Who follows `collection` (see ``ConnectionCore/watchers(of:)``).
    func watchers(of collection: String) -> CollectionWatchers {
        extensions.withLock { $0.watchers(of: collection) }
    }

    /// Every registered extension, every orphan, and every hooks (a removal of everything removes
    /// the collections of each).
    func allWatchers() -> (extensions: [DatabaseExtension], orphans: [String], hooks: [Hooks]) {
        extensions.withLock { registry in
            (
                registry.registered.keys.sorted().compactMap { registry.registered[$0] }, registry.orphans.keys.sorted(),
                registry.hooks.values.sorted { $0.name < $1.name }
            )
        }
    }

    /// Changes the registry and makes every connection resolve who follows a collection again.
    func updateExtensions<T>(_ body: (inout ExtensionRegistry) throws -> T) rethrows -> T {
        try extensions.withLock { registry in
            let result = try body(&registry)
            extensionGeneration.add(1, ordering: .releasing)
            return result
        }
    }

    /// Called after a commit that rebuilt stale extensions.
    func committed(rebuilt: [String]) {
        updateExtensions { registry in
            for name in rebuilt { registry.stale.remove(name) }
        }
    }

    /// Reads the extensions of the file at open: all are orphans until registered.
    static func loadOrphans(_ connection: SQLiteConnection) throws -> [String: String] {
        let statement = try connection.makeStatement(FileLayout.selectExtensions)
        var orphans: [String: String] = [:]
        while try statement.step() {
            orphans[statement.string(at: 0)] = statement.string(at: 1)
        }
        return orphans
    }

    /// Reads again which extensions of the file this instance does not maintain, inside a write
    /// transaction: another process may have registered or removed one since this instance
    /// opened, and every write of this instance to an orphan's collection must mark it stale.
    /// If the transaction fails before it commits, nothing is lost: the orphans are what the
    /// file held.
    func reloadOrphans(_ sqlite: SQLiteConnection) throws {
        let statement = try sqlite.cachedStatement(FileLayout.selectExtensions)
        defer { statement.reset() }
        var inFile: [String: String] = [:]
        while try statement.step() {
            inFile[statement.string(at: 0)] = statement.string(at: 1)
        }
        let changed = extensions.withLock { registry in
            let orphans = inFile.filter { registry.registered[$0.key] == nil }
            return orphans != registry.orphans
        }
        guard changed else { return }
        updateExtensions { registry in
            registry.orphans = inFile.filter { registry.registered[$0.key] == nil }
        }
    }

    /// Compares the file's extensions with the registered ones, after another process committed:
    /// an extension it left stale, rebuilt to another definition or removed is stale here.
    func checkExtensionStates(_ sqlite: SQLiteConnection) throws {
        let registered = extensions.withLock { $0.registered }
        guard !registered.isEmpty else { return }
        let statement = try sqlite.cachedStatement(FileLayout.selectExtensionStates)
        defer { statement.reset() }
        var inStep: Set<String> = []
        while try statement.step() {
            let name = statement.string(at: 0)
            guard let definition = registered[name] else { continue }
            if statement.int64(at: 1) == Int64(definition.version)
                && statement.string(at: 2) == definition.implementation.fingerprint
                && statement.string(at: 3) == "ready"
            {
                inStep.insert(name)
            }
        }
        let stale = Set(registered.keys).subtracting(inStep)
        if !stale.isEmpty {
            updateExtensions { $0.stale.formUnion(stale) }
        }
    }

    /// Throws unless `name` is registered with `fingerprint` and in step with the items.
    func checkQueryable(_ name: String, fingerprint: String) throws {
        try extensions.withLock { registry in
            guard let registered = registry.registered[name],
                registered.implementation.fingerprint == fingerprint
            else {
                throw TroveError.notRegistered(extension: name)
            }
            guard !registry.stale.contains(name) else {
                throw TroveError(
                    code: .extensionFailed,
                    message:
                        "The extension '\(name)' is stale: another process wrote to its collection without maintaining it, or registered another version. The next write transaction of this database rebuilds it.",
                    extensionName: name)
            }
        }
    }
}

extension TroveError {
    /// The extension `name` is not registered with the definition a query names.
    static func notRegistered(extension name: String) -> TroveError {
        TroveError(
            code: .extensionFailed,
            message:
                "The extension '\(name)' is not registered with this definition on this database: register it (Database(path:extensions:) or register(_:)) before querying it.",
            extensionName: name)
    }
}
