/// The part of an extension that lives for one read-write transaction: state the extension
/// gathers while it follows the transaction's writes (a view keeps the pages as they were before
/// the transaction, to report row changes), and a step that runs when the transaction commits.
///
/// An extension creates its state on the first write it follows and keeps it in
/// ``ConnectionCore/extensionStates`` under its name. The state is dropped when the transaction
/// commits or rolls back.
protocol ExtensionTransactionState: AnyObject {
    /// Runs before the transaction commits, after its last write: the extension can still write
    /// its tables, add its part to the commit's changeset, or throw to fail the commit (the
    /// transaction is then rolled back and the error thrown by the commit).
    func willCommit(name: String, in context: ExtensionContext) throws
}

extension ConnectionCore {
    /// Runs the will-commit step of every extension that keeps transaction state, in name order.
    func runWillCommit() throws {
        for name in extensionStates.keys.sorted() {
            guard let state = extensionStates[name] else { continue }
            do {
                try state.willCommit(name: name, in: ExtensionContext(core: self))
            } catch var error as TroveError {
                if error.extensionName == nil { error.extensionName = name }
                throw error
            }
        }
    }
}
