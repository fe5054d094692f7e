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

    /// Runs once the transaction committed, before readers of this process can see the commit:
    /// `snapshot` is the commit's number and `writerToken` the writer token it left in the file
    /// (an in-memory view publishes its new version under them). It cannot fail.
    func didCommit(name: String, snapshot: UInt64, writerToken: UInt64, database: Database)
}

extension ExtensionTransactionState {
    /// Most extensions keep everything in the file: nothing to do.
    func didCommit(name: String, snapshot: UInt64, writerToken: UInt64, database: Database) {}
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

    /// Runs the did-commit step of every extension that keeps transaction state, in name order.
    func runDidCommit(snapshot: UInt64) {
        for name in extensionStates.keys.sorted() {
            extensionStates[name]?.didCommit(
                name: name, snapshot: snapshot, writerToken: fileWriterToken, database: database)
        }
    }
}
