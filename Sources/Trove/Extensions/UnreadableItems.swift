/// Recording the items that extensions leave out, inside the write transaction that finds them.
enum UnreadableItems {
    /// Records that the extension `extensionName` left out the item at `rowID` because `error`
    /// (a ``TroveError/Code/corruptData`` error) was thrown decoding it. The record holds a
    /// digest of the stored bytes, so that it lapses when they change.
    static func record(rowID: Int64, extensionName: String, error: TroveError, in context: ExtensionContext) throws {
        let sqlite = context.sqlite
        let row = try sqlite.cachedStatement(FileLayout.selectStoredRow)
        defer { row.reset() }
        try row.bind(rowID, at: 1)
        guard try row.step() else { return }
        let digest = digest(data: row.bytes(at: 2), metadata: row.isNull(at: 3) ? nil : row.bytes(at: 3))
        try sqlite.executeCached(FileLayout.createUnreadable)
        let statement = try sqlite.cachedStatement(FileLayout.upsertUnreadable)
        defer { statement.reset() }
        try statement.bind(row.string(at: 0), at: 1)
        try statement.bind(row.string(at: 1), at: 2)
        try statement.bind(extensionName, at: 3)
        if let field = error.field {
            try statement.bind(field, at: 4)
        } else {
            try statement.bindNull(at: 4)
        }
        try statement.bind(error.message, at: 5)
        try statement.bind(digest, at: 6)
        try statement.stepToEnd()
    }

    /// Forgets what the extension `name` left out, before it is built again from the items or
    /// dropped.
    static func forget(extensionName name: String, in sqlite: SQLiteConnection) throws {
        guard try tableExists(in: sqlite) else { return }
        let statement = try sqlite.cachedStatement(FileLayout.deleteUnreadableOfExtension)
        defer { statement.reset() }
        try statement.bind(name, at: 1)
        try statement.stepToEnd()
    }

    /// A digest of a row's stored bytes (64-bit FNV-1a over the data, a separator that tells a
    /// missing metadata from an empty one, and the metadata): the same in every process.
    static func digest(data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer?) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        for byte in data { add(byte) }
        add(metadata == nil ? 0 : 1)
        if let metadata {
            for byte in metadata { add(byte) }
        }
        return Int64(bitPattern: hash)
    }

    /// Whether the file has the table of unreadable items (the first item left out creates it).
    static func tableExists(in sqlite: SQLiteConnection) throws -> Bool {
        let statement = try sqlite.cachedStatement(FileLayout.selectTableExists)
        defer { statement.reset() }
        try statement.bind(FileLayout.unreadableTable, at: 1)
        return try statement.step()
    }
}
