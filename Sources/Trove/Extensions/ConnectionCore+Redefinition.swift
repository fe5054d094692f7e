import Synchronization

/// Defining a registered extension anew inside a write transaction (a view whose grouping or
/// sort changes, see ``ReadWriteTransaction/redefine(_:)``): the transaction uses the new
/// definition from then on, its commit installs it in the database's registry, and a rollback
/// leaves the registry as it was.
extension ConnectionCore {
    /// The extension registered as `name` for the current transaction: the one it defined anew,
    /// or the database's.
    func registeredExtension(named name: String) -> DatabaseExtension? {
        redefinedExtensions[name] ?? database.extensions.withLock { $0.registered[name] }
    }

    /// Throws unless `name` is registered with `fingerprint` for the current transaction (see
    /// ``Database/checkQueryable(_:fingerprint:)``).
    func checkQueryable(_ name: String, fingerprint: String) throws {
        if let redefined = redefinedExtensions[name] {
            guard redefined.implementation.fingerprint == fingerprint else {
                throw TroveError.notRegistered(extension: name)
            }
            return
        }
        try database.checkQueryable(name, fingerprint: fingerprint)
    }

    /// Makes `definition` the registered extension of its name in the current transaction:
    /// `replace` brings the extension's data from the registered definition to the new one
    /// (a failure fails the transaction's commit), then the file's registry row is written, and
    /// the registered extensions made from it (filtered views) are rebuilt over it, as
    /// ``Database/register(_:)-(DatabaseExtension)`` does.
    func redefine(_ definition: DatabaseExtension, replace: (ExtensionContext) throws -> Void) throws {
        do {
            try replace(ExtensionContext(core: self, extension: definition))
            try recordInRegistry(definition)
        } catch {
            var troveError =
                error as? TroveError
                ?? TroveError(
                    code: .extensionFailed, message: "The extension '\(definition.name)' failed: \(error).",
                    underlyingError: error)
            if troveError.extensionName == nil { troveError.extensionName = definition.name }
            if transactionFailure == nil { transactionFailure = troveError }
            throw troveError
        }
        redefinedExtensions[definition.name] = definition
        watcherCache.removeAll()
        var current = database.extensions.withLock { $0.registered }.merging(redefinedExtensions) { $1 }
        for name in Database.descendants(of: [definition.name], in: current) {
            guard let follower = current[name], let parentName = follower.implementation.parentName,
                let parent = current[parentName],
                let implementation = follower.implementation.following(parent.implementation)
            else { continue }
            let rebuilt = DatabaseExtension(name: name, version: follower.version, implementation: implementation)
            // What the transaction kept of the old one is gone with its tables.
            extensionStates[name] = nil
            do {
                _ = try register(rebuilt, progress: { _ in })
            } catch let error as TroveError {
                if transactionFailure == nil { transactionFailure = error }
                throw error
            }
            current[name] = rebuilt
            redefinedExtensions[name] = rebuilt
        }
    }

    /// Installs the extensions the transaction defined anew in the database's registry, under
    /// the writer lock, right before the commit (as registration does): no write can come
    /// between the commit and the moment writes reach the new definitions.
    func installRedefinitions() {
        guard !redefinedExtensions.isEmpty else { return }
        let redefined = redefinedExtensions
        registryBeforeRedefinitions = database.updateExtensions { registry in
            let before = registry
            for (name, definition) in redefined {
                registry.registered[name] = definition
                registry.stale.remove(name)
            }
            return before
        }
    }

    /// Puts back the registry as it was before ``installRedefinitions()``, when the commit fails.
    func undoRedefinitions() {
        guard let before = registryBeforeRedefinitions else { return }
        registryBeforeRedefinitions = nil
        database.updateExtensions { $0 = before }
    }
}
