import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process of a test (a writer to crash, a second instance to kill), whose standard
/// output is collected line by line as it comes: the one launcher of the reliability tests
/// (`trove-crash-writer`) and of the PostgreSQL tests (`trove-postgres-writer`).
public final class ChildProcess {
    private let process: Process
    private let output = LineCollector()
    private let readerDone = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - executable: The program, such as ``builtExecutable(named:overrideVariable:)`` finds.
    ///   - arguments: Its arguments.
    ///   - environment: Variables to set (a value) or to remove (`nil`) in the child's copy of
    ///     this process's environment.
    ///   - input: What the child reads on standard input, then its end; empty by default.
    /// - Throws: When the program cannot be started.
    public init(
        executable: URL, arguments: [String], environment changes: [String: String?] = [:], input: Data = Data()
    ) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let stdin = input.isEmpty ? nil : Pipe()
        process.standardInput = stdin ?? FileHandle.nullDevice
        // No Swift crash backtracer in the child: it would hold the output pipes open after the
        // kill, and a crash must show as the child ending by itself.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        for (name, value) in changes { environment[name] = value }
        process.environment = environment
        try process.run()
        if let stdin {
            // Small enough for the pipe's buffer: written whole before the child reads it.
            try stdin.fileHandleForWriting.write(contentsOf: input)
            try stdin.fileHandleForWriting.close()
        }
        self.process = process
        let output = self.output
        let readerDone = self.readerDone
        // One thread reads both pipes to their end (the child's death closes them).
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

    /// The complete lines printed so far. A line cut by a kill is not included.
    public var lines: [String] { output.lines }

    /// Waits (10 s at most) for the reading thread to reach the end of the output; once it has,
    /// every later call returns at once (the semaphore is signalled again for the next caller).
    private func waitForReader() {
        if readerDone.wait(timeout: .now() + 10) == .success { readerDone.signal() }
    }

    /// Whether the child is still running: what an async test polls instead of blocking its
    /// thread in ``waitForExit()``.
    public var isRunning: Bool { process.isRunning }

    /// What the child printed on standard error (complete once it ended).
    public var errors: String { output.errors }

    /// Waits until a printed line satisfies `predicate`, the child ends, or `timeout` passes.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait at most.
    ///   - predicate: What the line must satisfy.
    /// - Returns: Whether such a line was printed.
    public func waitForLine(timeout: Duration, where predicate: (String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output.lines.contains(where: predicate) { return true }
            if !process.isRunning {
                // Ended: what it printed last may still be in the pipe.
                waitForReader()
                return output.lines.contains(where: predicate)
            }
            usleep(1_000)
        }
        return false
    }

    /// Waits for the child to end by itself and for its output to be read to the end.
    ///
    /// - Returns: Its exit status, or `nil` when it did not exit normally (a signal).
    public func waitForExit() -> Int32? {
        process.waitUntilExit()
        waitForReader()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// Sends SIGKILL, waits for the child to die and for its output to be read to the end.
    ///
    /// - Returns: How the child ended: `nil` when it died of the SIGKILL, otherwise a
    ///   description of its exit and of what it printed on standard error.
    public func sigkill() -> String? {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // The pipes close when the child dies, unless it left a process behind that holds them.
        waitForReader()
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
            return nil
        }
        return
            "the child ended by itself (reason \(process.terminationReason.rawValue), status \(process.terminationStatus)) before it was killed: \(errors)"
    }

    /// An executable of this package that building the tests builds: `$overrideVariable` when
    /// set, otherwise `name` next to the test binary in the build products folder.
    ///
    /// - Parameters:
    ///   - name: The executable's name, such as `trove-crash-writer`.
    ///   - overrideVariable: An environment variable that may name its path instead.
    /// - Returns: Its location.
    /// - Throws: ``MissingExecutable`` when it is not there, saying how to build it.
    public static func builtExecutable(named name: String, overrideVariable: String? = nil) throws -> URL {
        if let overrideVariable, let path = ProcessInfo.processInfo.environment[overrideVariable] {
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
        let candidate = folder.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            let override = overrideVariable.map { ", or set \($0) to its path" } ?? ""
            throw MissingExecutable(
                description:
                    "\(name) was not found at \(candidate.path). Build it with `swift build --build-tests` (or `swift build --product \(name)`) before `swift test`\(override)."
            )
        }
        return candidate
    }

    /// A child's executable that is not built.
    public struct MissingExecutable: Error, CustomStringConvertible {
        /// Where it was looked for and how to build it.
        public let description: String
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
