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
