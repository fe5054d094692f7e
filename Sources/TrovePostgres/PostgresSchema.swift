import PostgresNIO
import Trove

/// Trove's tables on PostgreSQL, created and upgraded by a ladder of versions, as in a Trove file.
///
/// Version 1:
/// - `items (collection, key, data bytea, metadata bytea)`, keyed by (collection, key); keys
///   compare bytewise (`COLLATE "C"`), as SQLite's do.
/// - `changes (seq, collection, key)`: the change log, one row per item written or removed by a
///   commit (`key` null: the collection was emptied), numbered from `change_number` in commit order.
/// - `extensions (name, version, fingerprint)`: the extensions built (secondary indexes in
///   `index_<name>`, relationships in `edges_<name>`), and from what.
/// - `schema_version`: the version of this ladder the schema is at.
enum PostgresSchema {
    /// The version this Trove writes.
    static let currentVersion = 1
    /// How many numbers of the change log are kept: a cache further behind is flushed.
    static let retainedChanges: Int64 = 10_000
    /// Every how many commits an instance prunes the change log.
    static let pruneInterval: Int64 = 1_000

    /// The statements that bring the schema from version `n - 1` to `n`, at index `n - 1`.
    static func ladder(_ names: PostgresNames) -> [[String]] {
        [
            [
                """
                CREATE TABLE \(names.items) (
                    collection text COLLATE "C" NOT NULL,
                    key text COLLATE "C" NOT NULL,
                    data bytea NOT NULL,
                    metadata bytea,
                    PRIMARY KEY (collection, key)
                )
                """,
                "CREATE SEQUENCE \(names.changeSequence)",
                "CREATE TABLE \(names.changes) (seq bigint NOT NULL, collection text, key text)",
                "CREATE INDEX ON \(names.changes) (seq)",
                """
                CREATE TABLE \(names.extensions) (
                    name text PRIMARY KEY, version integer NOT NULL, fingerprint text NOT NULL
                )
                """,
            ]
        ]
    }

    /// Creates the schema or brings it to ``currentVersion``, in one transaction under an
    /// advisory lock, so that instances starting together do it once.
    static func migrate(_ store: PostgresStore) async throws {
        let names = store.names
        try await store.write { tx in
            _ = try await tx.query("SELECT pg_advisory_xact_lock($1)", names.lockKey &+ 1)
            _ = try await tx.query("CREATE SCHEMA IF NOT EXISTS \(PostgresNames.quote(names.schema))")
            _ = try await tx.query("CREATE TABLE IF NOT EXISTS \(names.version) (version integer NOT NULL)")
            var version = 0
            for try await (stored) in try await tx.query("SELECT version FROM \(names.version)").decode(Int32.self) {
                version = Int(stored)
            }
            guard version <= currentVersion else {
                throw TroveError(
                    code: .unsupportedSchemaVersion,
                    message:
                        "The PostgreSQL schema \(names.schema) is at version \(version), written by a newer Trove; this one reads up to version \(currentVersion).")
            }
            guard version < currentVersion else { return }
            let ladder = ladder(names)
            for step in version..<currentVersion {
                for statement in ladder[step] {
                    _ = try await tx.query(statement)
                }
            }
            _ = try await tx.query("DELETE FROM \(names.version)")
            _ = try await tx.query("INSERT INTO \(names.version) (version) VALUES ($1)", Int32(currentVersion))
        }
    }
}
