import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trove-gen generate --cache`, run as the build plugin runs it: after every change (a type another
/// file's output uses, a renamed type, a deleted input, a damaged cache, a cache of another
/// `trove-gen`) the output folder holds exactly what a cold run without a cache writes.
///
/// `TROVE_GEN_PROFILE` makes the tool say whether it read the cache and how many inputs it generated
/// again, which these tests check too.
struct ToolIncrementalTests {
    typealias Workspace = TroveGenTests.Workspace

    static let user = """
        // @persistable(collection: "users")
        struct User {
            var id: String
            // @indexed
            var kind: Kind
            // @metadata
            var metadata: Stats?
        }

        """
    static let stats = "// @coded\nstruct Stats {\n    var visits: Int\n}\n"
    static let kind = "// @coded\nenum Kind: String { case a, b }\n"

    /// What a run said about the cache: `absent`, `read` or `not read`, and how many inputs it
    /// generated again.
    struct CacheUse: Equatable {
        var cache: String
        var regenerated: Int
    }

    final class Session {
        let workspace: Workspace
        let allOutputs: Bool
        var inputs = ["Models/User.swift", "Models/Stats.swift", "Models/Kind.swift", "Models/Plain.swift"]
        /// More environment of the cached runs.
        var environment: [String: String] = [:]
        /// How many inputs and outputs the last cached run read.
        var reads: (inputs: Int, outputs: Int) = (-1, -1)

        init(allOutputs: Bool) throws {
            workspace = try Workspace()
            self.allOutputs = allOutputs
            try workspace.write("Models/User.swift", ToolIncrementalTests.user)
            try workspace.write("Models/Stats.swift", ToolIncrementalTests.stats)
            try workspace.write("Models/Kind.swift", ToolIncrementalTests.kind)
            try workspace.write("Models/Plain.swift", "struct Plain {}\n")
        }

        func arguments(output: String, cache: Bool) -> [String] {
            ["generate", "--output-dir", output] + (allOutputs ? ["--all-outputs", "--source-root", "Models"] : [])
                + (cache ? ["--cache", "work/trove-gen.cache"] : []) + inputs
        }

        /// The `.swift` files of a folder of the workspace, by name.
        func files(in folder: String) throws -> [String: String] {
            let url = workspace.root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            var files: [String: String] = [:]
            for name in names where name.hasSuffix(".swift") {
                files[name] = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            }
            return files
        }

        var cacheBytes: Data? { try? Data(contentsOf: workspace.root.appendingPathComponent("work/trove-gen.cache")) }

        /// Runs with the cache into `Out` and without it into a fresh `Cold`; expects the same status,
        /// errors and files. Returns what the cached run said about its cache.
        @discardableResult
        func generate(
            binary: URL = TroveGenTests.binary, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> CacheUse? {
            let warm = try workspace.run(
                arguments(output: "Out", cache: true), binary: binary,
                environment: environment.merging(["TROVE_GEN_PROFILE": "1"]) { $1 })
            try? FileManager.default.removeItem(at: workspace.root.appendingPathComponent("Cold"))
            let cold = try workspace.run(arguments(output: "Cold", cache: false))
            let warmErrors = warm.stderr.split(separator: "\n").filter { !$0.hasPrefix("trove-gen: ") }
            #expect(warm.status == cold.status, "\(comment): \(warm.stderr)", sourceLocation: sourceLocation)
            #expect(warmErrors == cold.stderr.split(separator: "\n"), "\(comment)", sourceLocation: sourceLocation)
            let coldFiles = try files(in: "Cold")
            let warmFiles = try files(in: "Out")
            if cold.status == 0 {
                if allOutputs {
                    // Plugin mode deletes nothing (SwiftPM owns the folder): every file a cold run writes
                    // is there with the same bytes.
                    #expect(
                        warmFiles.filter { coldFiles[$0.key] != nil } == coldFiles, "\(comment)",
                        sourceLocation: sourceLocation)
                } else {
                    #expect(warmFiles == coldFiles, "\(comment)", sourceLocation: sourceLocation)
                }
            }
            guard
                let line = warm.stderr.split(separator: "\n").first(where: { $0.hasPrefix("trove-gen: cache ") }),
                let match = line.wholeMatch(
                    of: /trove-gen: cache (absent|read|not read), (\d+) of \d+ inputs generated again, (\d+) inputs and (\d+) outputs read/
                )
            else {
                Issue.record("\(comment): no cache line in \(warm.stderr)", sourceLocation: sourceLocation)
                return nil
            }
            reads = (Int(match.3) ?? -1, Int(match.4) ?? -1)
            return CacheUse(cache: String(match.1), regenerated: Int(match.2) ?? -1)
        }
    }

    @Test(arguments: [false, true])
    func everyChangeGivesWhatAColdRunGives(allOutputs: Bool) throws {
        let session = try Session(allOutputs: allOutputs)
        let workspace = session.workspace
        #expect(try session.generate("first run") == CacheUse(cache: "absent", regenerated: 4))
        let cache = session.cacheBytes
        #expect(cache != nil)
        #expect(try session.generate("nothing changed") == CacheUse(cache: "read", regenerated: 0))
        #expect(session.cacheBytes == cache, "a run that changed nothing rewrote the cache")

        // A field of User's metadata type: Stats.swift and the unchanged User.swift are generated again.
        try workspace.write(
            "Models/Stats.swift", "// @coded\nstruct Stats {\n    var visits: Int\n    // @searchable\n    var note: String\n}\n")
        #expect(try session.generate("metadata field added") == CacheUse(cache: "read", regenerated: 2))
        let userOutput = allOutputs ? "User+Trove.swift" : "Models_User+Trove.swift"
        #expect(try session.files(in: "Out")[userOutput]?.contains("\"note\"") == true)

        // A renamed type that User indexes: an error, then the old name again.
        try workspace.write("Models/Kind.swift", "// @coded\nenum Category: String { case a, b }\n")
        try session.generate("Kind renamed")
        try workspace.write("Models/Kind.swift", Self.kind)
        #expect(try session.generate("Kind back")?.cache == "read")

        // A renamed metadata type, valid without it: User's metadata coder is no longer generated.
        try workspace.write("Models/Stats.swift", "// @coded\nstruct Statistics {\n    var visits: Int\n}\n")
        try session.generate("Stats renamed")

        // A deleted input.
        try FileManager.default.removeItem(at: workspace.root.appendingPathComponent("Models/Plain.swift"))
        session.inputs.removeLast()
        #expect(try session.generate("Plain deleted")?.cache == "read")

        // A damaged cache is not read; the run writes a good one.
        try workspace.write("work/trove-gen.cache", "trove-gen cache\nnot really")
        #expect(try session.generate("damaged cache") == CacheUse(cache: "not read", regenerated: 3))
        #expect(try session.generate("after the damaged cache") == CacheUse(cache: "read", regenerated: 0))

        // The cache of another trove-gen (another path: a link to the same binary) is not read.
        let other = workspace.root.appendingPathComponent("other-trove-gen")
        do {
            try FileManager.default.linkItem(at: TroveGenTests.binary, to: other)
        } catch {
            try FileManager.default.copyItem(at: TroveGenTests.binary, to: other)
        }
        #expect(try session.generate(binary: other, "another trove-gen") == CacheUse(cache: "not read", regenerated: 3))
        #expect(try session.generate("back to the first trove-gen") == CacheUse(cache: "not read", regenerated: 3))
        #expect(try session.generate("and again") == CacheUse(cache: "read", regenerated: 0))
    }

    /// The stamps beside the cache spare reading unchanged inputs and outputs, and never hide a change: not
    /// one of the same size whose modification time was set back (the status change time tells).
    @Test func stampsSpareReadsButNeverHideAChange() throws {
        let session = try Session(allOutputs: true)
        let workspace = session.workspace
        // Vouch for files written any time before a run began (3 s in use), so as not to wait.
        session.environment = ["TROVE_GEN_RACY_MARGIN_MS": "0"]
        #expect(try session.generate("first run") == CacheUse(cache: "absent", regenerated: 4))
        try session.generate("outputs written by the first run are read once")
        #expect(session.reads == (0, 4))
        #expect(try session.generate("nothing read") == CacheUse(cache: "read", regenerated: 0))
        #expect(session.reads == (0, 0))

        try workspace.write("Models/Stats.swift", "// @coded\nstruct Stats {\n    var visits: Int\n    var more: Int\n}\n")
        #expect(try session.generate("an input changed") == CacheUse(cache: "read", regenerated: 2))
        #expect(session.reads.inputs == 1)

        // Same size, same file (inode), the modification time set back: read all the same, and generated again.
        let kind = "Models/Kind.swift"
        let kindDate = try Self.modificationTime(of: workspace.root.appendingPathComponent(kind).path)
        try Self.overwrite(workspace.root.appendingPathComponent(kind), Self.kind.replacingOccurrences(of: "case a, b", with: "case x, y"))
        try Self.setModificationTime(kindDate, of: workspace.root.appendingPathComponent(kind).path)
        #expect(try session.generate("an input changed under its old date") == CacheUse(cache: "read", regenerated: 1))
        #expect(session.reads.inputs == 1)

        // An output edited (same size, old date): read, found wrong, and generated again.
        try session.generate("stamps of the new outputs")
        let output = "Out/User+Trove.swift"
        let text = try #require(workspace.read(output))
        let outputDate = try Self.modificationTime(of: workspace.root.appendingPathComponent(output).path)
        try Self.overwrite(workspace.root.appendingPathComponent(output), text.replacingOccurrences(of: "Generated", with: "Xenerated"))
        try Self.setModificationTime(outputDate, of: workspace.root.appendingPathComponent(output).path)
        #expect(try session.generate("an output edited") == CacheUse(cache: "read", regenerated: 1))
        #expect(workspace.read(output) == text)

        // Its last byte edited (same size, old date): the cache holds its digest, not its text, and the digest
        // covers every byte.
        try session.generate("stamps of the rewritten output")
        let lastDate = try Self.modificationTime(of: workspace.root.appendingPathComponent(output).path)
        try Self.overwrite(workspace.root.appendingPathComponent(output), String(text.dropLast()) + " ")
        try Self.setModificationTime(lastDate, of: workspace.root.appendingPathComponent(output).path)
        #expect(try session.generate("an output's last byte edited") == CacheUse(cache: "read", regenerated: 1))
        #expect(workspace.read(output) == text)

        // Deleted: generated again.
        try FileManager.default.removeItem(at: workspace.root.appendingPathComponent(output))
        #expect(try session.generate("an output deleted") == CacheUse(cache: "read", regenerated: 1))
        #expect(workspace.read(output) == text)
    }

    /// With a cache, `--check` and `--dry-run` see what a reused output (whose text is not in the cache) is
    /// in the folder: up to date, stale (edited at its last byte), missing or extra; and `--stamp` names every
    /// output, reused or not, as a run without a cache does.
    @Test func checkDryRunAndStampSeeReusedOutputs() throws {
        let session = try Session(allOutputs: false)
        let workspace = session.workspace
        session.environment = ["TROVE_GEN_RACY_MARGIN_MS": "0"]
        let cached = ["--cache", "work/trove-gen.cache"]
        func run(_ options: [String]) throws -> TroveGenTests.Run {
            try workspace.run(
                ["generate", "--output-dir", "Out"] + options + session.inputs,
                environment: ["TROVE_GEN_RACY_MARGIN_MS": "0"])
        }
        #expect(try run(["--stamp", "cold.stamp"]).status == 0)
        #expect(try run(cached).status == 0)
        let warmStamp = try run(cached + ["--stamp", "warm.stamp"])
        #expect(warmStamp.status == 0, "\(warmStamp.stderr)")
        #expect(workspace.read("warm.stamp") != nil && workspace.read("warm.stamp") == workspace.read("cold.stamp"))

        let upToDate = try run(cached + ["--check"])
        #expect(upToDate.status == 0, "\(upToDate.stderr)")
        #expect(try run(cached + ["--dry-run"]).stdout == "Generated Trove sources are up to date.\n")

        let output = "Out/Models_User+Trove.swift"
        let text = try #require(workspace.read(output))
        try Self.overwrite(workspace.root.appendingPathComponent(output), String(text.dropLast()) + " ")
        try FileManager.default.removeItem(at: workspace.root.appendingPathComponent("Out/Models_Kind+Trove.swift"))
        try workspace.write("Out/Models_Gone+Trove.swift", "// Generated by trove-gen. Do not edit.\n")
        let expected = [
            "stale: Out/Models_User+Trove.swift", "missing: Out/Models_Kind+Trove.swift",
            "extra: Out/Models_Gone+Trove.swift",
        ]
        let stale = try run(cached + ["--check"])
        #expect(stale.status == 2)
        for line in expected { #expect(stale.stderr.contains(line), "\(stale.stderr)") }
        let dryRun = try run(cached + ["--dry-run"])
        #expect(dryRun.status == 0 && dryRun.stdout.split(separator: "\n").map(String.init).sorted() == expected.sorted())
        // Neither wrote anything; a run does, and is then up to date.
        #expect(workspace.read(output) != text)
        #expect(try run(cached).status == 0)
        #expect(workspace.read(output) == text && workspace.read("Out/Models_Kind+Trove.swift") != nil)
        #expect(!workspace.exists("Out/Models_Gone+Trove.swift"))
        #expect(try run(cached + ["--check"]).status == 0)
    }

    /// Writes `text` over the file at `url`, in place: the file keeps its inode.
    static func overwrite(_ url: URL, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// A file's modification time, to the nanosecond.
    static func modificationTime(of path: String) throws -> timespec {
        var status = stat()
        try #require(stat(path, &status) == 0)
        #if canImport(Darwin)
            return status.st_mtimespec
        #else
            return status.st_mtim
        #endif
    }

    /// Sets a file's modification time, to the nanosecond (as `touch -r` and `cp -p` do).
    static func setModificationTime(_ time: timespec, of path: String) throws {
        var times = [time, time]  // access and modification
        try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(try modificationTime(of: path).tv_nsec == time.tv_nsec)
    }
}
