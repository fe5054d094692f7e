import Trove

/// What a sync server keeps, as values: the merged versions of every synced item, a log of the
/// changes it accepted (numbered; what replicas pull after a cursor), and, per replica, the last
/// change of its outbox it applied (so that a push sent again after a lost answer is applied once).
///
/// The PostgreSQL server keeps the same state in tables and follows these rules; this type is the
/// rules, and the model the server's tests compare it with.
public struct SyncServerState: Sendable {
    /// One accepted change, as the log keeps it and a pull returns it.
    public struct LoggedChange: Sendable, Hashable {
        /// Its number in the log, from 1: a pull's cursor is the last number it returned.
        public var sequence: Int64
        /// The item changed.
        public var address: ItemAddress
        /// What changed, as the replica pushed it.
        public var changes: ItemVersions
    }

    /// The merged versions of every item the server received, by address.
    public private(set) var items: [ItemAddress: ItemVersions] = [:]
    /// The accepted changes, in order.
    public private(set) var log: [LoggedChange] = []
    /// The last outbox number applied, per replica.
    public private(set) var applied: [ReplicaID: Int64] = [:]

    /// A server that has received nothing.
    public init() {}

    /// Applies the changes a replica pushed, in its outbox's order: each change numbered after the
    /// last one applied from that replica is merged into the item's versions and logged; the
    /// others (sent again after a lost answer) are skipped.
    ///
    /// - Parameters:
    ///   - changes: The replica's pending changes, oldest first.
    ///   - replica: The replica that pushed them.
    /// - Returns: The outbox number the replica may acknowledge through: the last applied.
    @discardableResult
    public mutating func push(_ changes: [PendingChange], from replica: ReplicaID) -> Int64 {
        var last = applied[replica] ?? 0
        for change in changes where change.sequence > last {
            let address = ItemAddress(collection: change.collection, key: change.key)
            items[address, default: ItemVersions()].merge(change.changes)
            log.append(LoggedChange(sequence: Int64(log.count + 1), address: address, changes: change.changes))
            last = change.sequence
        }
        applied[replica] = last
        return last
    }

    /// The changes logged after `cursor`, oldest first, at most `limit`.
    ///
    /// - Parameters:
    ///   - cursor: The last log number the replica merged (0 for none).
    ///   - limit: The most changes to return.
    /// - Returns: The changes; the last one's number is the replica's next cursor.
    public func pull(after cursor: Int64, limit: Int) -> [LoggedChange] {
        let start = Int(min(max(0, cursor), Int64(log.count)))
        return Array(log[start..<min(log.count, start + max(0, limit))])
    }
}
