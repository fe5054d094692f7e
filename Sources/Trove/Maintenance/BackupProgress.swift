/// How far a ``Database/backup(to:encryption:pagesPerStep:progress:)`` is.
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
