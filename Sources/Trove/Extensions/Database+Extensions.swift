import Dispatch
import Synchronization

extension Database {
    /// Registers `extension` on the fly: creates and fills it, rebuilds it when the file holds
    /// another version or definition, or does nothing when the file holds it already.
    ///
    /// Prefer registering at open (``init(path:configuration:models:extensions:)``). Registration is
    /// one write transaction: it waits for the current writer, readers go on meanwhile, and a
    /// process killed while it runs leaves no half-built extension.
    ///
    /// ```swift
    /// try database.register(usersByAge.databaseExtension)
    /// ```
    ///
    /// - Parameter extension: The extension.
    /// - Returns: What registering did.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/extensionFailed`` when the extension
    ///   cannot be registered, or ``TroveError/Code/uniqueViolation`` when the items break a unique
    ///   index; nothing is registered then. An item whose bytes do not decode does not fail the
    ///   registration: it is left out and listed (see ``UnreadableItem``).
    /// - Complexity: O(1) when unchanged; O(n) in the items of its collection otherwise.
    @discardableResult
    public func register(_ extension: DatabaseExtension) throws -> ExtensionRegistration {
        try register([`extension`])[0]
    }

    /// Registers several extensions in one transaction (see ``register(_:)-(DatabaseExtension)``).
    ///
    /// - Parameter extensions: The extensions, with distinct names.
    /// - Returns: What registering did, for each extension in order.
    /// - Throws: What ``register(_:)-(DatabaseExtension)`` throws; nothing is registered then.
    @discardableResult
    public func register(_ extensions: [DatabaseExtension]) throws -> [ExtensionRegistration] {
        try register(extensions, progress: { _, _ in })
    }

    /// Registers `extension` off the caller's thread, reporting how many items of its
    /// collection it has filled the extension with, while reads go on.
    ///
    /// ```swift
    /// try await database.register(usersByAge.databaseExtension) { done in
    ///     print("indexed \(done) users")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - extension: The extension.
    ///   - progress: Called from time to time, on the registering thread, with the number of
    ///     items done so far.
    /// - Returns: What registering did.
    /// - Throws: What ``register(_:)-(DatabaseExtension)`` throws.
    @discardableResult
    public func register(
        _ extension: DatabaseExtension, progress: @escaping @Sendable (Int) -> Void
    ) async throws -> ExtensionRegistration {
        let definition = `extension`
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try self.register([definition], progress: { _, done in progress(done) })[0] })
            }
        }
    }

    /// Removes the extension `name`: drops its tables and its row in the file. Works for an
    /// orphan too (an extension in the file that no one registers any more). The registered
    /// extensions made from it (the filtered views of a view, and theirs) are removed with it.
    ///
    /// - Parameter name: The name of the extension.
    /// - Returns: `true` when the file had such an extension.
    /// - Throws: ``TroveError`` when SQLite fails.
    @discardableResult
    public func unregister(_ name: String) throws -> Bool {
        let names = [name] + extensions.withLock { Self.descendants(of: [name], in: $0.registered) }
        let removed = try newConnection().changeExtensions { core in
            var removed = false
            for (offset, name) in names.enumerated() {
                let dropped = try core.unregister(name)
                if offset == 0 { removed = dropped }
            }
            let registry = updateExtensions { registry in
                let before = registry
                for name in names {
                    registry.registered.removeValue(forKey: name)
                    registry.orphans.removeValue(forKey: name)
                    registry.stale.remove(name)
                }
                return before
            }
            return (removed, { self.updateExtensions { $0 = registry } })
        }
        // An in-memory view's versions go once the commit succeeded.
        for name in names { viewVersions.remove(name) }
        return removed
    }

    /// The names of the extensions of `registered` made from one of `names` or reading one (see
    /// ``ExtensionImplementation/parentName`` and ``ExtensionImplementation/dependencies``), or
    /// made from or reading one of those, and so on, parents first.
    static func descendants(of names: [String], in registered: [String: DatabaseExtension]) -> [String] {
        var found: [String] = []
        var seen = Set(names)
        var parents = names
        while !parents.isEmpty {
            let children = registered.values
                .filter { definition in
                    let implementation = definition.implementation
                    return ((implementation.parentName.map(parents.contains) ?? false)
                        || implementation.dependencies.contains { parents.contains($0.name) })
                        && !seen.contains(definition.name)
                }
                .map(\.name).sorted()
            seen.formUnion(children)
            found += children
            parents = children
        }
        return found
    }

    /// The names of the extensions this database maintains, sorted.
    public var registeredExtensions: [String] {
        extensions.withLock { $0.registered.keys.sorted() }
    }

    /// The names of the extensions in the file that this database does not maintain, sorted
    /// (see ``DatabaseExtension``).
    public var orphanedExtensions: [String] {
        extensions.withLock { $0.orphans.keys.sorted() }
    }

    private func register(
        _ extensions: [DatabaseExtension], progress: @escaping (String, Int) -> Void
    ) throws -> [ExtensionRegistration] {
        var names: Set<String> = []
        for definition in extensions where !names.insert(definition.name).inserted {
            throw TroveError(
                code: .extensionFailed, message: "Two extensions are named '\(definition.name)'.",
                extensionName: definition.name)
        }
        let batch = Dictionary(uniqueKeysWithValues: extensions.map { ($0.name, $0) })
        return try newConnection().changeExtensions { core in
            let registered = self.extensions.withLock { $0.registered }
            // Each extension made from another (a filtered view) is made again over its parent as
            // it is registered now: in this batch, or already.
            var resolved: [String: DatabaseExtension] = [:]
            var resolving: Set<String> = []
            func resolve(_ definition: DatabaseExtension) throws -> DatabaseExtension {
                if let done = resolved[definition.name] { return done }
                guard resolving.insert(definition.name).inserted else {
                    throw TroveError(
                        code: .extensionFailed,
                        message:
                            "The extension '\(definition.name)' is made from itself through the extensions it is made from (filtered views of each other): register views whose parents lead to a view of their own.",
                        extensionName: definition.name)
                }
                var result = definition
                if let parentName = definition.implementation.parentName, parentName != definition.name,
                    let parent = try batch[parentName].map(resolve) ?? registered[parentName],
                    let implementation = definition.implementation.following(parent.implementation)
                {
                    result = DatabaseExtension(
                        name: definition.name, version: definition.version, implementation: implementation)
                }
                resolved[definition.name] = result
                return result
            }
            let definitions = try extensions.map(resolve)
            try Self.checkDependencies(of: definitions, batch: resolved, registered: registered)
            // Those that read others are built after them (a search results view fills from its
            // full-text search's table).
            var results: [String: ExtensionRegistration] = [:]
            for definition in ExtensionRegistry.inWriteOrder(definitions) {
                results[definition.name] = try core.register(
                    definition, progress: { progress(definition.name, $0) })
            }
            // The registered extensions made from these follow them: rebuilt over the new
            // definitions when those changed, parents first.
            var followers: [DatabaseExtension] = []
            var current = registered.merging(resolved) { $1 }
            for name in Self.descendants(of: definitions.map(\.name), in: registered) where batch[name] == nil {
                guard let follower = current[name], let parentName = follower.implementation.parentName,
                    let parent = current[parentName],
                    let implementation = follower.implementation.following(parent.implementation)
                else { continue }
                let rebuilt = DatabaseExtension(name: name, version: follower.version, implementation: implementation)
                _ = try core.register(rebuilt, progress: { progress(name, $0) })
                current[name] = rebuilt
                followers.append(rebuilt)
            }
            // Installed before the commit, under the writer lock: no write can come between the
            // commit and the moment writes start reaching the extensions.
            let registry = updateExtensions { registry in
                let before = registry
                for definition in definitions + followers {
                    registry.registered[definition.name] = definition
                    registry.orphans.removeValue(forKey: definition.name)
                    registry.stale.remove(definition.name)
                }
                return before
            }
            return (definitions.map { results[$0.name]! }, { self.updateExtensions { $0 = registry } })
        }
    }

    /// Throws unless every extension that `definitions` read (see
    /// ``ExtensionImplementation/dependencies``) is in `batch` or `registered`, with the
    /// definition it expects.
    private static func checkDependencies(
        of definitions: [DatabaseExtension], batch: [String: DatabaseExtension],
        registered: [String: DatabaseExtension]
    ) throws {
        for definition in definitions {
            for dependency in definition.implementation.dependencies {
                guard let found = batch[dependency.name] ?? registered[dependency.name] else {
                    throw TroveError(
                        code: .extensionFailed,
                        message:
                            "The extension '\(definition.name)' reads \(dependency.description), which is not registered: register it before, or in the same call.",
                        extensionName: definition.name)
                }
                guard found.implementation.fingerprint == dependency.fingerprint else {
                    throw TroveError(
                        code: .extensionFailed,
                        message:
                            "The extension '\(definition.name)' reads \(dependency.description), but the extension registered under that name has another definition: make both from the same definition.",
                        extensionName: definition.name)
                }
            }
        }
    }
}

extension Connection {
    /// Runs `body` in a write transaction and commits it; `body` returns its result and what
    /// undoes its change of the database's registry if the commit fails.
    func changeExtensions<T>(_ body: (ConnectionCore) throws -> (T, () -> Void)) throws -> T {
        try withWriteTransaction { core in
            try body(core)
        }
    }
}
