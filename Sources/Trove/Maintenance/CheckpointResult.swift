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
