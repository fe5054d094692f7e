/// The identity of one replica of a synced database: a device's store, or the server.
///
/// It breaks ties between two changes made at the same hybrid time (see ``HybridTimestamp``), so
/// two replicas must never share one: make it once, at random, when a replica first syncs, and
/// keep it with the replica's data.
public struct ReplicaID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The identity, as a number.
    public let rawValue: UInt64

    /// A replica identity from its number.
    ///
    /// - Parameter rawValue: The number, as ``rawValue`` gave it.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// A new identity, at random.
    ///
    /// - Returns: An identity that no other replica has, but with negligible probability.
    public static func random() -> ReplicaID {
        var generator = SystemRandomNumberGenerator()
        return ReplicaID(rawValue: generator.next())
    }

    /// Orders identities by their numbers: what breaks ties between timestamps.
    public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The identity in hexadecimal, 16 digits.
    public var description: String {
        let digits = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// When a change was made, on a hybrid logical clock: milliseconds of wall time, a counter for
/// changes within one millisecond (or while the wall clock lags behind a time already seen), and
/// the replica that made it.
///
/// Timestamps are totally ordered: by wall time, then counter, then replica. A replica's clock
/// (``HybridClock``) never gives one twice, and never one below a time it has seen from another
/// replica, so the later of two changes to one field is the same on every replica whatever the
/// order in which they arrive: that is what makes field-by-field merging converge.
public struct HybridTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970, as the clock saw them (at most ``maximumWallTime``).
    public let wallMilliseconds: UInt64
    /// Changes within the same wall time, from 0.
    public let counter: UInt32
    /// The replica that made the change.
    public let replica: ReplicaID

    /// The largest wall time a timestamp holds: 2^48 - 1 milliseconds, in the year 10889.
    public static let maximumWallTime: UInt64 = (1 << 48) - 1

    /// A timestamp from its parts.
    ///
    /// - Parameters:
    ///   - wallMilliseconds: Milliseconds since 1970, at most ``maximumWallTime``.
    ///   - counter: Changes within the same wall time.
    ///   - replica: The replica that made the change.
    public init(wallMilliseconds: UInt64, counter: UInt32, replica: ReplicaID) {
        self.wallMilliseconds = wallMilliseconds
        self.counter = counter
        self.replica = replica
    }

    /// Orders timestamps by wall time, then counter, then replica.
    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        (lhs.wallMilliseconds, lhs.counter, lhs.replica) < (rhs.wallMilliseconds, rhs.counter, rhs.replica)
    }

    /// The timestamp as `wall.counter@replica`, for logs and errors.
    public var description: String {
        "\(wallMilliseconds).\(counter)@\(replica)"
    }
}
