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
