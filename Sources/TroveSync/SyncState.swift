import Foundation
import Trove

/// What a sync client is doing, what is left to send, and how its last exchange went: what an app
/// shows ("3 changes waiting", "synced 2 minutes ago", "offline"). ``TroveSync/states`` sends one
/// whenever it changes.
public struct SyncState: Sendable {
    /// What the client is doing.
    public enum Activity: Sendable, Hashable {
        /// Not running: before ``TroveSync/run()`` and after it returns.
        case stopped
        /// Sending local changes.
        case pushing
        /// Fetching and merging the server's changes.
        case pulling
        /// Up to date, waiting for a local commit or for the server's next change.
        case idle
        /// The last exchange failed (``TroveSync/SyncState/lastError``): waiting to try again.
        case waitingToRetry
    }

    /// What the client is doing.
    public var activity: Activity = .stopped
    /// The local changes not yet acknowledged by the server, as the client last counted them:
    /// when it was made, and at each push (``TroveSync/run()`` pushes at every local commit). For
    /// the count now, outside `run()`, read ``SyncLedger/pendingCount(in:)``.
    public var pendingChanges = 0
    /// When the replica was last up to date both ways: nothing left to send, nothing left to pull.
    public var lastSynced: Date?
    /// The error of the last exchange, until one succeeds.
    public var lastError: TroveError?
    /// The changes the server acknowledged since the client was made.
    public var pushedChanges = 0
    /// The changes pulled and merged since the client was made.
    public var pulledChanges = 0
    /// The last change of the server's log merged here.
    public var cursor: Int64 = 0
    /// The conflicts of unique values this client settled, oldest first (the last 100).
    public var conflicts: [SyncConflict] = []

    /// A state before anything ran.
    public init() {}
}

/// Two items that a unique index forbids together, made on different replicas while offline, and
/// how the client settled them: the item whose key sorts first keeps the value, and the other is
/// removed, as a local removal that reaches every replica. Every replica that meets the two items
/// removes the same one, so they converge, and no two items keep one unique value.
public struct SyncConflict: Sendable, Hashable {
    /// The collection of the two items.
    public var collection: String
    /// The unique index that forbids them together.
    public var index: String
    /// The item kept.
    public var keptKey: String
    /// The item removed.
    public var removedKey: String

    /// A conflict's description.
    ///
    /// - Parameters:
    ///   - collection: The collection of the two items.
    ///   - index: The unique index that forbids them together.
    ///   - keptKey: The item kept.
    ///   - removedKey: The item removed.
    public init(collection: String, index: String, keptKey: String, removedKey: String) {
        self.collection = collection
        self.index = index
        self.keptKey = keptKey
        self.removedKey = removedKey
    }
}
