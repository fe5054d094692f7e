/// A transaction of a ``Database``'s own pool of connections that is running or waiting for a
/// connection, as listed by ``Database/transactionsInProgress``.
///
/// It says what the transaction is, where it was started and since when, so that a transaction
/// that holds a connection too long (a slow query, a body that waits on something) can be found:
///
/// ```swift
/// for activity in database.transactionsInProgress where activity.age > .seconds(1) {
///     logger.warning("\(activity)")
/// }
/// ```
public struct TransactionActivity: Sendable, Hashable, CustomStringConvertible {
    /// The kind of a transaction.
    public enum Kind: String, Sendable, Hashable {
        /// A read transaction, run by one of the database's readers.
        case read
        /// A read-write transaction, run by the database's writer.
        case write
    }

    /// Whether a transaction runs or waits for a connection.
    public enum State: String, Sendable, Hashable {
        /// The transaction waits for a free connection (every reader is busy, or the writer is).
        case waiting
        /// The transaction runs on a connection.
        case running
    }

    /// The kind of the transaction.
    public var kind: Kind
    /// Whether it runs or waits.
    public var state: State
    /// The label given to `Database.read(label:fileID:line:_:)` or
    /// `Database.write(label:fileID:line:_:)`, or `nil`.
    public var label: String?
    /// The file that started the transaction (`#fileID` of the call).
    public var fileID: String
    /// The line that started the transaction (`#line` of the call).
    public var line: Int
    /// When the transaction began to wait (``State/waiting``) or to run (``State/running``).
    public var since: ContinuousClock.Instant

    /// How long the transaction has waited or run so far.
    public var age: Duration {
        ContinuousClock.now - since
    }

    /// A one-line description: kind, state, label, origin and age, for logs.
    ///
    /// For example `write running "import" (App/Importer.swift:42) for 12.5 seconds`.
    public var description: String {
        let name = label.map { " \"\($0)\"" } ?? ""
        let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
        let rounded = (seconds * 1000).rounded() / 1000
        return "\(kind.rawValue) \(state.rawValue)\(name) (\(fileID):\(line)) for \(rounded) seconds"
    }
}
