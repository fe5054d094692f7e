/// What an engine does for one running observation (``AsyncDatabaseObservation``): register its
/// state with what tells it of commits, and run its closure recording what it reads.
///
/// The run loop, the coalescing, the matching of commits against the recorded region and the
/// rule for commits that arrive while the closure runs are Trove's, written once
/// (`ObservationRun`, `ObservationState`, `ReadRegion`); an engine supplies only these hooks, from
/// ``AsyncDatabaseObserving/makeObservationEngine(_:)``. Its members are `package`: only the
/// engines of this package make one.
@_spi(TroveEngine)
public struct ObservationEngine<Value: Sendable>: Sendable {
    /// Registers a running observation's state, which the engine then tells of every commit
    /// (``ObservationState/receive(_:touched:)``) in commit order; returns its identifier.
    package var addObserver: @Sendable (ObservationState) -> UInt64
    /// Unregisters the observation of an identifier: it has ended.
    package var removeObserver: @Sendable (UInt64) -> Void
    /// Makes the observation receive every commit: its closure is about to run.
    package var unindexObserver: @Sendable (UInt64) -> Void
    /// Lets the engine hand the observation only the commits that may touch `region`, which its
    /// closure just recorded (an engine may keep handing it every commit).
    package var indexObserver: @Sendable (UInt64, ReadRegion) -> Void
    /// Runs the closure in a read transaction, recording its region: the value, the region, and
    /// the number of the latest commit the transaction's snapshot is known to include (in the
    /// numbering of the changesets handed to ``addObserver``'s states).
    package var read: @Sendable () async throws -> (Value, ReadRegion, UInt64)

    /// An engine from its hooks.
    package init(
        addObserver: @escaping @Sendable (ObservationState) -> UInt64,
        removeObserver: @escaping @Sendable (UInt64) -> Void,
        unindexObserver: @escaping @Sendable (UInt64) -> Void = { _ in },
        indexObserver: @escaping @Sendable (UInt64, ReadRegion) -> Void = { _, _ in },
        read: @escaping @Sendable () async throws -> (Value, ReadRegion, UInt64)
    ) {
        self.addObserver = addObserver
        self.removeObserver = removeObserver
        self.unindexObserver = unindexObserver
        self.indexObserver = indexObserver
        self.read = read
    }
}
