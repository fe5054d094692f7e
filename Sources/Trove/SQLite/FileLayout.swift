/// The SQL layout of a Trove file (its tables, its version, its migrations), and the statements the
/// runtime runs on it. Not to be confused with a model's ``ModelSchema``.
enum FileLayout {
    /// The `application_id` of every Trove file: "TROV" in ASCII.
    static let applicationID: Int32 = 0x5452_4F56

    /// The schema version this runtime writes and reads. Stored as `user_version`.
    ///
    /// - 1: items and the registry.
    /// - 2: the table of registered extensions, ``createExtensions``.
    static let version: Int32 = 2

    static let create = """
        CREATE TABLE trove_items (
            rowid INTEGER PRIMARY KEY,
            collection TEXT NOT NULL,
            key TEXT NOT NULL,
            data BLOB NOT NULL,
            metadata BLOB,
            UNIQUE (collection, key)
        );
        CREATE TABLE trove_registry (
            extension TEXT NOT NULL,
            name TEXT NOT NULL,
            value,
            PRIMARY KEY (extension, name)
        ) WITHOUT ROWID;
        INSERT INTO trove_registry (extension, name, value) VALUES ('', 'writer', 0);
        \(createExtensions)
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(version);
        """

    /// The extensions registered in the file: what each is, the version and definition it was
    /// built with, the collection it follows, the tables it owns (space-separated, so that an
    /// extension no process declares any more can still be dropped), and whether it is in step
    /// with the items (`ready`) or missed writes of a process that does not maintain it (`stale`).
    static let createExtensions = """
        CREATE TABLE trove_extensions (
            name TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            version INTEGER NOT NULL,
            fingerprint TEXT NOT NULL,
            collection TEXT NOT NULL,
            tables TEXT NOT NULL,
            state TEXT NOT NULL
        ) WITHOUT ROWID;
        """

    /// The steps that bring a file of an older schema version to ``version``: the step at index
    /// `i` upgrades version `i + 1` to `i + 2`. Each runs in the transaction that opens the file.
    static let migrations: [String] = [
        createExtensions
    ]

    /// The token of the `Database` instance that committed last (see `ConnectionCore`); a file
    /// without the row reads as 0, which no instance uses.
    static let readWriterToken = "SELECT value FROM trove_registry WHERE extension = '' AND name = 'writer'"
    static let writeWriterToken =
        "INSERT OR REPLACE INTO trove_registry (extension, name, value) VALUES ('', 'writer', ?1)"

    // MARK: Extensions

    static let selectExtensions = "SELECT name, collection FROM trove_extensions"
    static let selectExtension =
        "SELECT kind, version, fingerprint, collection, tables, state FROM trove_extensions WHERE name = ?1"
    static let selectExtensionStates = "SELECT name, version, fingerprint, state FROM trove_extensions"
    static let upsertExtension = """
        INSERT OR REPLACE INTO trove_extensions (name, kind, version, fingerprint, collection, tables, state)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'ready')
        """
    /// Changes nothing (and writes no page) when the extension is stale already.
    static let markExtensionStale = "UPDATE trove_extensions SET state = 'stale' WHERE name = ?1 AND state != 'stale'"
    static let deleteExtension = "DELETE FROM trove_extensions WHERE name = ?1"
    /// The items of a collection, as an extension fills itself from them.
    static let selectRowsInCollection = "SELECT rowid, key, data, metadata FROM trove_items WHERE collection = ?1"
    static let selectRowIDsInCollection = "SELECT rowid, key FROM trove_items WHERE collection = ?1"
    static let selectRowIDs = "SELECT rowid, key, collection FROM trove_items"
    static let selectRowByID = "SELECT key, data, metadata FROM trove_items WHERE rowid = ?1"
    /// The rows whose ids are the elements of the JSON array `?1`, each with its offset in the
    /// array, in the array's order: `CROSS JOIN` makes `json_each` the outer loop, and each row
    /// is looked up by its id.
    static let selectRowsByIDs = """
        SELECT j.key, i.key, i.data, i.metadata FROM json_each(?1) AS j CROSS JOIN trove_items AS i ON i.rowid = j.value
        """
    static let selectKeyByRowID = "SELECT key FROM trove_items WHERE rowid = ?1"

    // MARK: Unreadable items

    /// The items that extensions left out because their bytes do not decode (see
    /// ``UnreadableItem``), each with a digest of the bytes that failed. Created by the first
    /// write that leaves an item out, so that files without any, and older versions of Trove,
    /// never see it (it needs no new schema version).
    static let unreadableTable = "trove_unreadable"
    static let createUnreadable = """
        CREATE TABLE IF NOT EXISTS trove_unreadable (
            collection TEXT NOT NULL,
            key TEXT NOT NULL,
            extension TEXT NOT NULL,
            field TEXT,
            reason TEXT NOT NULL,
            digest INTEGER NOT NULL,
            PRIMARY KEY (collection, key, extension)
        ) WITHOUT ROWID
        """
    static let upsertUnreadable =
        "INSERT OR REPLACE INTO trove_unreadable (collection, key, extension, field, reason, digest) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    static let deleteUnreadableOfExtension = "DELETE FROM trove_unreadable WHERE extension = ?1"
    /// Each record with the bytes the item has now, by collection and key.
    static let selectUnreadable = """
        SELECT u.collection, u.key, u.extension, u.field, u.reason, u.digest, t.data, t.metadata
        FROM trove_unreadable AS u JOIN trove_items AS t ON t.collection = u.collection AND t.key = u.key
        ORDER BY u.collection, u.key, u.extension
        """
    static let selectStoredRow = "SELECT collection, key, data, metadata FROM trove_items WHERE rowid = ?1"
    static let selectTableExists = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1"

    // MARK: Items

    static let selectItem = "SELECT data, metadata FROM trove_items WHERE collection = ?1 AND key = ?2"
    static let selectData = "SELECT data FROM trove_items WHERE collection = ?1 AND key = ?2"
    static let selectMetadata = "SELECT metadata FROM trove_items WHERE collection = ?1 AND key = ?2"
    static let selectExists = "SELECT 1 FROM trove_items WHERE collection = ?1 AND key = ?2"
    static let selectAllInCollection =
        "SELECT key, data, metadata FROM trove_items WHERE collection = ?1 ORDER BY key"
    static let selectKeys = "SELECT key FROM trove_items WHERE collection = ?1 ORDER BY key"
    static let selectCollections = "SELECT DISTINCT collection FROM trove_items ORDER BY collection"
    static let countInCollection = "SELECT count(*) FROM trove_items WHERE collection = ?1"
    static let countAll = "SELECT count(*) FROM trove_items"

    static let upsertItem = """
        INSERT INTO trove_items (collection, key, data, metadata) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (collection, key) DO UPDATE SET data = excluded.data, metadata = excluded.metadata
        """
    static let replaceData = "UPDATE trove_items SET data = ?3 WHERE collection = ?1 AND key = ?2"
    static let replaceMetadata = "UPDATE trove_items SET metadata = ?3 WHERE collection = ?1 AND key = ?2"
    static let deleteItem = "DELETE FROM trove_items WHERE collection = ?1 AND key = ?2"
    /// The rows whose row ids are in a range (bounds included), as
    /// `ConnectionCore.removeRows(_:in:removed:)` removes rows whose ids it knows.
    static let selectRowIDsInRange = "SELECT rowid FROM trove_items WHERE rowid >= ?1 AND rowid <= ?2"
    static let deleteItemsInRange = "DELETE FROM trove_items WHERE rowid >= ?1 AND rowid <= ?2"
    static let selectRowID = "SELECT rowid FROM trove_items WHERE collection = ?1 AND key = ?2"
    static let deleteCollection = "DELETE FROM trove_items WHERE collection = ?1"
    static let deleteAll = "DELETE FROM trove_items"
}
