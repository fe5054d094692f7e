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
            "Keep what this run learned in this file (each input, and the size and digest of each output, whose "
                + "text stays in the output folder), and regenerate only what changed since the run that wrote it "
                + "or is no longer in the output folder (build plugins: a file in the plugin work directory; safe "
                + "to delete, like the FILE.stamps beside it).",
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
        let started = FileStamps.now()
        let fileSystem = FileManager.default
        let currentDirectory = URL(fileURLWithPath: fileSystem.currentDirectoryPath)
        let root = URL(fileURLWithPath: sourceRoot ?? ".", relativeTo: currentDirectory).standardizedFileURL
        let session = (dumpModel ? nil : cache).map {
            IncrementalSession(
                cacheURL: URL(fileURLWithPath: $0, relativeTo: currentDirectory), includeUnannotated: allOutputs,
                started: started)
        }
        clock.lap("read the cache")
        let sources = try loadInputs(root: root, session: session)
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
        let folder = outputDirectory.path.hasSuffix("/") ? outputDirectory.path : outputDirectory.path + "/"
        let files: [IncrementalOutput]
        var incremental: IncrementalResult?
        if let session {
            session.keepOutputs(in: folder)
            clock.lap("check \(session.outputsInFolder.count) cached outputs, \(session.outputsRead.count) read")
            let result = try GeneratorPipeline().runIncrementally(
                sources, includeUnannotated: allOutputs, cache: session.previous,
                generatorIdentity: GeneratorIdentity.current)
            clock.lap("generate")
            PhaseClock.note(
                "cache " + (session.previous != nil ? "read" : session.cacheExisted ? "not read" : "absent")
                    + ", \(result.regenerated) of \(sources.count) inputs generated again, \(session.inputsRead) inputs and "
                    + "\(session.outputsRead.count) outputs read")
            try report(result.diagnostics)
            files = result.files
            incremental = result
        } else {
            let result = try GeneratorPipeline().run(sources, includeUnannotated: allOutputs)
            try report(result.diagnostics)
            files = result.files.map(IncrementalOutput.generated)
            clock.lap("generate")
        }

        let plan = try OutputPlan.make(
            files: files, in: outputDirectory, existing: session?.outputsRead ?? [:],
            inFolder: session?.outputsInFolder ?? [:], deletingExtras: !allOutputs, displayPrefix: outputDir)
        clock.lap("compare \(files.count) outputs")
        // The cache (and the stamps, which only a run that writes its outputs takes) once the outputs are known.
        func finishSession(wroteOutputs: Bool) {
            guard let session, let incremental, let cache = incremental.cache else { return }
            session.finish(
                cache: cache, cacheIsUnchanged: incremental.cacheIsUnchanged,
                outputs: wroteOutputs ? files.map(\.name) : nil, written: plan.writes.count, folder: folder)
            clock.lap("write the cache and stamps")
        }

        if check {
            guard plan.isUpToDate else {
                var report = "error: generated Trove sources are out of date:\n"
                for line in plan.changeLines() { report += "  \(line)\n" }
                report += "Run `\(fixCommand)` to regenerate them.\n"
                FileHandle.standardError.write(Data(report.utf8))
                finishSession(wroteOutputs: false)
                throw ExitCode(2)
            }
            finishSession(wroteOutputs: false)
            try writeStamp(files: files)
            return
        }
        if dryRun {
            finishSession(wroteOutputs: false)
            let lines = plan.changeLines()
            print(lines.isEmpty ? "Generated Trove sources are up to date." : lines.joined(separator: "\n"))
            return
        }
        try plan.apply()
        try writeStamp(files: files)
        clock.lap("write \(plan.writes.count) outputs, delete \(plan.deletions.count)")
        finishSession(wroteOutputs: true)
    }

    /// Prints the diagnostics; throws exit status 1 when one is an error.
    private func report(_ diagnostics: [Diagnostic]) throws {
        for diagnostic in diagnostics {
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }

    /// Reads every input, expanding `@file` response files and skipping generated files.
    private func loadInputs(root: URL, session: IncrementalSession?) throws -> [SourceInput] {
        var paths: [String] = []
        for input in inputs {
            if input.hasPrefix("@") {
                guard let list = FileBytes.read(String(input.dropFirst())) else {
                    throw ValidationError("cannot read response file '\(input.dropFirst())': \(FileBytes.lastError)")
                }
                paths += Self.lines(of: list)
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
            let contents: String
            if let unchanged = session?.unchangedContents(of: path, absolute: absolute) {
                contents = unchanged
            } else {
                guard let bytes = FileBytes.read(absolute) else {
                    throw ValidationError("cannot read input '\(path)': \(FileBytes.lastError)")
                }
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw ValidationError("cannot read input '\(path)': it is not UTF-8 text")
                }
                contents = text
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

    /// The lines of a response file, without the spaces and tabs around them, the empty ones left out.
    static func lines(of bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            func addLine(endingAt end: Int) {
                var first = start
                var last = end
                while first < last, buffer[first] == 0x20 || buffer[first] == 0x09 { first += 1 }
                while last > first, buffer[last - 1] == 0x20 || buffer[last - 1] == 0x09 { last -= 1 }
                if first < last {
                    lines.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[first..<last]), as: UTF8.self))
                }
            }
            for index in 0..<buffer.count where buffer[index] == 0x0A || buffer[index] == 0x0D {
                addLine(endingAt: index)
                start = index + 1
            }
            addLine(endingAt: buffer.count)
        }
        return lines
    }

    /// `path` made absolute against `directory`, with `.` and `..` components and repeated slashes
    /// removed, as `URL.standardizedFileURL` gives it (which is used when there is any to remove).
    static func standardizedPath(_ path: String, in directory: String) -> String {
        let absolute =
            path.hasPrefix("/") ? path : (directory.hasSuffix("/") ? directory + path : directory + "/" + path)
        // Only a path with `//` or `/.` in it, or a trailing `/`, may not be standard: found in one
        // pass over the bytes (the build plugin passes every input, and Foundation's substring search
        // and a count of characters cost a debug build of the tool milliseconds per 1,000 of them).
        var mayNotBeStandard = false
        var previous: UInt8 = 0
        for byte in absolute.utf8 {
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") {
                mayNotBeStandard = true
                break
            }
            previous = byte
        }
        if mayNotBeStandard || (previous == UInt8(ascii: "/") && absolute.utf8.count > 1) {
            return URL(fileURLWithPath: absolute).standardizedFileURL.path
        }
        return absolute
    }

    private func writeStamp(files: [IncrementalOutput]) throws {
        guard let stamp else { return }
        var text = GeneratedHeader.firstLine + "\n// swift-format-ignore-file\n"
        text += "// Up to date: " + (files.isEmpty ? "no generated files" : files.map(\.name).joined(separator: ", "))
        text += "\n"
        let url = URL(fileURLWithPath: stamp)
        try OutputPlan.writeIfChanged(Data(text.utf8), to: url)
    }
}
