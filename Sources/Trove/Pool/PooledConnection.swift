import Dispatch
import Synchronization

/// One connection of a ``Database``'s own pool: a SQLite handle with its caches, opened at its
/// first transaction, and the serial queue its `async` transactions run on.
///
/// Its ``ConnectionLane`` grants it to one transaction at a time; only that transaction touches
/// ``core``, on the thread that runs it.
final class PooledConnection: @unchecked Sendable {
    // @unchecked because `openedCore` is used only by the transaction that holds the connection:
    // the lane hands the connection from one transaction to the next under its NSLock (or, for a
    // synchronous waiter, under an NSCondition), which orders the accesses of successive holders.
    // Everything else is immutable, atomic, or Sendable.

    /// The position of the connection in its lane.
    let index: Int
    /// The queue the `async` transactions of this connection run on.
    let queue: DispatchQueue
    /// The executor of `queue`, which the bodies of `async` transactions prefer.
    let executor: QueueExecutor
    /// The thread that runs a transaction on this connection now, 0 when none: a synchronous
    /// transaction started on that thread from inside this one would wait for itself.
    let ownerThread = Atomic<UInt>(0)
    private var openedCore: ConnectionCore?

    init(index: Int, label: String) {
        self.index = index
        self.queue = DispatchQueue(label: label)
        self.executor = QueueExecutor(queue: queue)
    }

    /// The connection's state, opening the SQLite handle on first use. Only for the holder.
    func core(_ database: Database) throws -> ConnectionCore {
        if let openedCore { return openedCore }
        let core = ConnectionCore(sqlite: try database.openConnectionHandle(), database: database, ownedByDatabase: true)
        openedCore = core
        return core
    }

    /// Closes the SQLite handle. Only when no transaction can run any more.
    func close() {
        openedCore = nil
    }

    /// Whether the SQLite handle is open (for tests).
    var isOpen: Bool { openedCore != nil }
}
