import Foundation
import Testing

/// Runs the built `trove-gen` as a subprocess, as the plugins do: exit statuses, stderr and the
/// file system are what these tests check.
///
/// The binary is found next to the test bundle (SwiftPM puts every product of the package in one
/// build folder); this target depends on `trove-gen` so that it is built first.
struct TroveGenTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let binary: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("trove-gen")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("trove-gen")
    }()

    /// A temporary package-like folder: `Sources/App/Models/*.swift`, output in `Sources/App/Generated`.
    final class Workspace {
        let root: URL
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("trove-gen-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Models"), withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: root) }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        func read(_ path: String) -> String? {
            try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }
        /// The file's modification date and inode number.
        func stamp(_ path: String) throws -> (date: Date?, inode: Int?) {
            let attributes = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)
            return (attributes[.modificationDate] as? Date, (attributes[.systemFileNumber] as? NSNumber)?.intValue)
        }
        /// Sets the file's modification date.
        func setModificationDate(_ date: Date, of path: String) throws {
            try FileManager.default.setAttributes(
                [.modificationDate: date], ofItemAtPath: root.appendingPathComponent(path).path)
        }

        func run(_ arguments: [String], binary: URL = TroveGenTests.binary, environment: [String: String] = [:])
            throws -> Run
        {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.currentDirectoryURL = root
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self))
        }

        func generate(_ extra: [String] = []) throws -> Run {
            try run(["generate", "--output-dir", "Generated"] + extra + ["Models/User.swift", "Models/Plain.swift"])
        }
    }

    static let user = """
        // @persistable(collection: "users")
        struct User { var id: String; var name: String }
        """
    static let plain = "struct Plain {}\n"

    func makeWorkspace() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.write("Models/User.swift", Self.user)
        try workspace.write("Models/Plain.swift", Self.plain)
        return workspace
    }

    @Test func generatesOneFilePerAnnotatedInputAndRewritesNothingUnchanged() throws {
        let workspace = try makeWorkspace()
        let first = try workspace.generate()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(workspace.read("Generated/Models_User+Trove.swift")?.contains("// Source: Models/User.swift") == true)
        #expect(!workspace.exists("Generated/Models_Plain+Trove.swift"))
        // The output is dated in 2001: a rewrite, in place or by replacing the file, dates it
        // now and (replacing it) gives it a new inode, whatever the file system's timestamp
        // resolution (one second on some), with no wait.
        let output = "Generated/Models_User+Trove.swift"
        let past = Date(timeIntervalSinceReferenceDate: 0)
        try workspace.setModificationDate(past, of: output)
        let written = try workspace.stamp(output)
        #expect(written.date == past && written.inode != nil)
        #expect(try workspace.generate().status == 0)
        let after = try workspace.stamp(output)
        #expect(after.date == past && after.inode == written.inode, "the unchanged output was rewritten: \(after)")
    }

    @Test func checkPassesWhenFreshAndFailsWhenStale() throws {
        let workspace = try makeWorkspace()
        #expect(try workspace.generate().status == 0)
        let fresh = try workspace.generate(["--check"])
        #expect(fresh.status == 0, "\(fresh.stderr)")

        try workspace.write("Models/User.swift", Self.user.replacingOccurrences(of: "\"users\"", with: "\"people\""))
        let before = workspace.read("Generated/Models_User+Trove.swift")
        let stale = try workspace.generate(["--check"])
        #expect(stale.status == 2)
        #expect(stale.stderr.contains("stale: Generated/Models_User+Trove.swift"))
        #expect(stale.stderr.contains("swift package --allow-writing-to-package-directory trove"))
        #expect(workspace.read("Generated/Models_User+Trove.swift") == before)
    }

    @Test func checkNamesTheFixCommandItIsGiven() throws {
        let workspace = try makeWorkspace()
        let fix = "swift package --allow-writing-to-package-directory trove --target App"
        let stale = try workspace.generate(["--check", "--fix-command", fix])
        #expect(stale.status == 2)
        #expect(stale.stderr.contains("Run `\(fix)` to regenerate them."), "\(stale.stderr)")

        let direct = try workspace.generate(["--check"])
        #expect(direct.stderr.contains("Run `swift package --allow-writing-to-package-directory trove` to regenerate"))
    }

    @Test func checkReportsMissingAndExtraFiles() throws {
        let workspace = try makeWorkspace()
        try workspace.write("Generated/Models_Old+Trove.swift", "// Generated by trove-gen. Do not edit.\n")
        try workspace.write("Generated/Handwritten.swift", "struct Handwritten {}\n")
        let result = try workspace.generate(["--check"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("missing: Generated/Models_User+Trove.swift"))
        #expect(result.stderr.contains("extra: Generated/Models_Old+Trove.swift"))
        #expect(!result.stderr.contains("Handwritten"))
    }

    @Test func committedModeDeletesFilesNoLongerGenerated() throws {
        let workspace = try makeWorkspace()
        try workspace.write("Generated/Models_Old+Trove.swift", "// Generated by trove-gen. Do not edit.\n")
        try workspace.write("Generated/Handwritten.swift", "struct Handwritten {}\n")
        #expect(try workspace.generate().status == 0)
        #expect(!workspace.exists("Generated/Models_Old+Trove.swift"))
        #expect(workspace.exists("Generated/Handwritten.swift"))
    }

    @Test func dryRunWritesNothing() throws {
        let workspace = try makeWorkspace()
        let result = try workspace.generate(["--dry-run"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("missing: Generated/Models_User+Trove.swift"))
        #expect(!workspace.exists("Generated"))
    }

    @Test func badInputWritesNothingAndPointsAtTheLine() throws {
        let workspace = try makeWorkspace()
        #expect(try workspace.generate().status == 0)
        let before = workspace.read("Generated/Models_User+Trove.swift")
        try workspace.write("Models/User.swift", """
            // @persistable(collection: "users")
            struct User {
                var id: String
                var callback: () -> Void
            }
            """)
        try workspace.write("Models/Plain.swift", "// @coded\nstruct Plain { var a: Int }\n")
        let result = try workspace.generate(["--stamp", "stamp.swift"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Models/User.swift:4:9: error: property 'callback'"))
        #expect(workspace.read("Generated/Models_User+Trove.swift") == before)
        #expect(!workspace.exists("Generated/Models_Plain+Trove.swift"))
        #expect(!workspace.exists("stamp.swift"))
    }

    /// An input named several ways (`./`, `..`, doubled or trailing slashes) is one input; a path
    /// that merely holds a dot, like a hidden folder's, is left as it is.
    @Test func anInputNamedSeveralWaysIsReadOnce() throws {
        let workspace = try makeWorkspace()
        try workspace.write(".hidden/Plain.swift", "// @coded\nstruct Plain { var a: Int }\n")
        let result = try workspace.run([
            "generate", "--output-dir", "Out", "--source-root", ".",
            "Models/User.swift", "./Models/User.swift", "Models/../Models/User.swift", "Models//User.swift",
            workspace.root.path + "/./Models/User.swift", ".hidden/Plain.swift",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(workspace.exists("Out/Models_User+Trove.swift"))
        #expect(workspace.exists("Out/.hidden_Plain+Trove.swift"))
        #expect(!result.stderr.contains("would both generate"), "\(result.stderr)")
    }

    @Test func allOutputsGivesEveryInputAFileAndSkipsGeneratedInputs() throws {
        let workspace = try makeWorkspace()
        try workspace.write("Models/Old+Trove.swift", "// Generated by trove-gen. Do not edit.\n// @coded\nstruct X {}\n")
        let result = try workspace.run([
            "generate", "--output-dir", "Out", "--all-outputs", "--source-root", "Models", "--stamp", "Out/stamp.swift",
            "Models/User.swift", "Models/Plain.swift", "Models/Old+Trove.swift",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(workspace.read("Out/Plain+Trove.swift") == """
            // Generated by trove-gen. Do not edit.
            // swift-format-ignore-file
            // Source: Plain.swift

            """)
        #expect(workspace.exists("Out/User+Trove.swift"))
        #expect(!workspace.exists("Out/Old+Trove+Trove.swift"))
        #expect(workspace.read("Out/stamp.swift")?.hasPrefix("// Generated by trove-gen. Do not edit.") == true)
    }

    @Test func readsResponseFilesAndDumpsTheModel() throws {
        let workspace = try makeWorkspace()
        try workspace.write("inputs.txt", "Models/User.swift\n\nModels/Plain.swift\n")
        let result = try workspace.run(["generate", "--output-dir", "Generated", "--dump-model", "@inputs.txt"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"collection\" : \"users\""))
        #expect(result.stdout.contains("\"sourcePath\" : \"Models/User.swift\""))
        #expect(!workspace.exists("Generated"))
    }
}
