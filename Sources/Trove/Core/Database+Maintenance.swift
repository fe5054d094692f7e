import Foundation

// Maintenance of a database file: online backup, vacuum, checkpoints, sizes and statistics. Each
// operation opens a handle of its own (with the configuration's settings), so that it never runs
// inside, or blocks, a connection's transaction.

extension Database {
    /// Copies the database into a new file at `path`, consistent as of one moment, while other
    /// connections and processes go on reading and writing.
    ///
    /// The copy is one snapshot: every commit acknowledged before the backup began is in it, no
    /// commit that began after is, and it never holds part of a transaction. It uses SQLite's
    /// online backup API on a read transaction of its own, so writers (of this process or
    /// another) are not blocked, and the copy never starts over because of them.
    ///
    /// ```swift
    /// try database.backup(to: "/backups/app.trove") { progress in
    ///     print("\(progress.copiedPageCount) of \(progress.totalPageCount) pages")
    /// }
    /// ```
    ///
    /// Complexity: O(n) in the size of the database.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>
    ///
    /// - Parameters:
    ///   - path: The path of the copy. Nothing may exist there yet; its folder must exist. The copy
    ///     is created readable by its owner only.
    ///   - encryption: The key of the copy: the database's own (the default: an encrypted
    ///     database's copy is encrypted with its key, a plain one's is plain), another, or none.
    ///   - pagesPerStep: How many pages to copy between two calls of `progress`.
    ///   - progress: Called after each step with how far the copy is, on the calling thread.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/misuse`` when a file exists at `path`,
    ///   and ``TroveError/Code/sqlite`` when SQLite fails; a failed backup removes its partial copy.
    public func backup(
        to path: String, encryption: BackupEncryption = .sameKey, pagesPerStep: Int = 1_024,
        progress: ((BackupProgress) -> Void)? = nil
    ) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw TroveError(
                code: .misuse,
                message: "Cannot back up into '\(path)': a file exists there. Remove it or choose another path.",
                path: self.path)
        }
        do {
            try copy(to: path, encryption: encryption, pagesPerStep: max(1, pagesPerStep), progress: progress)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            throw error
        }
    }

    private func copy(
        to path: String, encryption: BackupEncryption, pagesPerStep: Int, progress: ((BackupProgress) -> Void)?
    ) throws {
        let source = try openConnectionHandle()
        // A read transaction on the source for the whole copy: every step reads the same snapshot,
        // and commits of other connections never make the backup start over.
        try source.execute("BEGIN")
        defer { try? source.execute("COMMIT") }
        _ = try Self.integer(source, "SELECT count(*) FROM sqlite_master")
        // SQLite copies pages as they are: the copy starts with the source's key, and takes its
        // own once complete.
        FilePermissions.createOwnerOnly(path)
        let destination = try SQLiteConnection(path: path, access: .readWriteCreate, key: configuration.encryptionKey)
        try source.backup(
            into: destination, pagesPerStep: pagesPerStep,
            progress: progress.map { report in { report(BackupProgress(copiedPageCount: $0, totalPageCount: $1)) } },
            describe: "The backup of '\(self.path)' into '\(path)' failed.")
        let key: EncryptionKey?
        switch encryption.kind {
        case .sameKey: key = configuration.encryptionKey
        case .key(let other): key = other
        case .none: key = nil
        }
        if key != configuration.encryptionKey {
            try destination.changeKey(to: key)
        }
    }

    /// Rebuilds the database file so that it holds no free pages, giving the space of removed
    /// items back to the file system, then truncates the write-ahead log.
    ///
    /// It waits for the writer of this database and blocks other writers while it runs; readers
    /// go on. It needs free disk space of about twice the size of the database.
    ///
    /// Complexity: O(n) in the size of the database.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_vacuum.html>
    ///
    /// - Throws: ``TroveError`` when SQLite fails (``TroveError/Code/readOnly`` on a database
    ///   opened read-only).
    /// - Important: Do not call it inside a write transaction of this database: it would wait for
    ///   itself, and stops the program instead.
    public func vacuum() throws {
        try writerLock.withLock(misuse: Connection.nestedWriteMessage) {
            let sqlite = try openConnectionHandle()
            try sqlite.execute("VACUUM")
            _ = try Self.checkpoint(sqlite, mode: .truncate)
        }
    }

    /// Copies the write-ahead log into the database file.
    ///
    /// SQLite checkpoints on its own after commits (``Configuration/walAutocheckpointPages``);
    /// call it to bring the file up to date before copying it by other means, or with
    /// ``CheckpointMode/truncate`` to give the log's space back. Modes other than
    /// ``CheckpointMode/passive`` wait for the writer of this database.
    ///
    /// ```swift
    /// let result = try database.checkpoint(.truncate)
    /// assert(result.isComplete)
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>
    ///
    /// - Parameter mode: How far to go.
    /// - Returns: The frames of the log and how many of them are in the database file.
    /// - Throws: ``TroveError`` when SQLite fails. A checkpoint that readers or another process
    ///   kept from finishing is not an error: its result's ``CheckpointResult/isComplete`` is
    ///   `false`.
    /// - Important: Do not call it with a mode other than ``CheckpointMode/passive`` inside a write
    ///   transaction of this database: it would wait for itself, and stops the program instead.
    @discardableResult
    public func checkpoint(_ mode: CheckpointMode = .passive) throws -> CheckpointResult {
        if mode == .passive {
            return try Self.checkpoint(try openConnectionHandle(), mode: mode)
        }
        return try writerLock.withLock(misuse: Connection.nestedWriteMessage) {
            try Self.checkpoint(try openConnectionHandle(), mode: mode)
        }
    }

    private static func checkpoint(_ sqlite: SQLiteConnection, mode: CheckpointMode) throws -> CheckpointResult {
        let (logFrames, checkpointed, wasBusy) = try sqlite.checkpoint(mode)
        return CheckpointResult(
            logFrameCount: logFrames, checkpointedFrameCount: checkpointed,
            isComplete: !wasBusy && (mode == .passive || logFrames == checkpointed))
    }

    /// The sizes of the database's files and pages.
    ///
    /// - Returns: The page size and counts, and the bytes of the database file and of its log.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func fileSizes() throws -> DatabaseFileSizes {
        let sqlite = try openConnectionHandle()
        func size(_ path: String) -> Int64 {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        }
        return DatabaseFileSizes(
            pageSize: Int(try Self.integer(sqlite, "PRAGMA page_size")),
            pageCount: Int(try Self.integer(sqlite, "PRAGMA page_count")),
            freePageCount: Int(try Self.integer(sqlite, "PRAGMA freelist_count")),
            fileBytes: size(path), walBytes: size(path + "-wal"))
    }

    /// Each collection with its number of items and the bytes they take, sorted by name.
    ///
    /// Complexity: O(n) in the number of items: it reads the length of every row.
    ///
    /// - Returns: One entry per collection that holds items.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func collectionStatistics() throws -> [CollectionStatistics] {
        let sqlite = try openConnectionHandle()
        let statement = try sqlite.makeStatement(
            """
            SELECT collection, count(*), total(length(data)), total(ifnull(length(metadata), 0))
            FROM trove_items GROUP BY collection ORDER BY collection
            """)
        var result: [CollectionStatistics] = []
        while try statement.step() {
            result.append(
                CollectionStatistics(
                    collection: statement.string(at: 0), count: Int(statement.int64(at: 1)),
                    dataBytes: Int64(statement.double(at: 2)), metadataBytes: Int64(statement.double(at: 3))))
        }
        return result
    }

    /// The extensions the file records, registered by this process or not, sorted by name.
    ///
    /// - Returns: One record per extension in the file.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func extensionRecords() throws -> [ExtensionRecord] {
        let sqlite = try openConnectionHandle()
        let statement = try sqlite.makeStatement(
            "SELECT name, kind, version, collection, state FROM trove_extensions ORDER BY name")
        var result: [ExtensionRecord] = []
        while try statement.step() {
            result.append(
                ExtensionRecord(
                    name: statement.string(at: 0), kind: statement.string(at: 1), version: Int(statement.int64(at: 2)),
                    collection: statement.string(at: 3), state: statement.string(at: 4)))
        }
        return result
    }

    /// Runs SQLite's integrity check of the whole file (b-trees, indexes, free pages) and returns
    /// what it found.
    ///
    /// Damage is a finding, not an error: a page that SQLite cannot read at all ends the check
    /// with that problem as its last line, after those found before it.
    ///
    /// ```swift
    /// let result = try database.integrityCheck()
    /// print(result.isOK ? "ok" : result.problems.joined(separator: "\n"))
    /// ```
    ///
    /// Complexity: O(n) in the size of the database.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_integrity_check>
    ///
    /// - Returns: The problems SQLite found, in its words; none when the file is sound.
    /// - Throws: ``TroveError`` when the check cannot run (the file cannot be opened, SQLite runs
    ///   out of memory), never for the damage it finds.
    public func integrityCheck() throws -> IntegrityCheckResult {
        let sqlite = try openConnectionHandle()
        var problems: [String] = []
        do {
            let statement = try sqlite.makeStatement("PRAGMA integrity_check")
            while try statement.step() {
                // A row may hold several lines, under a heading that names the schema
                // ("*** in database main ***").
                let lines = statement.string(at: 0).split(separator: "\n")
                for line in lines where line != "ok" && !line.hasPrefix("*** ") {
                    problems.append(String(line))
                }
            }
        } catch let error as TroveError where error.code == .corruptDatabase {
            let cause = error.sqliteMessage ?? "database disk image is malformed"
            problems.append("The check stopped: SQLite cannot read on past a damaged page (\(cause)).")
        }
        return IntegrityCheckResult(problems: problems)
    }

    /// The schema version of the file (`user_version`).
    ///
    /// - Throws: ``TroveError`` when SQLite fails.
    public func fileSchemaVersion() throws -> Int {
        Int(try Self.integer(try openConnectionHandle(), "PRAGMA user_version"))
    }

    private static func integer(_ sqlite: SQLiteConnection, _ sql: String) throws -> Int64 {
        let statement = try sqlite.makeStatement(sql)
        guard try statement.step() else { return 0 }
        return statement.int64(at: 0)
    }
}

extension Database {
    /// The keys of the items of `collection` whose indexed `field` equals `value`, looked up in a
    /// secondary index of the collection that covers the field, or `nil` when none does (or the
    /// one that does is stale). For tools that know fields by name only, like `trove query`.
    ///
    /// - Parameters:
    ///   - collection: The collection.
    ///   - field: The name of the index column (the indexed property's name).
    ///   - value: The value as text: converted to the column's type (`true`/`false` or a number
    ///     for an integer column, a number for a real column).
    /// - Returns: The matching keys in ascending order, or `nil` when no index covers `field`.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func indexedKeys(in collection: String, field: String, equals value: String) throws -> [String]? {
        let sqlite = try openConnectionHandle()
        let indexes = try sqlite.makeStatement(
            "SELECT tables FROM trove_extensions WHERE kind = 'secondaryIndex' AND collection = ?1 AND state = 'ready' ORDER BY name")
        try indexes.bind(collection, at: 1)
        var tables: [String] = []
        while try indexes.step() {
            tables += indexes.string(at: 0).split(separator: " ").map(String.init)
        }
        for table in tables {
            let columns = try sqlite.makeStatement("SELECT type FROM pragma_table_info(?1) WHERE name = ?2")
            try columns.bind(table, at: 1)
            try columns.bind(field, at: 2)
            guard try columns.step() else { continue }
            let type = columns.string(at: 0).uppercased()
            let quotedTable = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let quotedColumn = "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let statement = try sqlite.makeStatement(
                "SELECT i.key FROM trove_items i JOIN \(quotedTable) x ON x.rowid = i.rowid WHERE x.\(quotedColumn) = ?1 ORDER BY i.key")
            switch type {
            case "INTEGER":
                let number = value == "true" ? 1 : value == "false" ? 0 : Int64(value)
                guard let number else { return [] }
                try statement.bind(number, at: 1)
            case "REAL":
                guard let number = Double(value) else { return [] }
                try statement.bind(number, at: 1)
            default:
                try statement.bind(value, at: 1)
            }
            var keys: [String] = []
            while try statement.step() {
                keys.append(statement.string(at: 0))
            }
            return keys
        }
        return nil
    }
}

extension Database {
    /// Changes the encryption key of the database file at `path`: encrypts a plain file (`from`
    /// `nil`), encrypts an encrypted one again with another key, or decrypts it (`to` `nil`).
    ///
    /// ```swift
    /// try Database.changeEncryptionKey(ofFileAt: path, from: .passphrase(old), to: .passphrase(new))
    /// ```
    ///
    /// The file is copied beside itself (`<path>.rekeying`), the copy takes the new key, and it
    /// replaces the file in one rename: a process killed at any moment leaves the file readable
    /// with the old key or with the new one, never with neither (a copy left behind is removed by
    /// the next change). It needs free disk space of the file's size, no connection or process
    /// with the file open (close the ``Database`` first), and Trove built with its package trait
    /// `Encryption`. The file keeps its permissions.
    ///
    /// Complexity: O(n) in the size of the file.
    ///
    /// - Parameters:
    ///   - path: The path of a Trove file.
    ///   - oldKey: Its key now, or `nil` when it is not encrypted.
    ///   - newKey: Its new key, or `nil` to decrypt it.
    /// - Throws: ``TroveError``: ``TroveError/Code/encryptionKey`` when `oldKey` does not open the
    ///   file; ``TroveError/Code/misuse`` without the `Encryption` trait or while the file is open
    ///   elsewhere; what SQLite or the file system throws.
    public static func changeEncryptionKey(ofFileAt path: String, from oldKey: EncryptionKey?, to newKey: EncryptionKey?)
        throws
    {
        try checkPath(path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw TroveError(code: .misuse, message: "There is no database file at '\(path)' whose key could change.", path: path)
        }
        guard EncryptionKey.isAvailable else {
            throw TroveError(
                code: .misuse,
                message: "The encryption key of '\(path)' cannot change: this build of Trove has no encryption. Enable Trove's package trait \"Encryption\".",
                path: path)
        }
        let copy = path + ".rekeying"
        func removeCopy() {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
        }
        removeCopy()
        let source = try SQLiteConnection(path: path, access: .readWrite, key: oldKey, busyTimeoutMilliseconds: 1_000)
        // Read before anything is written: a file the key does not open, or an encrypted one
        // without its key, fails here with the error an open gives.
        _ = try readHeader(source)
        try source.takeExclusiveAccess()
        // A read transaction until the copy replaces the file: no writer can commit meanwhile.
        try source.execute("BEGIN")
        defer { try? source.execute("COMMIT") }
        _ = try integer(source, "SELECT count(*) FROM sqlite_master")
        let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0o600
        do {
            FilePermissions.create(copy, mode: mode)
            let destination = try SQLiteConnection(path: copy, access: .readWriteCreate, key: oldKey)
            try source.backup(
                into: destination, pagesPerStep: 4_096, progress: nil,
                describe: "The copy of '\(path)' made to change its encryption key failed.")
            try destination.changeKey(to: newKey)
            try FilePermissions.replace(path, with: copy)
        } catch {
            removeCopy()
            throw error
        }
    }
}

/// The key of a backup's copy (``Database/backup(to:encryption:pagesPerStep:progress:)``).
public struct BackupEncryption: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case sameKey
        case key(EncryptionKey)
        case none
    }

    let kind: Kind

    /// The database's own key: an encrypted database's copy is encrypted with it, a plain
    /// database's copy is plain.
    public static let sameKey = BackupEncryption(kind: .sameKey)
    /// No encryption: the copy is plain, whatever the database.
    public static let none = BackupEncryption(kind: .none)

    /// Another key.
    ///
    /// - Parameter key: The key of the copy.
    /// - Returns: The choice.
    public static func key(_ key: EncryptionKey) -> BackupEncryption {
        BackupEncryption(kind: .key(key))
    }
}
