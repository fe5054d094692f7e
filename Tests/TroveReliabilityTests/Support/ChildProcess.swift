import Foundation
import TroveTestSupport

/// A running `trove-crash-writer`: TroveTestSupport's ``TroveTestSupport/ChildProcess``, the
/// launcher the PostgreSQL tests share.
typealias CrashWriterProcess = ChildProcess

extension ChildProcess {
    /// Starts `trove-crash-writer` in `mode` on the database at `path`, with `extra` arguments.
    convenience init(mode: String, path: String, extra: [String] = []) throws {
        try self.init(executable: Self.executableURL(), arguments: [mode, path] + extra)
    }

    /// Where the `trove-crash-writer` executable is: `$TROVE_CRASH_WRITER`, or next to the test
    /// bundle in the build products folder, where building the tests puts it.
    static func executableURL() throws -> URL {
        try builtExecutable(named: "trove-crash-writer", overrideVariable: "TROVE_CRASH_WRITER")
    }
}
