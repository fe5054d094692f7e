/// The values of a read, following the commits of any engine: see
/// ``AsyncDatabaseObserving/observe(_:)``.
///
/// It has the semantics of ``DatabaseObservation``, and the same run loop: it yields the value
/// now, then re-runs the closure only after a commit that touched what it read; commits made while
/// the consumer is busy coalesce into one value read from the latest snapshot; cancelling the
/// iterating task ends it; an error of the closure ends it with that error.
///
/// The sequence is `Sendable`: it holds only the place's way of starting an observation. Each
/// call to ``makeAsyncIterator()`` starts an observation of its own; an iterator belongs to the
/// loop that made it.
public struct AsyncDatabaseObservation<Value: Sendable>: AsyncSequence, Sendable {
    /// The element: the value that the closure returned.
    public typealias Element = Value
    /// The error: the closure's, or a ``TroveError`` when reading fails.
    public typealias Failure = any Error

    let makeEngine: @Sendable () -> ObservationEngine<Value>
    let isDuplicate: (@Sendable (Value, Value) -> Bool)?

    /// The same observation, skipping a value that `areDuplicates` says is equivalent to the
    /// value yielded before it.
    ///
    /// - Parameter areDuplicates: Whether two consecutive values are equivalent.
    /// - Returns: The observation without consecutive duplicates.
    public func removingDuplicates(by areDuplicates: @escaping @Sendable (Value, Value) -> Bool) -> Self {
        AsyncDatabaseObservation(makeEngine: makeEngine, isDuplicate: areDuplicates)
    }

    /// The iterator: one running observation, of the type every engine's observation shares.
    public typealias Iterator = ObservationIterator<Value>

    /// Starts an observation.
    ///
    /// - Returns: An iterator that yields the value now, then after each relevant commit.
    public func makeAsyncIterator() -> Iterator {
        ObservationIterator(run: ObservationRun(engine: makeEngine(), isDuplicate: isDuplicate))
    }
}

extension AsyncDatabaseObservation where Value: Equatable {
    /// The same observation, skipping a value equal to the value yielded before it.
    ///
    /// - Returns: The observation without consecutive equal values.
    public func removingDuplicates() -> Self {
        removingDuplicates(by: ==)
    }
}
