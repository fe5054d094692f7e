/// The iterator of an observation (``DatabaseObservation`` on a Trove file,
/// ``AsyncDatabaseObservation`` on any engine): one running observation, which belongs to the
/// loop that made it.
public struct ObservationIterator<Value: Sendable>: AsyncIteratorProtocol {
    let run: ObservationRun<Value>

    /// The current value on the first call; then the value after the next commit that changed
    /// what the closure read (the latest value, when several commits happened since the previous
    /// call).
    ///
    /// - Returns: The value, or `nil` when the iterating task is cancelled.
    /// - Throws: The closure's error, or a ``TroveError`` when reading fails; the observation
    ///   ends then.
    public mutating func next() async throws -> Value? {
        try await run.next(isolation: nil)
    }

    /// The same as ``next()``, resuming on `actor`: a loop in a `@MainActor` context gets its
    /// values on the main actor.
    ///
    /// - Parameter actor: The actor of the iterating context.
    /// - Returns: The value, or `nil` when the iterating task is cancelled.
    /// - Throws: The closure's error, or a ``TroveError`` when reading fails.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Value? {
        try await run.next(isolation: actor)
    }

    /// Whether a commit touched what the closure read since its latest run began: the next call
    /// to `next()` runs it again (for tests, on every engine).
    package var isStale: Bool {
        run.isStale
    }
}

// Explicit non-conformance to Sendable: an iterator belongs to the loop that made it.
@available(*, unavailable)
extension ObservationIterator: Sendable {}
