import Synchronization

/// The snapshots that the read transactions of one ``Database`` read at, while state kept in
/// memory by commit number is in use (an in-memory view keeps one version of its pages per
/// commit).
///
/// Once ``activate()`` was called, a read transaction learns the exact number of its snapshot:
/// it begins only when no commit is under way and none completed while it began (see
/// ``ConnectionCore/beginRead()``), and pins that number here before SQLite takes the snapshot,
/// until the transaction ends. What keeps versions by commit drops a version as soon as a newer
/// one exists and no pinned snapshot reads it.
final class SnapshotPins: Sendable {
    private let pins = Mutex<[UInt64: Int]>([:])
    private let inUse = Atomic<Bool>(false)

    /// Whether read transactions take exact, pinned snapshots. Once set, it stays set.
    var isInUse: Bool {
        inUse.load(ordering: .sequentiallyConsistent)
    }

    /// Makes read transactions take exact, pinned snapshots from now on.
    func activate() {
        inUse.store(true, ordering: .sequentiallyConsistent)
    }

    /// Notes that a read transaction reads at `snapshot`, until ``unpin(_:)``.
    func pin(_ snapshot: UInt64) {
        pins.withLock { $0[snapshot, default: 0] += 1 }
    }

    /// Ends a ``pin(_:)``.
    func unpin(_ snapshot: UInt64) {
        pins.withLock { pins in
            if let count = pins[snapshot], count > 1 {
                pins[snapshot] = count - 1
            } else {
                pins[snapshot] = nil
            }
        }
    }

    /// Whether a read transaction reads at a snapshot in `range`.
    func isPinned(in range: Range<UInt64>) -> Bool {
        pins.withLock { pins in pins.keys.contains { range.contains($0) } }
    }
}

/// Objects that a kind of extension keeps for a whole ``Database``, by type, made on first use
/// (the versions of in-memory views): the database holds them without knowing what they are.
final class DatabaseLocals: Sendable {
    private let objects = Mutex<[ObjectIdentifier: any AnyObject & Sendable]>([:])

    /// The object of type `T`, made by `make` the first time it is asked for.
    func object<T: AnyObject & Sendable>(_ make: () -> T) -> T {
        objects.withLock { objects in
            let key = ObjectIdentifier(T.self)
            if let object = objects[key] {
                return unsafeDowncast(object, to: T.self)
            }
            let object = make()
            objects[key] = object
            return object
        }
    }
}
