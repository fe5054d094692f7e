/// Where in the code a transaction was started, and the label it was given: what
/// ``Database/transactionsInProgress`` and the report of a long transaction show.
public struct TransactionOrigin: Sendable, Hashable {
    /// The label given to the transaction, if any.
    public var label: String?
    /// The file where the transaction was started (`#fileID`).
    public var fileID: String
    /// The line where the transaction was started.
    public var line: Int

    /// Creates an origin; the default arguments name the caller's place.
    ///
    /// - Parameters:
    ///   - label: A label for the transaction.
    ///   - fileID: The file where the transaction is started.
    ///   - line: The line where the transaction is started.
    @inlinable
    public init(label: String? = nil, fileID: String = #fileID, line: Int = #line) {
        self.label = label
        self.fileID = fileID
        self.line = line
    }
}
