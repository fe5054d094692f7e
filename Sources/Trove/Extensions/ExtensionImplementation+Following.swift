/// The defaults of the requirements that only some kinds of extension (relationships, views) need.
extension ExtensionImplementation {
    /// A rebuild keeps no table.
    public func tablesKeptByRebuild(name: String, storedFingerprint: String) -> [String] {
        []
    }

    /// An extension follows its own collection.
    public func follows(_ collection: String) -> Bool {
        collection == self.collection
    }

    /// Nothing is left to finish after a commit.
    public func recover(name: String, in context: ExtensionContext) throws {}

    /// An extension in the file holds its data there.
    public func isBuilt(name: String, in context: ExtensionContext) -> Bool {
        true
    }

    /// Each removal, one event after the other.
    public func applyRemovals(_ rows: [RemovedRow], name: String, in context: ExtensionContext) throws {
        for row in rows {
            try apply(
                WriteEvent(
                    kind: .removed, collection: row.collection, key: row.key, rowID: row.rowID, item: nil, data: nil,
                    metadata: nil, carriesMetadata: false),
                name: name, in: context)
        }
    }

    /// The removal of a collection the extension follows is the removal of its own.
    public func removeAll(
        rows: [RemovedRow]?, ofCollection collection: String?, name: String, in context: ExtensionContext
    ) throws {
        try removeAll(rows: rows, name: name, in: context)
    }
}
