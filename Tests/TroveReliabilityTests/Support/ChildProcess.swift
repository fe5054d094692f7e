import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running `trove-crash-writer`, whose standard output is collected line by line as it comes.
final class CrashWriterProcess {
    private let process: Process
    private let output = LockedOutput()
    private let readerDone = DispatchSemaphore(value: 0)

    private struct Output {
        var lines: [String] = []
        var partial = Data()
        var errors = Data()
    }

    private final class LockedOutput: Sendable {
        let state = Mutex(Output())
        func withLock<T>(_ body: (inout Output) -> T) -> T { state.withLock { body(&$0) } }
    }

    /// Starts the child in `mode` on the database at `path`, with `extra` arguments.
    init(mode: String, path: String, extra: [String] = []) throws {
        let executable = try CrashWriterProcess.executableURL()
        let process = Process()
        process.executableURL = executable
        process.arguments = [mode, path] + extra
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        // No Swift crash backtracer in the child: it would hold the output pipes open after the
        // kill, and a crash must show as the child ending by itself.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        try process.run()
        self.process = process
        let output = self.output
        let readerDone = self.readerDone
        // One thread reads both pipes to their end (the child's death closes them).
        let reader = Thread {
            let out = stdout.fileHandleForReading
            let err = stderr.fileHandleForReading
            while true {
                let chunk = out.availableData
                if chunk.isEmpty { break }
                output.withLock { output in
                    output.partial.append(chunk)
                    while let newline = output.partial.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = output.partial[output.partial.startIndex..<newline]
                        output.lines.append(String(decoding: line, as: UTF8.self))
                        output.partial.removeSubrange(output.partial.startIndex...newline)
                    }
                }
            }
            let errors = err.readDataToEndOfFile()
            output.withLock { $0.errors = errors }
            readerDone.signal()
        }
        reader.start()
    }

    /// The complete lines printed so far. A line cut by the kill is not included.
    var lines: [String] {
        output.withLock { $0.lines }
    }

    /// Waits until a printed line satisfies `predicate`, the child ends, or `timeout` passes.
    ///
    /// - Returns: Whether such a line was printed.
    func waitForLine(timeout: Duration, where predicate: (String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output.withLock({ $0.lines.contains(where: predicate) }) { return true }
            if !process.isRunning { return output.withLock { $0.lines.contains(where: predicate) } }
            usleep(1_000)
        }
        return false
    }

    /// Waits for the child to end by itself and for its output to be read to the end.
    ///
    /// - Returns: Its exit status, or `nil` when it did not exit normally (a signal).
    func waitForExit() -> Int32? {
        process.waitUntilExit()
        _ = readerDone.wait(timeout: .now() + 10)
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// What the child printed on standard error, once it ended.
    var errors: String {
        output.withLock { String(decoding: $0.errors, as: UTF8.self) }
    }

    /// Sends SIGKILL, waits for the child to die and for its output to be read to the end.
    ///
    /// - Returns: How the child ended: `nil` when it died of the SIGKILL, otherwise a
    ///   description of its exit and of what it printed on standard error.
    func sigkill() -> String? {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // The pipes close when the child dies, unless it left a process behind that holds them.
        _ = readerDone.wait(timeout: .now() + 10)
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
            return nil
        }
        let errors = output.withLock { String(decoding: $0.errors, as: UTF8.self) }
        return
            "the child ended by itself (reason \(process.terminationReason.rawValue), status \(process.terminationStatus)) before it was killed: \(errors)"
    }

    /// Where the `trove-crash-writer` executable is: `$TROVE_CRASH_WRITER`, or next to the test
    /// bundle in the build products folder, where building the tests puts it.
    static func executableURL() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["TROVE_CRASH_WRITER"] {
            return URL(fileURLWithPath: path)
        }
        #if os(Linux)
            let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
            let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
        var folder = testBinary.deletingLastPathComponent()
        // On Apple platforms the test binary is inside TrovePackageTests.xctest/Contents/MacOS.
        while folder.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
            folder = folder.deletingLastPathComponent()
        }
        let candidate = folder.appendingPathComponent("trove-crash-writer")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw MissingExecutable(
                description:
                    "trove-crash-writer was not found at \(candidate.path). Build it with `swift build --build-tests` (or `swift build --product trove-crash-writer`) before `swift test`, or set TROVE_CRASH_WRITER to its path."
            )
        }
        return candidate
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        let description: String
    }
}
