import Synchronization

/// The model types whose schemas a ``Database`` instance knows its file holds: recorded by a
/// committed transaction of this instance, or by ``Database/recordSchemas(of:)``.
///
/// A connection asks it once per type, on the first typed write of that type it makes (see
/// ``ConnectionCore/recordSchemaOnFirstWrite(of:)``); later writes of the type ask only the
/// connection's own set. A type is added only once the transaction that recorded its schema
/// committed, so that a rolled-back first write leaves the next one to record it.
///
/// `Sendable` through its `Mutex`: every connection of the database asks and adds.
final class RecordedSchemaRegistry: Sendable {
    private let types = Mutex<Set<ObjectIdentifier>>([])

    /// Whether the file is known to hold the schema of the type `id`.
    func contains(_ id: ObjectIdentifier) -> Bool {
        types.withLock { $0.contains(id) }
    }

    /// Adds the types `ids`, whose schemas the file now holds.
    func insert(_ ids: some Sequence<ObjectIdentifier>) {
        types.withLock { $0.formUnion(ids) }
    }
}
