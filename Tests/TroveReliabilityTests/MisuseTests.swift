import Foundation
import Testing
import Trove
import TroveTestSupport

/// Misuse of transactions. What the compiler can refuse, it refuses: a read transaction has no
/// write API, and a transaction cannot be sent to another thread or task (both proven by
/// compiling the files in `CompileChecks/`). What only shows at run time stops the program
/// with a message that names the misuse, instead of corrupting memory or deadlocking: a
/// transaction used after its closure, a nested transaction on the same connection. The exit
/// tests of `ConnectionTests` cover a nested read, a nested `write` on another connection
/// and a read transaction used after its closure; these add the other shapes and check the
/// messages. The entry points meant only for generated code are refused too, to code that does
/// not import them with `@_spi(TroveGenerated)`.
@Suite
struct MisuseTests {
    static let nestedMessage = "Nested transactions are not supported"
    static let escapedMessage = "a transaction was used after its closure returned"

    // MARK: Refused by the compiler

    /// Whether the compile checks can run here. They compile against the modules SwiftPM built
    /// for the tests, which on Linux are in `Modules/` beside the products (found from
    /// `trove-crash-writer`); on other platforms the layout differs (macOS: `.swiftmodule`
    /// folders in the products folder; Xcode: elsewhere again), so the checks are skipped there,
    /// and reported as skipped, instead of passing without having compiled anything.
    static var canCompileChecks: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    @Test(
        .enabled(
            if: MisuseTests.canCompileChecks, "the compile checks find the built modules only in the Linux layout"),
        arguments: [
            ("RefusedByTheTypeChecker.swift.txt", "the type checker"),
            ("RefusedBySendingChecks.swift.txt", "the checks of sending"),
            ("RefusedWithoutTheGeneratedSPI.swift.txt", "the SPI of generated code"),
        ])
    func misuseDoesNotCompile(file: String, checker: String) throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "CompileChecks/\(file)")
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let products = try CrashWriterProcess.executableURL().deletingLastPathComponent()
        let modules = products.appendingPathComponent("Modules")
        // The module map SwiftPM makes for the C target of SQLite.
        let sqliteModuleMap = products.appendingPathComponent("TroveCSQLite.build/module.modulemap")
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/Misuse.swift"
        try FileManager.default.copyItem(atPath: source.path, toPath: input)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            ProcessInfo.processInfo.environment["TROVE_SWIFTC"] ?? "swiftc", "-emit-sil", "-o", "/dev/null",
            "-parse-as-library", "-swift-version", "6", "-module-cache-path", folder + "/cache",
            "-I", modules.path, "-Xcc", "-fmodule-map-file=\(sqliteModuleMap.path)", "-I",
            packageRoot.appendingPathComponent("Sources/TroveCSQLite/include").path, input,
        ]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let diagnostics = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        let lines = try String(contentsOf: source, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let expected = Set(lines.indices.filter { lines[$0].hasSuffix("// expected-error") }.map { $0 + 1 })
        var found: Set<Int> = []
        for line in diagnostics.split(separator: "\n")
        where line.hasPrefix(input + ":") && line.contains(": error: ") {
            if let number = Int(line.dropFirst(input.count + 1).prefix { $0.isNumber }) { found.insert(number) }
        }
        #expect(process.terminationStatus != 0)
        #expect(!expected.isEmpty)
        #expect(
            found == expected,
            "\(checker) should refuse exactly the lines \(expected.sorted()) of \(file), it refused \(found.sorted()):\n\(diagnostics.prefix(4_000))"
        )
    }

    // MARK: Stopped at run time

    #if compiler(>=6.2)
        @Test func aReadWriteInsideAReadOfTheSameConnectionStopsWithAMessage() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let connection = try! makeTemporaryDatabase().newConnection()
                try! connection.read { _ in
                    _ = try! connection.write { tx in try tx.removeAllItems() }
                }
            }
            expectMessage(MisuseTests.nestedMessage, in: result)
        }

        @Test func aReadInsideAReadWriteOfTheSameConnectionStopsWithAMessage() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let connection = try! makeTemporaryDatabase().newConnection()
                try! connection.write { _ in
                    _ = try! connection.read { tx in try tx.count() }
                }
            }
            expectMessage(MisuseTests.nestedMessage, in: result)
        }

        @Test func aSynchronousTransactionInsideAnAsyncOneOfTheSameConnectionStopsInsteadOfDeadlocking() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let connection = try! makeTemporaryDatabase().newConnection()
                // The async body runs on the connection's queue, which holds the connection: a
                // blocking transaction on the same connection from there would wait for itself.
                _ = try! await connection.read { _ in
                    try connection.read { tx in try tx.count() }
                }
            }
            expectMessage(MisuseTests.nestedMessage, in: result)
        }

        @Test func anEscapedReadWriteTransactionCannotWrite() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let connection = try! makeTemporaryDatabase().newConnection()
                let escaped = try! connection.write { $0 }
                try? escaped.write(CrashWorkload.groupItem(0, 0))
            }
            expectMessage(MisuseTests.escapedMessage, in: result)
        }

        @Test func anEscapedTransactionUsedOnAnotherThreadStopsWithAMessage() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let connection = try! makeTemporaryDatabase().newConnection()
                // Smuggled past the compiler, which refuses to send a transaction.
                nonisolated(unsafe) var escaped: ReadTransaction?
                try! connection.read { escaped = $0 }
                let done = DispatchSemaphore(value: 0)
                Thread {
                    _ = try? escaped?.count()
                    done.signal()
                }.start()
                done.wait()
            }
            expectMessage(MisuseTests.escapedMessage, in: result)
        }
    #endif

    // MARK: Allowed, and free of deadlocks

    @Test func transactionsOfOtherConnectionsNestFreely() throws {
        let database = try makeTemporaryDatabase()
        let first = try database.newConnection()
        let second = try database.newConnection()
        try first.write(CrashWorkload.groupItem(0, 0))
        let finished = finishes(within: .seconds(30)) {
            do {
                // A read inside a write of another connection sees the last commit, not the
                // write in progress; a write inside a read of another connection is not blocked.
                try first.write { tx in
                    try tx.write(CrashWorkload.groupItem(1, 0))
                    let seen = try second.read { try $0.count(of: CrashItem.self) }
                    precondition(seen == 1)
                }
                try second.read { tx in
                    try first.write { try $0.write(CrashWorkload.groupItem(2, 0)) }
                    let seen = try tx.count(of: CrashItem.self)
                    precondition(seen == 2)
                }
            } catch {
                preconditionFailure("\(error)")
            }
        }
        #expect(finished, "nested transactions of two connections deadlocked")
        #expect(try second.read { try $0.count(of: CrashItem.self) } == 3)
    }
}

#if compiler(>=6.2)
    private func expectMessage(
        _ message: String, in result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let result else { return }
        let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            errors.contains(message), "the child's standard error does not say \"\(message)\": \(errors.prefix(2_000))",
            sourceLocation: sourceLocation)
    }
#endif
