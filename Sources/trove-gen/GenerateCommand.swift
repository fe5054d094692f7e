import ArgumentParser
import Foundation
import TroveGenerator

/// `trove-gen generate`: reads annotated sources, writes one `+Trove.swift` file per annotated input.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate, check or preview the Trove sources of a target.",
        discussion: """
            Exit status: 0 on success; 1 when an input has an error (printed as \
            path:line:column: error: message; nothing is written); 2 when --check finds stale, \
            missing or extra generated files.
            """)

    /// The command that regenerates committed sources, named in `--check` failures unless `--fix-command`
    /// names another.
    static let defaultFixCommand = "swift package --allow-writing-to-package-directory trove"

    @Option(name: .long, help: "The directory generated files are written to.")
    var outputDir: String

    @Option(name: .long, help: "The directory input paths are taken relative to (default: the current directory).")
    var sourceRoot: String?

    @Flag(name: .long, help: "Give every input an output, a header-only file when it has no annotations (build plugins).")
    var allOutputs = false

    @Flag(name: .long, help: "Write nothing; exit with status 2 when a generated file is stale, missing or extra.")
    var check = false

    @Flag(name: .long, help: "Write nothing; print what would be written or deleted.")
    var dryRun = false

    @Flag(name: .long, help: "Write nothing; print the model description as JSON.")
    var dumpModel = false

    @Option(name: .long, help: "After success, write this header-only file (a build plugin's declared output).")
    var stamp: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep what this run generated in this file, and regenerate only what changed since the run that wrote "
                + "it (build plugins: a file in the plugin work directory; safe to delete).",
            valueName: "file"))
    var cache: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The command that --check names to regenerate stale files (the plugins name the one for the target).",
            valueName: "command"))
    var fixCommand: String = Self.defaultFixCommand

    @Argument(help: "Swift source files, or @file response files with one path per line.")
    var inputs: [String] = []

    func validate() throws {
        if [check, dryRun, dumpModel].filter({ $0 }).count > 1 {
            throw ValidationError("--check, --dry-run and --dump-model cannot be combined.")
        }
    }

    func run() throws {
        var clock = PhaseClock()
        let fileSystem = FileManager.default
        let currentDirectory = URL(fileURLWithPath: fileSystem.currentDirectoryPath)
        let root = URL(fileURLWithPath: sourceRoot ?? ".", relativeTo: currentDirectory).standardizedFileURL
        let sources = try loadInputs(root: root)
        clock.lap("read \(sources.count) inputs")

        if dumpModel {
            let result = try GeneratorPipeline().run(sources, includeUnannotated: allOutputs)
            try report(result.diagnostics)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(result.model), as: UTF8.self))
            return
        }
        let outputDirectory = URL(fileURLWithPath: outputDir, relativeTo: currentDirectory).standardizedFileURL
        let files: [GeneratedFile]
        var existing: [String: [UInt8]] = [:]
        if let cache {
            (files, existing) = try generateIncrementally(
                sources, cacheURL: URL(fileURLWithPath: cache, relativeTo: currentDirectory),
                outputDirectory: outputDirectory, clock: &clock)
        } else {
            let result = try GeneratorPipeline().run(sources, includeUnannotated: allOutputs)
            try report(result.diagnostics)
            files = result.files
            clock.lap("generate")
        }

        let plan = try OutputPlan.make(
            files: files, in: outputDirectory, existing: existing, deletingExtras: !allOutputs,
            displayPrefix: outputDir)
        clock.lap("compare \(files.count) outputs")

        if check {
            guard plan.isUpToDate else {
                var report = "error: generated Trove sources are out of date:\n"
                for line in plan.changeLines() { report += "  \(line)\n" }
                report += "Run `\(fixCommand)` to regenerate them.\n"
                FileHandle.standardError.write(Data(report.utf8))
                throw ExitCode(2)
            }
            try writeStamp(files: files)
            return
        }
        if dryRun {
            let lines = plan.changeLines()
            print(lines.isEmpty ? "Generated Trove sources are up to date." : lines.joined(separator: "\n"))
            return
        }
        try plan.apply()
        try writeStamp(files: files)
        clock.lap("write \(plan.writes.count) outputs, delete \(plan.deletions.count)")
    }

    /// Prints the diagnostics; throws exit status 1 when one is an error.
    private func report(_ diagnostics: [Diagnostic]) throws {
        for diagnostic in diagnostics {
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }

    /// Generates with the cache at `cacheURL`: an unreadable, damaged or foreign cache means a cold run; the
    /// cache is replaced after a run without errors that changed anything, and left alone after one with errors.
    ///
    /// A cached output is reused only when `outputDirectory` holds exactly its bytes (otherwise its input is
    /// generated again); the bytes read there are returned, by file name, so that they are not read twice.
    private func generateIncrementally(
        _ sources: [SourceInput], cacheURL: URL, outputDirectory: URL, clock: inout PhaseClock
    ) throws -> (files: [GeneratedFile], existing: [String: [UInt8]]) {
        let identity = GeneratorIdentity.current
        let bytes = FileBytes.read(cacheURL.path)
        var previous = bytes.flatMap {
            GeneratorCache(serialized: $0, generatorIdentity: identity, includeUnannotated: allOutputs)
        }
        clock.lap("read the cache")
        var existing: [String: [UInt8]] = [:]
        let folder = outputDirectory.path.hasSuffix("/") ? outputDirectory.path : outputDirectory.path + "/"
        previous = previous?.keepingOutputs { name in
            let bytes = FileBytes.read(folder + name)
            existing[name] = bytes
            return bytes
        }
        clock.lap("read \(existing.count) outputs")
        let result = try GeneratorPipeline().runIncrementally(
            sources, includeUnannotated: allOutputs, cache: previous, generatorIdentity: identity)
        clock.lap("generate")
        PhaseClock.note(
            "cache " + (previous != nil ? "read" : bytes == nil ? "absent" : "not read")
                + ", \(result.regenerated) of \(sources.count) inputs generated again")
        try report(result.diagnostics)
        if let cache = result.cache, !result.cacheIsUnchanged {
            // A cache that cannot be written costs the next run its speed, not its correctness.
            try? FileManager.default.createDirectory(
                at: cacheURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(cache.serialized()).write(to: cacheURL, options: .atomic)
            clock.lap("write the cache")
        }
        return (result.files, existing)
    }

    /// Reads every input, expanding `@file` response files and skipping generated files.
    private func loadInputs(root: URL) throws -> [SourceInput] {
        var paths: [String] = []
        for input in inputs {
            if input.hasPrefix("@") {
                let list = try String(contentsOfFile: String(input.dropFirst()), encoding: .utf8)
                paths += list.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }
            } else {
                paths.append(input)
            }
        }
        var sources: [SourceInput] = []
        var seen: Set<String> = []
        let currentDirectory = FileManager.default.currentDirectoryPath
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for path in paths {
            let absolute = Self.standardizedPath(path, in: currentDirectory)
            guard seen.insert(absolute).inserted else { continue }
            guard let bytes = FileBytes.read(absolute) else {
                throw ValidationError("cannot read input '\(path)': \(FileBytes.lastError)")
            }
            guard let contents = String(validating: bytes, as: UTF8.self) else {
                throw ValidationError("cannot read input '\(path)': it is not UTF-8 text")
            }
            if GeneratedHeader.isGenerated(contents) { continue }
            let relativePath =
                absolute.hasPrefix(rootPath)
                ? String(absolute.dropFirst(rootPath.count))
                : String(absolute[(absolute.lastIndex(of: "/").map { absolute.index(after: $0) } ?? absolute.startIndex)...])
            sources.append(SourceInput(path: path, relativePath: relativePath, contents: contents))
        }
        return sources
    }

    /// `path` made absolute against `directory`, with `.` and `..` components and repeated slashes
    /// removed, as `URL.standardizedFileURL` gives it (which is used when there is any to remove).
    static func standardizedPath(_ path: String, in directory: String) -> String {
        let absolute =
            path.hasPrefix("/") ? path : (directory.hasSuffix("/") ? directory + path : directory + "/" + path)
        if absolute.contains("/./") || absolute.contains("/../") || absolute.contains("//")
            || absolute.hasSuffix("/.") || absolute.hasSuffix("/..") || (absolute.count > 1 && absolute.hasSuffix("/"))
        {
            return URL(fileURLWithPath: absolute).standardizedFileURL.path
        }
        return absolute
    }

    private func writeStamp(files: [GeneratedFile]) throws {
        guard let stamp else { return }
        var text = GeneratedHeader.firstLine + "\n// swift-format-ignore-file\n"
        text += "// Up to date: " + (files.isEmpty ? "no generated files" : files.map(\.name).joined(separator: ", "))
        text += "\n"
        let url = URL(fileURLWithPath: stamp)
        try OutputPlan.writeIfChanged(Data(text.utf8), to: url)
    }
}
