// Recording the schema of a model on its first typed write: the file says how to read its items
// even when the app never registered the model (see ``Database/recordSchemas(of:)``).

extension ConnectionCore {
    /// Records the schema of `type` in the file's registry, in the write transaction under way,
    /// unless this database knows the file holds it already; does nothing for a type that does
    /// not describe itself (``SchemaDescribing``).
    ///
    /// Called by the first typed write of `type` on this connection (the caller asks
    /// ``typesWithRecordedSchema`` first, so that later writes pay one set lookup and no SQL). The
    /// record commits or rolls back with the transaction: ``schemasCommitted()`` makes it known
    /// to the whole database, ``schemasRolledBack()`` forgets it, so that the next write of the
    /// type records it again.
    ///
    /// - Throws: ``TroveError`` when the schema cannot be encoded or SQLite fails; the type is
    ///   then not marked, and its next write tries again.
    func recordSchemaOnFirstWrite(of type: Any.Type) throws {
        let id = ObjectIdentifier(type)
        guard !database.recordedSchemaTypes.contains(id), let describing = type as? any SchemaDescribing.Type else {
            typesWithRecordedSchema.insert(id)
            return
        }
        try Database.insertSchema(try Database.schemaRecord(of: describing), into: sqlite)
        typesWithRecordedSchema.insert(id)
        schemasRecordedInTransaction.append(id)
    }

    /// Makes the schemas that the transaction just committed known to every connection of the
    /// database.
    func schemasCommitted() {
        guard !schemasRecordedInTransaction.isEmpty else { return }
        database.recordedSchemaTypes.insert(schemasRecordedInTransaction)
        schemasRecordedInTransaction.removeAll()
    }

    /// Forgets the schemas that the transaction just rolled back recorded.
    func schemasRolledBack() {
        guard !schemasRecordedInTransaction.isEmpty else { return }
        for id in schemasRecordedInTransaction {
            typesWithRecordedSchema.remove(id)
        }
        schemasRecordedInTransaction.removeAll()
    }
}
