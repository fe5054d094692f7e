import Trove

/// A replica's hybrid logical clock: it stamps the replica's changes (``tick(wallMilliseconds:)``)
/// and keeps up with the times of changes received from others
/// (``receive(_:wallMilliseconds:)``).
///
/// Every timestamp it gives is above every timestamp it gave or received before, and close to
/// the wall clock: the wall time of a stamp is the largest of the wall clock and the times seen,
/// and the counter orders changes within one millisecond. A received time too far ahead of this
/// replica's wall clock (more than ``maximumDrift``) is refused, so that one replica with a wrong
/// clock cannot drag every other clock into the future.
///
/// The clock is a value: the replica keeps it with its data and saves it with each change it
/// stamps, so that a replica that restarts never stamps below what it stamped before (see
/// ``init(replica:after:)``).
public struct HybridClock: Sendable, Hashable {
    /// The replica whose changes the clock stamps.
    public let replica: ReplicaID
    /// The largest timestamp given or received so far, or `nil` before the first.
    public private(set) var latest: HybridTimestamp?

    /// How far ahead of this replica's wall clock a received time may be: 5 minutes.
    public static let maximumDrift: UInt64 = 5 * 60 * 1_000

    /// A clock for `replica` that has seen nothing yet, or that starts after `latest` (the largest
    /// timestamp the replica stored, when it restarts).
    ///
    /// - Parameters:
    ///   - replica: The replica whose changes the clock stamps.
    ///   - latest: The largest timestamp given or received before, or `nil`.
    public init(replica: ReplicaID, after latest: HybridTimestamp? = nil) {
        self.replica = replica
        self.latest = latest
    }

    /// The timestamp of a change made now on this replica.
    ///
    /// - Parameter wallMilliseconds: The wall clock, in milliseconds since 1970.
    /// - Returns: A timestamp above every one given or received before.
    /// - Throws: ``/Trove/TroveError`` with code ``/Trove/TroveError/Code/overflow`` when the wall time passes
    ///   ``HybridTimestamp/maximumWallTime``.
    public mutating func tick(wallMilliseconds: UInt64) throws -> HybridTimestamp {
        let next: HybridTimestamp
        if let seen = latest, seen.wallMilliseconds >= wallMilliseconds {
            // The wall clock has not passed the latest time: count within it.
            if seen.counter == UInt32.max {
                next = try HybridTimestamp(
                    wallMilliseconds: Self.checked(seen.wallMilliseconds + 1), counter: 0, replica: replica)
            } else {
                next = HybridTimestamp(wallMilliseconds: seen.wallMilliseconds, counter: seen.counter + 1, replica: replica)
            }
        } else {
            next = try HybridTimestamp(wallMilliseconds: Self.checked(wallMilliseconds), counter: 0, replica: replica)
        }
        latest = next
        return next
    }

    /// Takes in the timestamp of a change received from another replica, so that the changes this
    /// replica makes next come after it.
    ///
    /// - Parameters:
    ///   - remote: The timestamp received.
    ///   - wallMilliseconds: The wall clock, in milliseconds since 1970.
    /// - Throws: ``/Trove/TroveError`` with code ``/Trove/TroveError/Code/corruptData`` when `remote` is more
    ///   than ``maximumDrift`` ahead of the wall clock (the other replica's clock is wrong), and
    ///   ``/Trove/TroveError/Code/overflow`` when the wall time passes the largest a timestamp holds.
    public mutating func receive(_ remote: HybridTimestamp, wallMilliseconds: UInt64) throws {
        guard remote.wallMilliseconds <= wallMilliseconds &+ Self.maximumDrift else {
            throw TroveError(
                code: .corruptData,
                message:
                    "A change stamped \(remote) came from a replica whose clock is \((remote.wallMilliseconds - wallMilliseconds) / 1_000) seconds ahead of this one's: its clock is wrong. Changes more than \(Self.maximumDrift / 1_000) seconds ahead are refused.")
        }
        if latest.map({ $0 < remote }) ?? true {
            latest = remote
        }
    }

    private static func checked(_ wallMilliseconds: UInt64) throws -> UInt64 {
        guard wallMilliseconds <= HybridTimestamp.maximumWallTime else {
            throw TroveError(
                code: .overflow,
                message:
                    "The wall time \(wallMilliseconds) ms is past the largest a sync timestamp holds (\(HybridTimestamp.maximumWallTime) ms): the clock is wrong.")
        }
        return wallMilliseconds
    }
}
