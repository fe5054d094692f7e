/// How ``Database/checkpoint(_:)`` copies the write-ahead log into the database file.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>
public enum CheckpointMode: String, Sendable, Hashable, CaseIterable {
    /// Copies as many frames as it can without waiting for readers or writers.
    case passive
    /// Waits for the writer, then copies every frame, waiting for readers of older snapshots.
    case full
    /// As ``full``, and then waits until no reader uses the log, so that the next writer starts
    /// it over from the beginning.
    case restart
    /// As ``restart``, and truncates the log file to zero bytes.
    case truncate
}

/// What a checkpoint did: the frames in the write-ahead log and how many are in the database file.
public struct CheckpointResult: Sendable, Hashable {
    /// The frames in the write-ahead log when the checkpoint ended (0 after a complete
    /// ``CheckpointMode/truncate`` or ``CheckpointMode/restart``).
    public var logFrameCount: Int
    /// The frames of the log copied into the database file.
    public var checkpointedFrameCount: Int
    /// Whether the checkpoint did all its mode asks: `false` when a reader or the writer kept
    /// it from finishing within the busy timeout (``Configuration/busyTimeoutMilliseconds``).
    public var isComplete: Bool

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - logFrameCount: The frames in the log.
    ///   - checkpointedFrameCount: The frames copied into the database file.
    ///   - isComplete: Whether the checkpoint did all its mode asks.
    public init(logFrameCount: Int, checkpointedFrameCount: Int, isComplete: Bool) {
        self.logFrameCount = logFrameCount
        self.checkpointedFrameCount = checkpointedFrameCount
        self.isComplete = isComplete
    }
}

/// The sizes of a database's files and pages (see ``Database/fileSizes()``).
public struct DatabaseFileSizes: Sendable, Hashable {
    /// The size of a page, in bytes.
    public var pageSize: Int
    /// The pages of the database, as the latest commit sees them (some may still be in the log).
    public var pageCount: Int
    /// The pages that hold nothing: ``Database/vacuum()`` gives them back to the file system.
    public var freePageCount: Int
    /// The size of the database file on disk, in bytes.
    public var fileBytes: Int64
    /// The size of the write-ahead log file (`-wal`) on disk, in bytes; 0 when there is none.
    public var walBytes: Int64

    /// Creates file sizes.
    ///
    /// - Parameters:
    ///   - pageSize: The size of a page, in bytes.
    ///   - pageCount: The pages of the database.
    ///   - freePageCount: The free pages.
    ///   - fileBytes: The size of the database file.
    ///   - walBytes: The size of the write-ahead log file.
    public init(pageSize: Int, pageCount: Int, freePageCount: Int, fileBytes: Int64, walBytes: Int64) {
        self.pageSize = pageSize
        self.pageCount = pageCount
        self.freePageCount = freePageCount
        self.fileBytes = fileBytes
        self.walBytes = walBytes
    }
}

/// How many items a collection holds and how many bytes they take (see
/// ``Database/collectionStatistics()``).
public struct CollectionStatistics: Sendable, Hashable {
    /// The collection.
    public var collection: String
    /// Its items.
    public var count: Int
    /// The bytes of its items' encoded data.
    public var dataBytes: Int64
    /// The bytes of its items' encoded metadata.
    public var metadataBytes: Int64
    /// The bytes of data and metadata together (keys and SQLite's own overhead not counted).
    public var bytes: Int64 { dataBytes + metadataBytes }

    /// Creates statistics.
    ///
    /// - Parameters:
    ///   - collection: The collection.
    ///   - count: Its items.
    ///   - dataBytes: The bytes of their data.
    ///   - metadataBytes: The bytes of their metadata.
    public init(collection: String, count: Int, dataBytes: Int64, metadataBytes: Int64) {
        self.collection = collection
        self.count = count
        self.dataBytes = dataBytes
        self.metadataBytes = metadataBytes
    }
}

/// How far a ``Database/backup(to:pagesPerStep:progress:)`` is.
public struct BackupProgress: Sendable, Hashable {
    /// The pages copied so far.
    public var copiedPageCount: Int
    /// The pages of the database being copied.
    public var totalPageCount: Int

    /// Creates a progress report.
    ///
    /// - Parameters:
    ///   - copiedPageCount: The pages copied so far.
    ///   - totalPageCount: The pages to copy.
    public init(copiedPageCount: Int, totalPageCount: Int) {
        self.copiedPageCount = copiedPageCount
        self.totalPageCount = totalPageCount
    }
}

/// An extension as the file records it (see ``Database/extensionRecords()``), whether or not this
/// process registered it.
public struct ExtensionRecord: Sendable, Hashable {
    /// The extension's name.
    public var name: String
    /// What it is (`secondaryIndex`, `fullTextSearch`, …).
    public var kind: String
    /// The version it was built with.
    public var version: Int
    /// The collection it follows.
    public var collection: String
    /// `ready` when it is in step with the items, `stale` when a process wrote to its collection
    /// without maintaining it (the next write of a process that registers it rebuilds it).
    public var state: String

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - name: The extension's name.
    ///   - kind: What it is.
    ///   - version: Its version.
    ///   - collection: The collection it follows.
    ///   - state: Its state.
    public init(name: String, kind: String, version: Int, collection: String, state: String) {
        self.name = name
        self.kind = kind
        self.version = version
        self.collection = collection
        self.state = state
    }
}

/// What ``Database/integrityCheck()`` found: each problem SQLite reports, in SQLite's words.
///
/// ```swift
/// let result = try database.integrityCheck()
/// if !result.isOK {
///     for problem in result.problems { print(problem) }
/// }
/// ```
public struct IntegrityCheckResult: Sendable, Hashable {
    /// The problems found, one line each, in SQLite's words ("On tree page 18 cell 0: invalid
    /// page number 1248008601"); empty when the file is sound. SQLite stops listing after 100.
    public var problems: [String]

    /// Whether the file is sound: SQLite found no problem.
    public var isOK: Bool { problems.isEmpty }

    /// Creates a result.
    ///
    /// - Parameter problems: The problems found, one line each.
    public init(problems: [String]) {
        self.problems = problems
    }
}
