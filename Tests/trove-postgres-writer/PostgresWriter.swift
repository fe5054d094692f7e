import Foundation
import Trove
import TrovePostgres

/// The child process of the killed-instance test (`TrovePostgresTests/KilledInstanceTests`).
///
/// ```
/// trove-postgres-writer <url> <schema> <name>
/// ```
///
/// Commits, again and again until it is killed, one transaction that writes the item
/// `<name>-<n>` and increments the shared total (a read-modify-write that other writers race),
/// then prints `committed <n>`. It prints a line only after `write` returned: every line is a
/// promise that the test holds the store to after it kills this process with SIGKILL.
@main
struct PostgresWriter {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 4 else { fail("usage: trove-postgres-writer <url> <schema> <name>") }
        do {
            try await write(url: arguments[1], schema: arguments[2], name: arguments[3])
        } catch {
            fail("error: \(error)")
        }
    }

    /// The loop of commits, off the main actor (`main` runs on it), until the process is killed.
    static func write(url: String, schema: String, name: String) async throws {
        var configuration = try PostgresStore.Configuration(url: url)
        configuration.schema = schema
        // Several writers race for the total: conflicts are expected, and never the end.
        configuration.maximumWriteAttempts = 10_000
        let store = try await PostgresStore.open(configuration: configuration)
        say("open")
        for number in 0... {
            try await store.write { tx in
                let total = try await tx.read(KillTally.self, key: KillTally.totalKey)?.value ?? 0
                try await tx.write(KillTally(id: KillTally.key(writer: name, commit: number), value: number))
                try await tx.write(KillTally(id: KillTally.totalKey, value: total + 1))
            }
            say("committed \(number)")
        }
    }

    /// Writes a line to standard output without buffering: one write(2) of less than PIPE_BUF
    /// bytes, so the test reads either the whole line or none of it.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
