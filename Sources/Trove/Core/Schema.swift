/// The SQL schema of a Trove file, and the statements the runtime runs on it.
enum Schema {
    /// The `application_id` of every Trove file: "TROV" in ASCII.
    static let applicationID: Int32 = 0x5452_4F56

    /// The schema version this runtime writes and reads. Stored as `user_version`.
    static let version: Int32 = 1

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
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(version);
        """

    /// The token of the `Database` instance that committed last (see `ConnectionCore`); a file
    /// without the row reads as 0, which no instance uses.
    static let readWriterToken = "SELECT value FROM trove_registry WHERE extension = '' AND name = 'writer'"
    static let writeWriterToken =
        "INSERT OR REPLACE INTO trove_registry (extension, name, value) VALUES ('', 'writer', ?1)"

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
    static let deleteCollection = "DELETE FROM trove_items WHERE collection = ?1"
    static let deleteAll = "DELETE FROM trove_items"
}
