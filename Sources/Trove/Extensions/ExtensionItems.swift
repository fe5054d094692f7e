/// How an extension gets the typed item of a write or of a stored row: the decoding that every
/// kind of extension (a secondary index, a full-text search) shares.
enum ExtensionItems<Item: Persistable> {
    /// The item of `event`: as written when the write was typed, else decoded from the bytes
    /// written, else read from its row.
    static func resolve(_ event: WriteEvent, in context: ExtensionContext) throws -> Item {
        if let item = event.item as? Item {
            return item
        }
        if let data = event.data, event.carriesMetadata {
            return try decode(key: event.key, data: data, metadata: event.metadata)
        }
        let statement = try context.sqlite.cachedStatement(FileLayout.selectRowByID)
        defer { statement.reset() }
        try statement.bind(event.rowID, at: 1)
        guard try statement.step() else {
            throw TroveError(
                code: .extensionFailed, message: "The row the extension follows is gone.",
                collection: Item.collection, key: event.key)
        }
        return try decode(
            key: event.key, data: statement.bytes(at: 1), metadata: statement.isNull(at: 2) ? nil : statement.bytes(at: 2))
    }

    /// The item of `event` (see ``resolve(_:in:)``), or `nil` when its bytes do not decode: the
    /// extension `name` then leaves the item out (as if it were not stored), and the item is
    /// recorded among the ``UnreadableItem``s. One undecodable item never fails a write of others.
    static func resolveReadable(_ event: WriteEvent, name: String, in context: ExtensionContext) throws -> Item? {
        do {
            return try resolve(event, in: context)
        } catch let error as TroveError where error.code == .corruptData {
            try UnreadableItems.record(rowID: event.rowID, extensionName: name, error: error, in: context)
            return nil
        }
    }

    /// Calls `body` with the row id, key and item of every stored item of `Item.collection`,
    /// and `progress` with the number done from time to time. An item whose bytes do not decode
    /// is left out of the extension `name` and recorded (see ``resolveReadable(_:name:in:)``).
    static func forEachStored(
        name: String, in context: ExtensionContext, progress: (Int) -> Void,
        _ body: (Int64, String, Item) throws -> Void
    ) throws {
        let statement = try context.sqlite.cachedStatement(FileLayout.selectRowsInCollection)
        defer { statement.reset() }
        try statement.bind(Item.collection, at: 1)
        var done = 0
        while try statement.step() {
            let key = statement.string(at: 1)
            let rowID = statement.int64(at: 0)
            let item: Item
            do {
                item = try decode(
                    key: key, data: statement.bytes(at: 2),
                    metadata: statement.isNull(at: 3) ? nil : statement.bytes(at: 3))
            } catch let error as TroveError where error.code == .corruptData {
                try UnreadableItems.record(rowID: rowID, extensionName: name, error: error, in: context)
                continue
            }
            try body(rowID, key, item)
            done += 1
            if done % 1_000 == 0 { progress(done) }
        }
        progress(done)
    }

    /// The item stored as `data` and `metadata`.
    static func decode(key: String, data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer?) throws -> Item {
        var item: Item
        do {
            item = try decodeValue(Item.Coder.self, from: data)
        } catch {
            throw TroveError.coderFailure(error, decoding: true, collection: Item.collection, key: key, field: nil)
        }
        if let metadata, Item.Metadata.self != NoMetadata.self {
            do {
                item.metadata = try decodeValue(Item.MetadataCoder.self, from: metadata)
            } catch {
                throw TroveError.coderFailure(
                    error, decoding: true, collection: Item.collection, key: key, field: "metadata")
            }
        }
        return item
    }

    /// Decodes a value with `coder` from all of `bytes`, for the extension's own use: unlike a
    /// read of the typed layer, it does not note unknown fields (an extension writes no item back).
    private static func decodeValue<Coder: ValueCoder>(_ coder: Coder.Type, from bytes: UnsafeRawBufferPointer) throws
        -> Coder.Value
    {
        var reader = BinaryReader(bytes)
        return try Coder.decode(from: &reader)
    }
}
