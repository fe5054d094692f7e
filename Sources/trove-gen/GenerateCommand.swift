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

    /// The command that regenerates committed sources, named in `--check` failures.
    static let fixCommand = "swift package --allow-writing-to-package-directory trove"

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

    @Argument(help: "Swift source files, or @file response files with one path per line.")
    var inputs: [String] = []

    func validate() throws {
        if [check, dryRun, dumpModel].filter({ $0 }).count > 1 {
            throw ValidationError("--check, --dry-run and --dump-model cannot be combined.")
        }
    }

    func run() throws {
        let fileSystem = FileManager.default
        let currentDirectory = URL(fileURLWithPath: fileSystem.currentDirectoryPath)
        let root = URL(fileURLWithPath: sourceRoot ?? ".", relativeTo: currentDirectory).standardizedFileURL
        let sources = try loadInputs(root: root)

        let result = try GeneratorPipeline().run(sources, includeUnannotated: allOutputs)
        for diagnostic in result.diagnostics {
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        }
        if result.hasErrors { throw ExitCode(1) }

        if dumpModel {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(result.model), as: UTF8.self))
            return
        }

        let outputDirectory = URL(fileURLWithPath: outputDir, relativeTo: currentDirectory).standardizedFileURL
        let plan = try OutputPlan.make(
            files: result.files, in: outputDirectory, deletingExtras: !allOutputs, displayPrefix: outputDir)

        if check {
            guard plan.isUpToDate else {
                var report = "error: generated Trove sources are out of date:\n"
                for line in plan.changeLines() { report += "  \(line)\n" }
                report += "Run `\(Self.fixCommand)` to regenerate them.\n"
                FileHandle.standardError.write(Data(report.utf8))
                throw ExitCode(2)
            }
            try writeStamp(files: result.files)
            return
        }
        if dryRun {
            let lines = plan.changeLines()
            print(lines.isEmpty ? "Generated Trove sources are up to date." : lines.joined(separator: "\n"))
            return
        }
        try plan.apply()
        try writeStamp(files: result.files)
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
        for path in paths {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            guard seen.insert(url.path).inserted else { continue }
            let contents: String
            do {
                contents = try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read input '\(path)': \(error.localizedDescription)")
            }
            if GeneratedHeader.isGenerated(contents) { continue }
            sources.append(SourceInput(path: path, relativePath: relativePath(of: url, to: root), contents: contents))
        }
        return sources
    }

    /// `url`'s path relative to `root`, or its last component when it is outside `root`.
    private func relativePath(of url: URL, to root: URL) -> String {
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        if url.path.hasPrefix(rootPath) { return String(url.path.dropFirst(rootPath.count)) }
        return url.lastPathComponent
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
