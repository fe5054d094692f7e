@_spi(TroveEngine) import Trove

/// A PostgreSQL store observes with its listener: every commit of every instance on the schema
/// reaches its ``PostgresChangeHub`` by `NOTIFY` (this instance's own commits too), in the order of
/// the change log, listing its items; each running observation matches it against the region its
/// closure recorded, by Trove's own rules. A flush (notifications may have been missed) makes
/// every observation run again.
extension PostgresStore: AsyncDatabaseObserving {
    /// The engine of an observation: registered with the store's change hub, each run a read
    /// transaction that records what it reads (``observedRead(_:)``).
    ///
    /// - Parameter body: The closure of the observation.
    /// - Returns: The engine of one running observation.
    @_spi(TroveEngine)
    public func makeObservationEngine<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresReadTransaction) async throws -> Value
    ) -> ObservationEngine<Value> {
        let hub = hub
        return ObservationEngine(
            addObserver: { state in hub.addObserver(state) },
            removeObserver: { id in hub.removeObserver(id) },
            read: { [self] in try await observedRead(body) })
    }

    /// Runs `body` in a read transaction, recording what it reads: one run of an observation.
    ///
    /// - Returns: The value, the region `body` read, and the change log's newest number in the
    ///   transaction's snapshot: every commit up to it is in the snapshot (numbers are taken in
    ///   commit order), none after it.
    /// - Throws: The error of `body`, or what ``read(from:_:)`` throws.
    func observedRead<T: Sendable>(
        _ body: @escaping @Sendable (PostgresReadTransaction) async throws -> T
    ) async throws -> (T, ReadRegion, UInt64) {
        try await read(from: TransactionOrigin(label: "observation")) { transaction in
            let recorder = ReadRecorder()
            transaction.recorder = recorder
            let value = try await body(transaction)
            // At REPEATABLE READ every statement sees the snapshot of the first: the number read
            // now is the one of the snapshot the body read.
            try await transaction.takeSnapshot()
            return (value, recorder.region, UInt64(max(0, transaction.snapshotNumber)))
        }
    }

    /// The number of observations running now (for tests).
    @_spi(Testing) public var runningObservationCount: Int {
        hub.observerCount
    }
}
