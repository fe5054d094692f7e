import Foundation

/// How a ``Database`` opens its file and how its connections behave.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.synchronous = .full
/// configuration.itemCacheLimit = 10_000
/// let database = try Database(path: path, configuration: configuration)
/// ```
public struct Configuration: Sendable, Hashable {
    /// How often SQLite waits for data to reach the disk.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_synchronous>
    public enum Synchronous: String, Sendable, Hashable {
        /// No syncs: fastest, but a power loss can corrupt the database.
        case off = "OFF"
        /// In WAL mode, syncs at checkpoints only: a commit survives a crash of the process, and a
        /// power loss may roll back the last commits but never corrupts. The default.
        case normal = "NORMAL"
        /// Syncs the WAL at every commit: a commit also survives a power loss.
        case full = "FULL"
        /// As ``full``, and also syncs the directory.
        case extra = "EXTRA"
    }

    /// The `synchronous` setting of every connection. Default: ``Synchronous/normal``.
    public var synchronous: Synchronous = .normal

    /// How long a connection waits for a lock held by another process before failing with
    /// `SQLITE_BUSY`, in milliseconds. Default: 5,000.
    ///
    /// Within one process, Trove serializes writers itself, so this matters only when several
    /// processes share the file. A writer waits at least half a second for the write lock whatever
    /// this says: SQLite's readers take that lock for an instant when they find the log's index
    /// being updated, and a writer of this process that starts in that instant must not fail.
    public var busyTimeoutMilliseconds: Int = 5_000

    /// How many decoded items each connection keeps in its cache. `0` disables the cache.
    /// Default: 1,000.
    public var itemCacheLimit: Int = 1_000

    /// How many decoded metadata values each connection keeps in its cache. `0` disables the
    /// cache. Default: 1,000.
    ///
    /// This cache holds the metadata read or written without its item. The metadata of a cached
    /// item comes from the item cache (``itemCacheLimit``).
    public var metadataCacheLimit: Int = 1_000

    /// How many recent changesets the database keeps so that a connection that has fallen behind
    /// can invalidate exactly what changed. A connection further behind empties its caches.
    /// Default: 1,000. The oldest are dropped in batches, so up to a quarter more may be kept.
    public var changesetHistoryLimit: Int = 1_000

    /// The most pages the database file may grow to, or `nil` for SQLite's limit. Default: `nil`.
    ///
    /// A write that would grow the database past it fails with a ``TroveError`` whose
    /// ``TroveError/sqliteResultCode`` is `SQLITE_FULL`, as on a full disk: its transaction is
    /// rolled back and everything committed before stays readable. Use it to cap the size of a
    /// cache database, or to test how an application handles a full disk. A page is 4,096 bytes
    /// unless the file says otherwise.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_max_page_count>
    public var maximumPageCount: Int?

    /// The size of a page of a new database file, in bytes: a power of two from 512 to 65,536,
    /// or `nil` for SQLite's default (4,096). Default: `nil`.
    ///
    /// Only a file that Trove creates takes it: the page size of an existing file in WAL mode
    /// cannot change.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_page_size>
    public var pageSize: Int?

    /// How many bytes of the file each connection reads through memory-mapped I/O, or `nil` for
    /// SQLite's default (none). Default: `nil`.
    ///
    /// Mapping the file saves copying pages into SQLite's cache, which speeds up reads of large
    /// databases; an I/O error on a mapped page stops the process instead of failing a call.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/mmap.html>
    public var mmapSize: Int?

    /// The size of SQLite's page cache of each connection, in kibibytes, or `nil` for SQLite's
    /// default (2,000 KiB). Default: `nil`.
    ///
    /// This cache holds pages of the file, below Trove's caches of decoded items.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_cache_size>
    public var sqliteCacheSizeKiB: Int?

    /// After how many pages in the write-ahead log a commit checkpoints it into the database
    /// file, or `nil` for SQLite's default (1,000). `0` turns automatic checkpoints off.
    /// Default: `nil`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_wal_autocheckpoint>
    public var walAutocheckpointPages: Int?

    /// The size in bytes the write-ahead log is truncated to after a checkpoint, or `nil` for
    /// SQLite's default (no limit: the log keeps the largest size it reached). Default: `nil`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_journal_size_limit>
    public var journalSizeLimit: Int?

    /// How many decoded items of ``ShareableItem`` types the connections of the database share,
    /// so that such an item is decoded once, not once per connection. `0` turns sharing off.
    /// Default: 0.
    public var sharedItemCacheLimit: Int = 0

    /// How many connections the database opens, at most, for its own read transactions
    /// (`Database.read(label:fileID:line:_:)`), which run in parallel up to this number.
    /// Default: the number of active processor cores, at least 2.
    ///
    /// Each reader opens at its first transaction and keeps its own caches
    /// (``itemCacheLimit``). Read transactions beyond this number wait for a reader, first come,
    /// first served, without holding a thread. Values below 1 count as 1.
    public var maximumReaderCount: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)

    /// How long a transaction of the database's own connections may run before it is reported,
    /// once, or `nil` to report none. Default: 10 seconds.
    ///
    /// A report is a line on the standard error unless ``Database/setLongTransactionHandler(_:)``
    /// set a handler. ``Database/transactionsInProgress`` lists the transactions at any time.
    public var longTransactionThreshold: Duration? = .seconds(10)
    /// How often the database checks whether another process committed to the file, while
    /// something observes it (a ``Database/observe(_:)`` observation or a loop over
    /// ``Database/changes``), or `nil` to never check. Default: 100 milliseconds.
    ///
    /// The check reads SQLite's `PRAGMA data_version` on a connection of its own, opened when the
    /// first observer starts and closed, with its timer, when the last one ends: a database
    /// nobody observes does no work for it. When the file changed and no commit of this
    /// `Database` explains it, the caches of every connection are emptied, ``Database/changes``
    /// delivers a changeset whose ``Changeset/reloadReason`` is
    /// ``Changeset/ReloadReason/externalChange``, and every observation runs again. Such a
    /// commit is therefore noticed within about one interval.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_data_version>
    public var externalChangePollingInterval: Duration? = .milliseconds(100)

    /// How many changesets each loop over ``Database/changes`` may have waiting before it falls
    /// behind. Default: 1,000.
    ///
    /// When a changeset arrives for a loop that already has this many waiting, they are all
    /// dropped, with the new one, and the loop receives instead one changeset whose
    /// ``Changeset/reloadReason`` is ``Changeset/ReloadReason/missedChanges``: it should reload
    /// what it derives from the database. The changesets after it arrive normally. A slow loop
    /// therefore never holds more than this many changesets. Values below 1 count as 1.
    public var changesBufferLimit: Int = 1_000

    /// Whether the database opens its file read-only: opening then never writes to the file (no
    /// schema creation, no migration, no change of journal mode) and every write fails with a
    /// ``TroveError`` of code ``TroveError/Code/readOnly``. Default: `false`.
    ///
    /// Use it to inspect a file that another process may be using, as the `trove` command does.
    /// The file must exist and be a Trove file of the current schema version. In WAL mode SQLite
    /// may still create the `-wal` and `-shm` files beside it, which hold no data of their own.
    public var isReadOnly: Bool = false

    /// The key of the file, for an encrypted database (``EncryptionKey``), or `nil` (the
    /// default) for a file that is not encrypted. A new file opened with a key is encrypted with
    /// it from its first page; every connection of the database opens with it.
    ///
    /// A wrong key, or a missing one for an encrypted file, fails the open with a ``TroveError``
    /// of code ``TroveError/Code/encryptionKey``, before anything is written. A key needs Trove
    /// built with its package trait `Encryption` (``EncryptionKey/isAvailable``); otherwise the
    /// open fails with ``TroveError/Code/misuse``. Change or remove the key of a file with
    /// ``Database/changeEncryptionKey(ofFileAt:from:to:)``.
    public var encryptionKey: EncryptionKey?

    /// Creates the default configuration.
    public init() {}
}
