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
    /// The conflicts this client settled, oldest first (the last 100): unique values, and the
    /// concurrent changes of models with a ``SyncPolicy``.
    public var conflicts: [SyncConflict] = []

    /// A state before anything ran.
    public init() {}

    /// Adds settled conflicts, keeping the last 100.
    mutating func record(_ settled: [SyncConflict]) {
        conflicts.append(contentsOf: settled)
        if conflicts.count > 100 { conflicts.removeFirst(conflicts.count - 100) }
    }
}

/// A conflict between this replica's changes and other replicas', and how the client settled it,
/// as ``SyncState/conflicts`` reports them.
public struct SyncConflict: Sendable, Hashable {
    /// How a conflict was settled.
    public enum Settlement: Sendable, Hashable {
        /// Two items that a unique index forbids together, made on different replicas while
        /// offline: the item at ``SyncConflict/key`` (whose key sorts first) keeps the value, and
        /// the item at `removedKey` is removed, as a local removal that reaches every replica.
        /// Every replica that meets the two items removes the same one, so they converge, and no
        /// two items keep one unique value.
        case uniqueValue(index: String, removedKey: String)
        /// Settled by ``SyncPolicy/keepBoth(_:copy:)``: the item took the remote version, and the
        /// local version was stored as a new item at `copyKey`.
        case keptBoth(copyKey: String)
        /// Settled by ``SyncPolicy/merge(_:_:)``: the item took the merge's result.
        case merged
    }

    /// The collection of the item.
    public var collection: String
    /// The key of the item.
    public var key: String
    /// How it was settled.
    public var settlement: Settlement

    /// A conflict's description.
    ///
    /// - Parameters:
    ///   - collection: The collection of the item.
    ///   - key: The key of the item (for a unique value, the item that kept it).
    ///   - settlement: How it was settled.
    public init(collection: String, key: String, settlement: Settlement) {
        self.collection = collection
        self.key = key
        self.settlement = settlement
    }
}
