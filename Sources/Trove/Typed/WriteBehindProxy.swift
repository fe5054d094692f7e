import Dispatch
import Synchronization

/// Values of one model read and written in memory, and written back to the database in batches:
/// YapDatabase's connection proxy, for settings and other values that change often and may lose
/// their last moments.
///
/// A write to the proxy returns at once: the value is in memory, read back by
/// ``value(forKey:)``, and written to the database with the other pending values, in one write
/// transaction, `delay` after the first of them (or at ``flush()``). Reads of keys that nothing
/// pending holds go to the database.
///
/// ```swift
/// let settings = WriteBehindProxy<Setting>(database: database, delay: .milliseconds(500))
/// settings.write(Setting(id: "volume", value: 7))        // returns at once
/// let volume = try settings.value(forKey: "volume")       // 7, from memory
/// try settings.flush()                                    // before the app is suspended
/// ```
///
/// - Important: **Durability.** A value written to the proxy is durable once the batch that
///   holds it commits: about `delay` after the first write of the batch (later on a busy
///   machine, or when a batch is being written as it comes), or when ``flush()`` returns. A crash
///   or a kill before that loses it, and every value of its batch; a batch is never half-written.
///   A batch that fails stays pending, is tried again `delay` later, and its error is
///   ``lastError``. A proxy that is released writes back what it holds first.
///   Writes made through the database directly, not through the proxy, are not seen by the proxy
///   for the keys it holds pending, and the proxy's batch overwrites them.
public final class WriteBehindProxy<Item: Persistable>: Sendable {
    /// The database the values are written back to.
    public let database: Database
    /// How long after the first pending write the batch is written.
    public let delay: Duration

    private struct State {
        /// The values not written back yet, by key; `nil` for a removal.
        var pending: [Item.ID: Item?] = [:]
        /// The batch being written back, read until it commits.
        var inFlight: [Item.ID: Item?] = [:]
        /// Whether a write-back is scheduled.
        var isScheduled = false
        /// The error of the last write-back that failed, if the values are still pending.
        var lastError: TroveError?
    }

    private let state = Mutex(State())
    /// The queue the batches are written back on: not Swift's cooperative threads, which a
    /// synchronous write would block.
    private let queue = DispatchQueue(label: "Trove.WriteBehindProxy")
    /// Held while a batch is written, so that batches commit in the order of their writes.
    private let writing = Mutex(())

    /// A proxy of the values of `Item` in `database`, written back `delay` after the first
    /// pending write.
    ///
    /// - Parameters:
    ///   - database: The database the values are read from and written back to.
    ///   - delay: How long after the first pending write the batch is written; the longer, the
    ///     fewer transactions and the more a crash can lose.
    public init(database: Database, delay: Duration = .milliseconds(250)) {
        self.database = database
        self.delay = delay
    }

    /// The value at `key`: the pending one, else the database's.
    ///
    /// - Parameter key: The key of the value.
    /// - Returns: The value, or `nil` when there is none (or its removal is pending).
    /// - Throws: ``TroveError`` when the database cannot read it.
    public func value(forKey key: Item.ID) throws -> Item? {
        if let pending = state.withLock({ $0.pending[key] ?? $0.inFlight[key] }) {
            return pending
        }
        return try database.read(Item.self, key: key)
    }

    /// Writes `item` in memory, to be written back with the next batch.
    ///
    /// - Parameter item: The value to write.
    public func write(_ item: Item) {
        enqueue(item.id, item)
    }

    /// Removes the value at `key` in memory, to be removed from the database with the next batch.
    ///
    /// - Parameter key: The key of the value.
    public func remove(key: Item.ID) {
        enqueue(key, nil)
    }

    /// The number of values not written back yet, those of a batch being written included.
    public var pendingCount: Int {
        state.withLock { $0.pending.count + $0.inFlight.count }
    }

    /// The error of the last write-back that failed, whose values are still pending (the next
    /// batch tries them again), or `nil`.
    public var lastError: TroveError? {
        state.withLock { $0.lastError }
    }

    /// Writes every pending value back now, in one write transaction, and returns once it
    /// committed.
    ///
    /// - Throws: ``TroveError`` when the transaction fails; the values stay pending.
    public func flush() throws {
        try writing.withLock { _ in
            let batch = state.withLock { state in
                state.inFlight = state.pending
                state.pending.removeAll()
                return state.inFlight
            }
            guard !batch.isEmpty else { return }
            do {
                try database.write { tx in
                    for (key, item) in batch {
                        if let item {
                            try tx.write(item)
                        } else {
                            _ = try tx.remove(Item.self, key: key)
                        }
                    }
                }
                state.withLock { state in
                    state.inFlight.removeAll()
                    state.lastError = nil
                }
            } catch {
                let troveError =
                    error as? TroveError
                    ?? TroveError(
                        code: .misuse, message: "Writing back the proxy's values failed: \(error).",
                        collection: Item.collection, underlyingError: error)
                state.withLock { state in
                    // What was written to the proxy since stays newer than the failed batch.
                    state.pending.merge(batch) { newer, _ in newer }
                    state.inFlight.removeAll()
                    state.lastError = troveError
                }
                throw troveError
            }
        }
    }

    private func enqueue(_ key: Item.ID, _ item: Item?) {
        state.withLock { $0.pending[key] = .some(item) }
        scheduleWriteBack()
    }

    /// Schedules a write-back `delay` from now, unless one is scheduled or nothing is pending.
    /// The work holds the proxy weakly: once the proxy goes, it does nothing.
    private func scheduleWriteBack() {
        let schedule = state.withLock { state in
            guard !state.isScheduled, !state.pending.isEmpty else { return false }
            state.isScheduled = true
            return true
        }
        guard schedule else { return }
        let (seconds, attoseconds) = delay.components
        let nanoseconds = max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            guard let self else { return }
            state.withLock { $0.isScheduled = false }
            // A failure stays in `lastError`, its values pending.
            try? flush()
            // Values that came while the batch was written, or a batch that failed: another one.
            scheduleWriteBack()
        }
    }

    /// Writes back what is pending, as ``flush()`` does (an error is dropped: nothing is left to
    /// hold the values).
    deinit {
        try? flush()
    }
}
