/// The part of an extension that lives for one read-write transaction: state the extension
/// gathers while it follows the transaction's writes (a view keeps its pages as they were before
/// the transaction, to report row changes; a counter sums the changes and writes the total
/// once), and the steps that run when the transaction commits or rolls back.
///
/// An extension makes its state on the first write it follows, with
/// ``ExtensionContext/transactionState(_:)``, which keeps it until the transaction ends:
///
/// ```swift
/// final class PendingTotal: ExtensionTransactionState {
///     var delta = 0
///
///     func willCommit(name: String, in context: ExtensionContext) throws {
///         try context.execute("UPDATE trove_ext_\(name) SET total = total + ?", [.integer(Int64(delta))])
///     }
/// }
///
/// // in apply(_:name:in:)
/// context.transactionState { PendingTotal() }.delta += 1
/// ```
public protocol ExtensionTransactionState: AnyObject {
    /// Runs before the transaction commits, after its last write: the extension can still write
    /// its tables, add its part to the commit's changeset, or throw to fail the commit (the
    /// transaction is then rolled back, and the commit throws the error).
    func willCommit(name: String, in context: ExtensionContext) throws

    /// Runs once the transaction committed, before readers of this process can see the commit.
    /// It cannot fail: the commit is in the file. Nothing by default.
    func didCommit(name: String, commit: ExtensionCommit)

    /// Runs once the transaction rolled back (it threw, a write or a will-commit step failed, or
    /// the commit failed): nothing the transaction wrote is in the file. Nothing by default.
    func didRollback(name: String)
}

extension ExtensionTransactionState {
    /// Nothing to do before the commit.
    public func willCommit(name: String, in context: ExtensionContext) throws {}

    /// Nothing to do after the commit.
    public func didCommit(name: String, commit: ExtensionCommit) {}

    /// Nothing to do after a rollback.
    public func didRollback(name: String) {}
}

/// A commit, as an extension's ``ExtensionTransactionState/didCommit(name:commit:)`` learns it.
public struct ExtensionCommit {
    /// The commit's number: the ``Changeset/snapshot`` of its changeset, and the number of the
    /// snapshot that first includes it. A transaction that changed nothing has the number of the
    /// latest commit.
    public let snapshot: UInt64
    /// The writer token the commit left in the file (an in-memory view publishes its new version
    /// under it).
    let writerToken: UInt64
    /// The database of the commit.
    unowned(unsafe) let database: Database
}

// Explicit non-conformance to Sendable: it holds the database without a reference count.
@available(*, unavailable)
extension ExtensionCommit: Sendable {}

extension ConnectionCore {
    /// Runs the will-commit step of every extension that keeps transaction state, in name order.
    func runWillCommit() throws {
        for name in extensionStates.keys.sorted() {
            guard let state = extensionStates[name] else { continue }
            do {
                try state.willCommit(name: name, in: context(forStateOf: name))
            } catch {
                var troveError =
                    error as? TroveError
                    ?? TroveError(
                        code: .extensionFailed, message: "The extension '\(name)' failed before the commit: \(error).",
                        underlyingError: error)
                if troveError.extensionName == nil { troveError.extensionName = name }
                throw troveError
            }
        }
    }

    /// Runs the did-commit step of every extension that keeps transaction state, in name order.
    func runDidCommit(snapshot: UInt64) {
        guard !extensionStates.isEmpty else { return }
        let commit = ExtensionCommit(snapshot: snapshot, writerToken: fileWriterToken, database: database)
        for name in extensionStates.keys.sorted() {
            extensionStates[name]?.didCommit(name: name, commit: commit)
        }
    }

    /// Runs the did-rollback step of every extension that keeps transaction state, in name order.
    func runDidRollback() {
        guard !extensionStates.isEmpty else { return }
        for name in extensionStates.keys.sorted() {
            extensionStates[name]?.didRollback(name: name)
        }
    }

    /// The context of the extension `name`, whose transaction state runs a step.
    private func context(forStateOf name: String) -> ExtensionContext {
        ExtensionContext(core: self, name: name, implementation: extensionStateImplementations[name])
    }
}
