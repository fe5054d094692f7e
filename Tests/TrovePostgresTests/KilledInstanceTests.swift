import Foundation
import Synchronization
import Testing
import Trove
import TrovePostgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Instances that die without a goodbye: two `trove-postgres-writer` processes commit to one
/// schema, racing for a shared total, and are killed with SIGKILL at a random moment. Every
/// commit a writer acknowledged (printed after `readWrite` returned) is in the store afterwards,
/// and the total counts every commit that is there: no update lost between processes.
///
/// A writer may have committed one more transaction than it printed (killed between the commit
/// and the line), never more.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct KilledInstanceTests {
    /// How long a writer may take to acknowledge its first commits: generous, for a loaded
    /// machine; only a broken writer or store reaches it.
    static let commitTimeout: Duration = .seconds(60)

    @Test func killedWritersLoseNothingTheyAcknowledged() async throws {
        let schema = TestServer.freshSchema()
        // The schema exists before the writers race to create it.
        let store = try await TestServer.openStore(schema: schema)
        var acknowledgedCommits = 0
        for round in 0..<3 {
            let names = ["a\(round)", "b\(round)"]
            let writers = try names.map { try WriterProcess(url: try #require(TestServer.url), schema: schema, name: $0) }
            // Each writer acknowledges a few commits, then both die at a random moment.
            for writer in writers {
                let started = writer.waitForLine(timeout: Self.commitTimeout) { $0 == "committed 4" }
                #expect(started, "writer \(writer.name) acknowledged no 5 commits in \(Self.commitTimeout): \(writer.errors)")
            }
            usleep(UInt32.random(in: 0...100_000))
            for writer in writers {
                if let problem = writer.sigkill() { Issue.record("\(writer.name): \(problem)") }
            }

            let stored = try await store.read { tx in try await tx.keys(in: KillTally.collection) }
            let storedSet = Set(stored)
            for writer in writers {
                let acknowledged = writer.lines.compactMap { line -> Int? in
                    line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
                }
                let last = try #require(acknowledged.max(), "writer \(writer.name) acknowledged nothing")
                #expect(acknowledged == Array(0...last), "writer \(writer.name) printed its commits out of order")
                acknowledgedCommits += acknowledged.count
                let lost = (0...last).filter { !storedSet.contains(KillTally.key(writer: writer.name, commit: $0)) }
                #expect(lost.isEmpty, "round \(round): acknowledged commits of \(writer.name) lost: \(lost)")
                // At most one commit more than acknowledged: the one killed before its line.
                let beyond = stored.filter {
                    $0.hasPrefix(writer.name + "-") && Int($0.dropFirst(writer.name.count + 1))! > last + 1
                }
                #expect(beyond.isEmpty, "round \(round): \(writer.name) committed more than it could have: \(beyond)")
            }
            // The shared total counts every commit stored, from both writers of every round.
            let total = try await store.read { tx in try await tx.read(KillTally.self, key: KillTally.totalKey) }
            #expect(total?.value == stored.count - 1, "round \(round): the total lost updates")
        }
        #expect(acknowledgedCommits >= 30)
        await TestServer.dispose(store)
    }
}

/// A running `trove-postgres-writer`, whose standard output is collected line by line.
final class WriterProcess {
    let name: String
    private let process: Process
    private let output = LineCollector()
    private let readerDone = DispatchSemaphore(value: 0)

    /// Starts the writer `name` on `schema` of the server at `url`.
    init(url: String, schema: String, name: String) throws {
        self.name = name
        let process = Process()
        process.executableURL = try Self.executableURL()
        process.arguments = [url, schema, name]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        // No Swift crash backtracer in the child: it would hold the pipes open after the kill.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        try process.run()
        self.process = process
        // One thread reads both pipes to their end (the child's death closes them).
        let output = self.output
        let readerDone = self.readerDone
        Thread {
            while true {
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                output.append(chunk)
            }
            output.setErrors(stderr.fileHandleForReading.readDataToEndOfFile())
            readerDone.signal()
        }.start()
    }

    /// The complete lines printed so far.
    var lines: [String] { output.lines }

    /// What the writer printed on standard error.
    var errors: String { output.errors }

    /// Waits until a printed line satisfies `predicate`, the writer ends, or `timeout` passes.
    func waitForLine(timeout: Duration, where predicate: (String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if lines.contains(where: predicate) { return true }
            if !process.isRunning {
                _ = readerDone.wait(timeout: .now() + 10)
                return lines.contains(where: predicate)
            }
            usleep(2_000)
        }
        return false
    }

    /// Sends SIGKILL and waits for the writer to die and its output to be read to the end.
    ///
    /// - Returns: `nil` when it died of the SIGKILL, otherwise how it ended.
    func sigkill() -> String? {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        _ = readerDone.wait(timeout: .now() + 10)
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL { return nil }
        return "ended by itself (status \(process.terminationStatus)) before the kill: \(errors)"
    }

    /// `trove-postgres-writer`, next to the test binary in the build products folder.
    static func executableURL() throws -> URL {
        #if os(Linux)
            let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
            let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
        var folder = testBinary.deletingLastPathComponent()
        while folder.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
            folder = folder.deletingLastPathComponent()
        }
        let candidate = folder.appendingPathComponent("trove-postgres-writer")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw TroveError(
                code: .misuse,
                message: "trove-postgres-writer was not found at \(candidate.path): build it with `swift build --build-tests`.")
        }
        return candidate
    }
}

/// The output of a child process, split into lines as it comes; shared with its reader thread.
final class LineCollector: Sendable {
    private let state = Mutex<(lines: [String], partial: Data, errors: Data)>(([], Data(), Data()))

    /// Adds `chunk` of standard output; completes the lines it ends.
    func append(_ chunk: Data) {
        state.withLock { output in
            output.partial.append(chunk)
            while let newline = output.partial.firstIndex(of: UInt8(ascii: "\n")) {
                output.lines.append(String(decoding: output.partial[output.partial.startIndex..<newline], as: UTF8.self))
                output.partial.removeSubrange(output.partial.startIndex...newline)
            }
        }
    }

    /// Sets what was printed on standard error.
    func setErrors(_ data: Data) {
        state.withLock { $0.errors = data }
    }

    /// The complete lines so far (a line cut by a kill is not one).
    var lines: [String] { state.withLock { $0.lines } }

    /// Standard error, once the child ended.
    var errors: String { state.withLock { String(decoding: $0.errors, as: UTF8.self) } }
}
