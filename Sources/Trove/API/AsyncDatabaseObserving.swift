/// A place whose engine can observe: it tells running observations of every commit, of this
/// instance and of the others on the same storage, so that ``observe(_:)`` re-runs a read only
/// when a commit touched what it read.
///
/// A SQLite ``Database`` and TrovePostgres's store conform. Code written against this protocol
/// observes on either engine:
///
/// ```swift
/// func watchUser(_ db: some AsyncDatabaseObserving, _ id: User.ID) async throws {
///     for try await user in db.observe({ tx in try await tx.read(User.self, key: id) }) {
///         show(user)
///     }
/// }
/// ```
///
/// On a Trove file, the commits of this `Database` are matched as they commit, and those of other
/// processes are noticed by polling the file (they may have changed anything). On PostgreSQL, the
/// commits of every instance on the schema arrive through the change log and `LISTEN`/`NOTIFY`, in
/// commit order, each listing the items it changed; when notifications may have been missed (the
/// listener's connection dropped), every observation runs again.
public protocol AsyncDatabaseObserving: AsyncDatabaseReader {
    /// The engine's side of one running observation of `body`: for the engines of this package
    /// only (``AsyncDatabaseObservation`` calls it when a loop starts).
    ///
    /// - Parameter body: The closure of the observation.
    /// - Returns: The hooks that register the observation and run `body` recording its region.
    @_spi(TroveEngine)
    func makeObservationEngine<Value: Sendable>(
        _ body: @escaping @Sendable (ReadingTransaction) async throws -> Value
    ) -> ObservationEngine<Value>
}

extension AsyncDatabaseObserving {
    /// Observes the value that `body` reads: an asynchronous sequence that yields it now, then
    /// again after each commit that changed something `body` read, and never after a commit that
    /// did not. Written once for every engine that can observe.
    ///
    /// ```swift
    /// for try await user in db.observe({ tx in try await tx.read(User.self, key: id) }) {
    ///     show(user)
    /// }
    /// ```
    ///
    /// What `body` reads is recorded while it runs, at the level of Trove's reads, the same on
    /// every engine: a key of a collection (point reads, `read(_:keys:)`, metadata, `contains`), a
    /// whole collection (`readAll`, `keys(of:)`, `count(of:)`, index queries, relationship
    /// traversals), or everything (the list of collections). The region is recorded again each
    /// time `body` runs.
    ///
    /// The rules are those of ``Database/observe(_:)``: each loop is an observation of its own,
    /// registered on its first call to `next()`; each run of `body` is a read transaction of its
    /// own; commits made while the consumer is busy coalesce into one value read from the latest
    /// snapshot (memory never grows with the number of commits); ending the loop or cancelling
    /// its task ends the observation; an error thrown by `body` ends the sequence with that error.
    ///
    /// On PostgreSQL, a commit reaches the observation through `NOTIFY`, this instance's own
    /// commits included, so a value follows a commit after the notification's delay, not at once
    /// (BENCHMARKS.md measures it).
    ///
    /// - Parameter body: Reads the value, in a read transaction. It must read through the
    ///   transaction only, and have no side effects: it runs once per relevant commit, or less.
    /// - Returns: The observation, to iterate.
    public func observe<Value: Sendable>(
        _ body: @escaping @Sendable (ReadingTransaction) async throws -> Value
    ) -> AsyncDatabaseObservation<Value> {
        AsyncDatabaseObservation(makeEngine: { makeObservationEngine(body) }, isDuplicate: nil)
    }
}
