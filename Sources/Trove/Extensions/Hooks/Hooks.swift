/// Closures that run inside the write transaction before and after each write of the
/// collections they allow: YapDatabase's hooks extension.
///
/// Hooks are not persistent: they keep no table and leave nothing in the file. They run for the
/// writes of the `Database` they are added to, from every connection and place that writes,
/// typed or untyped, one item or many, with the transaction that writes, so that a hook can read
/// and write in it:
///
/// ```swift
/// let stamp = Hooks("stamp_edits", collections: ["notes"]) { event, tx in
///     guard event.moment == .after, event.change == .write, let key = event.key else { return }
///     try tx.setData(Data(key.utf8), forKey: key, in: "edited_notes")
/// }
/// database.addHooks(stamp)
/// ```
///
/// A hook that throws fails the whole transaction, as an extension does: the write throws the
/// error, and so does the commit if the caller goes on. A hook that writes to a collection it
/// allows is called again for that write: it must not write there without an end.
public struct Hooks: Sendable {
    /// The name of the hooks, unique among the hooks of a database.
    public let name: String
    /// The collections whose writes the hooks follow; `nil`: every collection.
    public let collections: Set<String>?
    /// Called before and after each write.
    let body: @Sendable (HookEvent, ReadWriteTransaction) throws -> Void

    /// Hooks named `name` that call `body` before and after each write of `collections`.
    ///
    /// - Parameters:
    ///   - name: The name of the hooks, unique among the hooks of a database: adding hooks of
    ///     the same name replaces them.
    ///   - collections: The collections whose writes the hooks follow; `nil` (the default): every
    ///     collection.
    ///   - body: Called with each event and the transaction that writes. What it throws fails
    ///     the transaction.
    public init(
        _ name: String, collections: Set<String>? = nil,
        _ body: @escaping @Sendable (HookEvent, ReadWriteTransaction) throws -> Void
    ) {
        self.name = name
        self.collections = collections
        self.body = body
    }

    /// Whether the hooks follow the writes of `collection`.
    func follows(_ collection: String) -> Bool {
        collections?.contains(collection) ?? true
    }
}

/// One write, as ``Hooks`` see it before or after it happens.
public struct HookEvent {
    /// Whether the event comes before the write or after it.
    public enum Moment: Sendable, Equatable {
        /// Before the write: the database is as it was.
        case before
        /// After the write, once the extensions followed it.
        case after
    }

    /// What the write does.
    public enum Change: Sendable, Equatable {
        /// An item is stored at a key (with its metadata), replacing what was there: after it,
        /// ``HookEvent/inserted`` tells whether the key was new.
        case write
        /// The data of a stored item is replaced, its metadata kept.
        case dataUpdate
        /// The metadata of a stored item is replaced.
        case metadataUpdate
        /// A stored item is marked changed without being changed.
        case touch
        /// A stored item is removed.
        case removal
        /// Every item of ``HookEvent/collection`` is removed (`nil`: of every collection).
        case removalOfAll
    }

    /// Before or after the write.
    public let moment: Moment
    /// What the write does.
    public let change: Change
    /// The collection written; `nil` for a removal of every collection.
    public let collection: String?
    /// The key written; `nil` for a removal of a whole collection.
    public let key: String?
    /// After a ``Change/write``, whether the key was new; otherwise `nil`.
    public let inserted: Bool?
    /// The item as the caller wrote it, when the write was typed (a ``Change/write``); `nil`
    /// otherwise.
    public let item: Any?

    init(
        _ moment: Moment, _ change: Change, collection: String?, key: String?, inserted: Bool? = nil,
        item: Any? = nil
    ) {
        self.moment = moment
        self.change = change
        self.collection = collection
        self.key = key
        self.inserted = inserted
        self.item = item
    }
}

// Explicit non-conformance to Sendable: an event holds the caller's item, of any type.
@available(*, unavailable)
extension HookEvent: Sendable {}

extension Database {
    /// Adds `hooks` to this database, replacing the hooks of the same name: every write
    /// transaction that begins afterwards, on any connection, calls them.
    ///
    /// - Parameter hooks: The hooks to add.
    public func addHooks(_ hooks: Hooks) {
        updateExtensions { $0.hooks[hooks.name] = hooks }
    }

    /// Removes the hooks named `name`.
    ///
    /// - Parameter name: The name of the hooks.
    /// - Returns: `true` when this database had such hooks.
    @discardableResult
    public func removeHooks(named name: String) -> Bool {
        updateExtensions { $0.hooks.removeValue(forKey: name) != nil }
    }
}

extension ConnectionCore {
    /// Calls `hooks` with `event`, in the transaction that writes. What a hook throws fails the
    /// transaction.
    func call(_ hooks: [Hooks], _ event: HookEvent) throws {
        guard !hooks.isEmpty else { return }
        let transaction = ReadWriteTransaction(core: self)
        defer { transaction.invalidate() }
        for hook in hooks {
            do {
                try hook.body(event, transaction)
            } catch {
                var troveError =
                    error as? TroveError
                    ?? TroveError(
                        code: .extensionFailed, message: "The hooks '\(hook.name)' failed: \(error).",
                        underlyingError: error)
                if troveError.extensionName == nil { troveError.extensionName = hook.name }
                if transactionFailure == nil { transactionFailure = troveError }
                throw troveError
            }
        }
    }
}
