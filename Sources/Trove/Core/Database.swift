import Foundation
import Synchronization

/// A Trove database: one SQLite file in WAL mode that holds items in collections.
///
/// A database is the entry point: open it once, make a ``Connection`` per thread of work (or
/// share one), and read and write in transactions on connections.
///
/// ```swift
/// let database = try Database(path: "/var/lib/app/app.trove")
/// let connection = try database.newConnection()
/// try connection.write { tx in try tx.write(user) }
/// ```
///
/// One writer at a time across every connection of the database; readers run in parallel on
/// their own connections and each read transaction sees one consistent snapshot, never blocking
/// the writer (SQLite's write-ahead log). The file stores its schema version: a file of a newer
/// version, a file that is not a SQLite database, or a SQLite database of another application is
/// refused with a ``TroveError`` and left untouched.
///
/// Related SQLite documentation: <https://www.sqlite.org/wal.html>
public final class Database: Sendable {
    /// The path of the database file.
    public let path: String
    /// The configuration the database was opened with.
    public let configuration: Configuration

    let writerLock = TransactionLock()
    /// The connections of `read(label:fileID:line:_:)` and its twins (see ``ConnectionPool``).
    let pool: ConnectionPool
    let changeHub = ChangeHub()
    /// Twice the number of this instance's latest commit, plus one while a commit is under way:
    /// readers load it before and after their read transaction starts to learn which of this
    /// process's commits their snapshot includes (see ``ConnectionCore``).
    let commitState = Atomic<UInt64>(0)
    /// The token this instance wrote in the file's registry with its latest commit, 0 before its
    /// first commit. A token in the file that is not this one means that another process (or
    /// another `Database` instance) committed since (see ``ConnectionCore``).
    let writerToken = Atomic<UInt64>(0)
    /// The token that this instance's latest new ``writerToken`` replaced in the file, stored
    /// before it: the ``ExternalChangePoller`` tells by it that only this instance committed
    /// since it last read the file's token.
    let replacedWriterToken = Atomic<UInt64>(0)
    /// Counts the calls of ``invalidateCaches()``: a connection whose caches were emptied for an
    /// older count empties them when its next transaction begins.
    let cacheGeneration = Atomic<UInt64>(0)
    /// The extensions of this instance (see ``ExtensionRegistry``).
    let extensions: Mutex<ExtensionRegistry>
    /// Counts the changes of ``extensions``; 0 while this instance never had any extension or
    /// orphan, so that writes then ask nothing more (see ``ConnectionCore/watchers(of:)``).
    let extensionGeneration = Atomic<UInt64>(0)
    /// Set by any transaction that finds another instance committed since its connection's
    /// previous one; the next write transaction clears it and reads the file's extensions again
    /// (see ``ConnectionCore/beginWrite()``), so that writes reach extensions that another process
    /// registered after this instance opened.
    let extensionsMayHaveChanged = Atomic<Bool>(false)
    /// The snapshots that read transactions hold while state kept by commit number is in use.
    let snapshotPins = SnapshotPins()
    /// What kinds of extensions keep for the whole database, by type.
    let locals = DatabaseLocals()
    /// The collections whose stored items held fields that this instance's coders did not know:
    /// typed writes to them keep those fields.
    let unknownFields = UnknownFieldRegistry()
    /// The model types whose schemas this instance knows the file holds: a typed write of any
    /// other type records its schema first (see ``ConnectionCore/recordSchemaOnFirstWrite(of:)``).
    let recordedSchemaTypes = RecordedSchemaRegistry()
    private let history: Mutex<ChangeHistory>
    /// The decoded items of ``ShareableItem`` types that connections share.
    let sharedItems: SharedItemCache
    private let temporaryDirectory: String?
    /// The key of every connection after the first: the configuration's, or, for a passphrase,
    /// the key it derives with the file's salt, which spares each connection the derivation
    /// (PBKDF2, a fifth of a second).
    let connectionKey: EncryptionKey?
    /// How many times opening derived a key from the configuration's passphrase: 0 without one,
    /// 1 for a file that has its salt, 2 for a new file (its first connection makes the salt).
    let keyDerivationsAtOpen: Int

    /// Opens the database at `path`, creating the file if it does not exist, and registers the
    /// extensions of `models` and `extensions` in one transaction before anything else can write.
    ///
    /// Registering at open is the recommended way: the database knows its extensions before its
    /// first transaction, so no write can miss them and nothing is rebuilt by accident.
    /// Registering the same extensions, at the same versions, on every open does no work
    /// proportional to the data (see ``DatabaseExtension``).
    ///
    /// `models` takes any ``Persistable`` type: a model whose generated code provides extensions
    /// (``DatabaseExtensionProviding``: the index of its `@indexed` fields, the search of its
    /// `@searchable` ones, its relationships) has them registered, and a model that describes its
    /// schema (``SchemaDescribing``, every `@persistable` type) has it recorded in the file for the
    /// `trove` command (see ``recordSchemas(of:)``). A model with neither is accepted and changes
    /// nothing. `extensions` adds extensions defined by hand, registered after those of `models`.
    ///
    /// ```swift
    /// let database = try Database(path: path, models: [User.self, Note.self])
    /// let mail = try Database(path: mailPath, models: [Message.self], extensions: [inbox.databaseExtension])
    /// ```
    ///
    /// - Parameters:
    ///   - path: The path of the database file. Its folder must exist.
    ///   - configuration: How to open the file and configure connections.
    ///   - models: The models whose extensions to register and whose schemas to record.
    ///   - extensions: More extensions to register.
    /// - Throws: ``TroveError`` naming the path and what is wrong with it: code
    ///   ``TroveError/Code/misuse`` for an empty path or `:memory:` (use
    ///   ``temporary(configuration:models:extensions:)``), ``TroveError/Code/notADatabase`` when the
    ///   path is a folder, a device or a pipe, or the file is not a SQLite database or is another
    ///   application's, ``TroveError/Code/unsupportedSchemaVersion`` when a newer Trove wrote it,
    ///   ``TroveError/Code/readOnly`` when the file must be created in a read-only folder (or in an
    ///   empty read-only file), ``TroveError/Code/corruptDatabase`` when the file is damaged,
    ///   ``TroveError/Code/extensionFailed`` when an extension cannot be registered (two of the
    ///   same name, an invalid name), ``TroveError/Code/uniqueViolation`` when the items break a
    ///   unique index being built, and ``TroveError/Code/sqlite`` otherwise (a missing folder, a file
    ///   this user may not read). An existing
    ///   file is never changed when opening fails, and a registration that fails is rolled back.
    public convenience init(
        path: String, configuration: Configuration = Configuration(), models: [any Persistable.Type] = [],
        extensions: [DatabaseExtension] = []
    ) throws {
        try self.init(path: path, configuration: configuration, temporaryDirectory: nil)
        try registerAtOpen(models: models, extensions: extensions)
    }

    private init(path: String, configuration: Configuration, temporaryDirectory: String?) throws {
        self.path = path
        self.configuration = configuration
        self.temporaryDirectory = temporaryDirectory
        self.pool = ConnectionPool(configuration: configuration)
        self.history = Mutex(ChangeHistory(limit: configuration.changesetHistoryLimit))
        self.sharedItems = SharedItemCache(limit: configuration.sharedItemCacheLimit)
        try Database.checkPath(path)
        if !configuration.isReadOnly {
            FilePermissions.createOwnerOnly(path)
        }
        let opened = try SQLiteConnection.openFirst(
            path: path, access: configuration.isReadOnly ? .readOnly : .readWriteCreate, key: configuration.encryptionKey)
        let connection = opened.connection
        connectionKey = opened.otherKey
        keyDerivationsAtOpen = opened.derivations
        if configuration.isReadOnly {
            try Database.checkReadOnlyFile(connection, configuration: configuration)
        } else {
            try Database.prepareFile(connection, configuration: configuration)
        }
        let orphans = try Database.loadOrphans(connection)
        self.extensions = Mutex(ExtensionRegistry(orphans: orphans))
        if !orphans.isEmpty {
            extensionGeneration.store(1, ordering: .releasing)
        }
    }

    /// Opens a new database in a fresh temporary folder, removed with its files when the database
    /// and all its connections are gone, and registers the extensions of `models` and
    /// `extensions` as ``init(path:configuration:models:extensions:)`` does.
    ///
    /// Use it in tests and for caches: it behaves exactly like a file database (WAL, snapshots,
    /// parallel readers), which an SQLite in-memory database does not.
    ///
    /// ```swift
    /// let database = try Database.temporary(models: [User.self])
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: How to configure connections.
    ///   - models: The models whose extensions to register and whose schemas to record.
    ///   - extensions: More extensions to register.
    /// - Returns: An empty database.
    /// - Throws: ``TroveError`` when the folder or the file cannot be created, and what
    ///   ``init(path:configuration:models:extensions:)`` throws when registering fails.
    public static func temporary(
        configuration: Configuration = Configuration(), models: [any Persistable.Type] = [],
        extensions: [DatabaseExtension] = []
    ) throws -> Database {
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("trove-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw TroveError(
                code: .sqlite, message: "Cannot create the temporary folder '\(folder)' for a database.", path: folder,
                underlyingError: error)
        }
        let path = (folder as NSString).appendingPathComponent("database.trove")
        let database = try Database(path: path, configuration: configuration, temporaryDirectory: folder)
        try database.registerAtOpen(models: models, extensions: extensions)
        return database
    }

    deinit {
        // Before the files go: no transaction runs, each holds the database.
        pool.close()
        if let temporaryDirectory {
            try? FileManager.default.removeItem(atPath: temporaryDirectory)
        }
    }

    /// Opens a new connection: its own SQLite handle, its own caches.
    ///
    /// Connections are cheap to keep and expensive to open: keep one per kind of work (for
    /// example one for the UI, one for background writes) rather than one per transaction.
    ///
    /// - Returns: A new connection.
    /// - Throws: ``TroveError`` when SQLite cannot open the file.
    public func newConnection() throws -> Connection {
        try Connection(database: self)
    }

    /// The changesets of every later commit, as an asynchronous sequence.
    ///
    /// Each loop subscribes when it starts; see ``DatabaseChanges``.
    public var changes: DatabaseChanges {
        DatabaseChanges(database: self)
    }

    /// Empties the item and metadata caches of every connection before its next transaction, so
    /// that they read again from the file.
    ///
    /// Call it after the file was changed by something that is not Trove: the `sqlite3` shell,
    /// a migration script, a restore. Trove notices commits of other `Database` instances and
    /// other processes that use Trove, and an outside write when no commit of this `Database`
    /// followed it before a connection's next transaction; an outside write followed by a
    /// commit of this `Database` can leave a connection serving items from before the outside
    /// write until they change again (RELIABILITY.md, "Limits").
    ///
    /// ```swift
    /// try runMigrationScript(on: database.path)
    /// database.invalidateCaches()
    /// ```
    ///
    /// A transaction under way keeps its snapshot and its caches; the transactions that begin
    /// after this call returns read from the file. Cheap: it only counts, and each connection
    /// checks the count when a transaction begins.
    public func invalidateCaches() {
        cacheGeneration.add(1, ordering: .sequentiallyConsistent)
    }

    // MARK: Opening

    /// Refuses a path that cannot hold a database shared by connections, before SQLite opens it.
    ///
    /// SQLite reads an empty path as a private temporary database and `:memory:` as a private
    /// in-memory one: each connection would get its own empty database, without Trove's tables.
    /// A path that exists and is not a regular file (a folder, a device, a named pipe, on which
    /// SQLite would wait forever) is refused by one `stat`.
    static func checkPath(_ path: String) throws {
        if path.isEmpty || path == ":memory:" {
            throw TroveError(
                code: .misuse,
                message:
                    "Database(path:) needs the path of a file, not \(path.isEmpty ? "an empty path" : "':memory:'"): SQLite would give each connection a database of its own. Use Database.temporary() for a database that is removed when it is closed.",
                path: path)
        }
        try PathDiagnosis.refuseSpecialFile(path)
    }

    private static func prepareFile(_ connection: SQLiteConnection, configuration: Configuration) throws {
        connection.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
        // Reading the header first: a file that is not a database fails here, before any write.
        let (applicationID, version, objectCount) = try readHeader(connection)
        if applicationID == 0 && version == 0 {
            guard objectCount == 0 else {
                throw TroveError(
                    code: .notADatabase,
                    message:
                        "The file '\(connection.path)' is a SQLite database of another application: it has tables but no Trove schema.",
                    path: connection.path)
            }
            // SQLite opens a file it may not write read-only without a word; creating the schema
            // in it would fail on the write-ahead log's files.
            guard !connection.isReadOnly else {
                let cause = PathDiagnosis.readOnlyCause(connection.path) ?? "SQLite could only open it for reading"
                throw TroveError(
                    code: .readOnly,
                    message:
                        "The file '\(connection.path)' holds no database yet and is read-only (\(cause)): Trove cannot create a database in it.",
                    path: connection.path)
            }
            try configuration.applyPageSize(to: connection)
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute("BEGIN IMMEDIATE")
            do {
                // Another process may have created the schema since the header was read.
                let (_, versionNow, _) = try readHeader(connection)
                if versionNow == 0 {
                    try connection.execute(FileLayout.create)
                }
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
            return
        }
        guard applicationID == FileLayout.applicationID else {
            throw TroveError(
                code: .notADatabase,
                message:
                    "The file '\(connection.path)' is a SQLite database of another application (its application number is \(applicationID), not Trove's).",
                path: connection.path)
        }
        guard version <= FileLayout.version else {
            throw TroveError(
                code: .unsupportedSchemaVersion,
                message:
                    "The file '\(connection.path)' was written by a newer version of Trove (schema \(version)); this version reads schema \(FileLayout.version) and older.",
                path: connection.path)
        }
        try connection.execute("PRAGMA journal_mode = WAL")
        if version < FileLayout.version {
            try migrate(connection)
        }
    }

    /// Checks, without writing anything, that a file opened read-only is a Trove file this
    /// runtime reads as it is (see ``Configuration/isReadOnly``).
    private static func checkReadOnlyFile(_ connection: SQLiteConnection, configuration: Configuration) throws {
        connection.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
        let (applicationID, version, objectCount) = try readHeader(connection)
        guard applicationID == FileLayout.applicationID else {
            let what =
                applicationID == 0 && version == 0 && objectCount == 0
                ? "is empty: it holds no Trove database, and a database opened read-only is never created"
                : "is not a Trove database (its application number is \(applicationID), not Trove's)"
            throw TroveError(
                code: .notADatabase, message: "The file '\(connection.path)' \(what).", path: connection.path)
        }
        guard version == FileLayout.version else {
            throw TroveError(
                code: .unsupportedSchemaVersion,
                message:
                    "The file '\(connection.path)' has schema version \(version) and this version of Trove reads schema \(FileLayout.version) read-only: open it read-write once to upgrade it, or use the Trove that wrote it.",
                path: connection.path)
        }
    }

    /// Brings the file to the current schema version, one step of ``FileLayout/migrations`` after
    /// the other, in one transaction: a process killed meanwhile leaves the file as it was.
    private static func migrate(_ connection: SQLiteConnection) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            // Another process may have upgraded the file since the header was read.
            let (_, current, _) = try readHeader(connection)
            if current < FileLayout.version {
                for step in Int(current)..<Int(FileLayout.version) {
                    try connection.execute(FileLayout.migrations[step - 1])
                }
                try connection.execute("PRAGMA user_version = \(FileLayout.version)")
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    static func readHeader(_ connection: SQLiteConnection) throws -> (Int32, Int32, Int64) {
        func integer(_ sql: String) throws -> Int64 {
            let statement = try connection.makeStatement(sql)
            guard try statement.step() else { return 0 }
            return statement.int64(at: 0)
        }
        do {
            let applicationID = Int32(truncatingIfNeeded: try integer("PRAGMA application_id"))
            let version = Int32(truncatingIfNeeded: try integer("PRAGMA user_version"))
            let objects = try integer("SELECT count(*) FROM sqlite_master")
            return (applicationID, version, objects)
        } catch var error as TroveError where error.isNotADatabase {
            // Read first when the file opens: SQLITE_NOTADB here is a file that never was a
            // database, where later it is a database file damaged since (`corruptDatabase`).
            if PathDiagnosis.looksEncrypted(connection.path) {
                error.code = .encryptionKey
                error.message =
                    "The file '\(connection.path)' is encrypted, or is not a SQLite database: its first bytes are not SQLite's. If it is an encrypted Trove file, open it with its key (Configuration.encryptionKey)."
            } else {
                error.code = .notADatabase
                error.message = "The file '\(connection.path)' is not a SQLite database: its first bytes are not SQLite's."
            }
            throw error
        }
    }

    // MARK: Change history

    /// Records the changeset of a commit that is about to happen, so that any reader whose
    /// snapshot includes it finds it.
    func registerPendingChangeset(_ changeset: Changeset) {
        history.withLock { $0.append(changeset) }
    }

    /// Forgets the changeset of a commit that failed.
    func discardPendingChangeset(snapshot: UInt64) {
        history.withLock { $0.discard(snapshot: snapshot) }
    }

    /// The changesets after `start` up to and including `end`, or `nil` if some were dropped or
    /// never committed.
    func changesets(after start: UInt64, through end: UInt64) -> [Changeset]? {
        history.withLock { $0.changesets(after: start, through: end) }
    }

    func connection(_ connection: ObjectIdentifier, advancedTo snapshot: UInt64) {
        history.withLock { $0.connection(connection, advancedTo: snapshot) }
    }

    func connectionClosed(_ connection: ObjectIdentifier) {
        history.withLock { $0.connectionClosed(connection) }
    }

    /// The number of open connections that have run a transaction (for tests).
    var openConnectionCount: Int {
        history.withLock { $0.connectionCount }
    }
}

/// The recent changesets of a database, kept until every connection has seen them.
struct ChangeHistory {
    let limit: Int
    private(set) var changesets: [Changeset] = []
    private var snapshots: [ObjectIdentifier: UInt64] = [:]

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    mutating func append(_ changeset: Changeset) {
        changesets.append(changeset)
        // Past the limit, the oldest are dropped a quarter of the limit at a time: dropping one
        // per commit moved the whole history at every commit while a connection that does not
        // read (an idle observation's) kept it full.
        if changesets.count >= limit + max(1, limit / 4) {
            changesets.removeFirst(changesets.count - limit)
        }
    }

    mutating func discard(snapshot: UInt64) {
        changesets.removeAll { $0.snapshot == snapshot }
    }

    func changesets(after start: UInt64, through end: UInt64) -> [Changeset]? {
        guard end > start else { return [] }
        guard let first = changesets.firstIndex(where: { $0.snapshot > start }),
            changesets[first].snapshot == start + 1
        else { return nil }
        var result: [Changeset] = []
        var expected = start + 1
        for changeset in changesets[first...] where changeset.snapshot <= end {
            guard changeset.snapshot == expected else { return nil }
            result.append(changeset)
            expected += 1
        }
        return expected == end + 1 ? result : nil
    }

    mutating func connection(_ connection: ObjectIdentifier, advancedTo snapshot: UInt64) {
        snapshots[connection] = snapshot
        trim()
    }

    /// The number of connections whose snapshot is tracked.
    var connectionCount: Int { snapshots.count }

    mutating func connectionClosed(_ connection: ObjectIdentifier) {
        snapshots.removeValue(forKey: connection)
        trim()
    }

    private mutating func trim() {
        guard let oldest = snapshots.values.min() else { return }
        if let keep = changesets.firstIndex(where: { $0.snapshot > oldest }) {
            changesets.removeFirst(keep)
        } else {
            changesets.removeAll()
        }
    }
}
