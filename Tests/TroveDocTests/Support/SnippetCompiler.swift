import Foundation
import TroveTestSupport

/// Compiles the Swift blocks of a document against the modules that SwiftPM built for the tests.
///
/// One document is one compilation: its blocks' declarations and trove-gen's code for the
/// annotated ones, the shared models the document does not declare itself (`Context/Models`, one
/// type per file, also through trove-gen), the context (`Context/Context.swift`) and one function
/// per block (see ``SnippetAssembler``). The compiler runs as far as SIL, so that the checks of
/// sending and isolation, which run there, run too; nothing is linked.
struct SnippetCompiler: Sendable {
    /// The package's folder.
    var packageRoot: URL

    /// The folder of the built products, which holds `trove-gen` and, on Linux, `Modules/`.
    var productsFolder: URL

    /// The compiler to run.
    var swiftc: String = ProcessInfo.processInfo.environment["TROVE_SWIFTC"] ?? "swiftc"

    /// The warnings a fragment cannot avoid: a block shows a value it does not go on to use.
    static let toleratedWarnings = ["was never used", "was never mutated", "was defined but never used"]

    /// Finds the built products from the test binary.
    ///
    /// - Throws: When `trove-gen` is not built.
    init(packageRoot: URL) throws {
        self.packageRoot = packageRoot
        self.productsFolder = try ChildProcess.builtExecutable(named: "trove-gen").deletingLastPathComponent()
    }

    /// What compiling a document found.
    struct Outcome: Sendable {
        /// Each problem as a line: the document, the line, the block and the message.
        var problems: [String]
        /// The compiler's whole output, for a failure that is not in the document.
        var output: String
    }

    /// Compiles the blocks of the document at `documentPath` (relative to the package), whose
    /// text is `text`, in a module whose default isolation is the main actor when `mainActor`
    /// (as an app's module in Xcode's default settings), nonisolated otherwise.
    ///
    /// - Returns: The problems found: trove-gen's errors, the compiler's errors and its warnings
    ///   other than ``toleratedWarnings``, each named by document, line and block.
    /// - Throws: ``DocumentProblem`` when the document's markers cannot be read, and when a
    ///   process cannot be started.
    func compile(documentPath: String, text: String, mainActor: Bool = false) throws -> Outcome {
        let blocks = try DocumentBlocks.parse(text)
        let assembler = try SnippetAssembler(documentPath: documentPath, blocks: blocks)
        let folder = URL(fileURLWithPath: try makeTemporaryFolder())
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default

        // trove-gen: the document's declarations and the shared models it does not declare.
        let generatorInput = folder.appendingPathComponent("input")
        let generated = folder.appendingPathComponent("generated")
        try manager.createDirectory(
            at: generatorInput.appendingPathComponent("Models"), withIntermediateDirectories: true)
        let declarations = assembler.declarationFile
        try declarations.text.write(
            to: generatorInput.appendingPathComponent("Declarations.swift"), atomically: true, encoding: .utf8)
        let modelsFolder = packageRoot.appendingPathComponent("Tests/TroveDocTests/Context/Models")
        var inputs = ["Declarations.swift"]
        for file in try manager.contentsOfDirectory(atPath: modelsFolder.path).sorted() where file.hasSuffix(".swift") {
            guard !assembler.declaredTypeNames.contains(String(file.dropLast(".swift".count))) else { continue }
            try manager.copyItem(
                at: modelsFolder.appendingPathComponent(file),
                to: generatorInput.appendingPathComponent("Models/\(file)"))
            inputs.append("Models/\(file)")
        }
        let generator = try run(
            productsFolder.appendingPathComponent("trove-gen").path,
            ["generate", "--source-root", generatorInput.path, "--output-dir", generated.path]
                + inputs.map { generatorInput.appendingPathComponent($0).path })
        if generator.status != 0 {
            let problems = generator.output.split(separator: "\n").compactMap { line -> String? in
                guard line.contains(": error: ") else { return nil }
                return describeGeneratorError(
                    String(line), documentLines: declarations.documentLines, documentPath: documentPath,
                    assembler: assembler)
            }
            return Outcome(
                problems: problems.isEmpty ? ["\(documentPath): trove-gen failed: \(generator.output)"] : problems,
                output: generator.output)
        }

        // The compiler: the located declarations instead of trove-gen's copy, and everything else.
        let sources = folder.appendingPathComponent("sources")
        try manager.createDirectory(at: sources, withIntermediateDirectories: true)
        try assembler.declarationSource.write(
            to: sources.appendingPathComponent("Declarations.swift"), atomically: true, encoding: .utf8)
        try assembler.snippetSource.write(
            to: sources.appendingPathComponent("Snippets.swift"), atomically: true, encoding: .utf8)
        var files = [
            sources.appendingPathComponent("Declarations.swift").path,
            sources.appendingPathComponent("Snippets.swift").path,
        ]
        files += inputs.dropFirst().map { generatorInput.appendingPathComponent($0).path }
        files += try manager.contentsOfDirectory(atPath: generated.path).sorted().filter { $0.hasSuffix(".swift") }
            .map { generated.appendingPathComponent($0).path }
        files.append(packageRoot.appendingPathComponent("Tests/TroveDocTests/Context/Context.swift").path)

        var arguments = try compilerArguments()
        if mainActor {
            arguments += ["-default-isolation", "MainActor"]
        }
        let compiler = try run("/usr/bin/env", [swiftc] + arguments + files)
        var problems: [String] = []
        for line in compiler.output.split(separator: "\n").map(String.init) {
            guard let diagnostic = Diagnostic(line), diagnostic.severity != "note" else { continue }
            if diagnostic.severity == "warning" && Self.toleratedWarnings.contains(where: diagnostic.message.contains) {
                continue
            }
            if diagnostic.file == documentPath {
                let block =
                    assembler.blockStart(containing: diagnostic.line).map { " (in the block at line \($0))" } ?? ""
                problems.append(
                    "\(documentPath):\(diagnostic.line)\(block): \(diagnostic.severity): \(diagnostic.message)")
            } else {
                let name = URL(fileURLWithPath: diagnostic.file).lastPathComponent
                problems.append(
                    "\(documentPath): in the context of its blocks (\(name):\(diagnostic.line)): \(diagnostic.severity): \(diagnostic.message)"
                )
            }
        }
        if compiler.status != 0 && problems.isEmpty {
            problems.append(
                "\(documentPath): the compiler failed without a message on the document:\n\(compiler.output.prefix(4_000))"
            )
        }
        return Outcome(problems: problems, output: compiler.output)
    }

    /// The compiler's arguments: Swift 6 with the upcoming features the package uses, the built
    /// modules, and the module maps of the C modules they import.
    private func compilerArguments() throws -> [String] {
        var arguments = [
            "-emit-sil", "-wmo", "-o", "/dev/null", "-parse-as-library", "-swift-version", "6",
            "-enable-upcoming-feature", "ExistentialAny", "-enable-upcoming-feature", "MemberImportVisibility",
            "-module-name", "DocumentationSnippets", "-diagnostic-style", "llvm",
            "-module-cache-path", productsFolder.appendingPathComponent("documentation-snippets-module-cache").path,
            "-I", productsFolder.appendingPathComponent("Modules").path,
            "-I", packageRoot.appendingPathComponent("Sources/TroveCSQLite").path,
        ]
        // The C modules of the dependencies (postgres-nio's NIO and its crypto), as SwiftPM names
        // them for its own compilations.
        for mapFile in try Self.moduleMaps(in: productsFolder) {
            arguments += ["-Xcc", "-fmodule-map-file=\(mapFile)"]
        }
        return arguments
    }

    /// The module maps of the C targets SwiftPM built: those it wrote in each target's build
    /// folder, and for the others (which bring their own) the one in the target's sources, in the
    /// package's checkouts beside the products.
    static func moduleMaps(in productsFolder: URL) throws -> [String] {
        let manager = FileManager.default
        var maps: [String] = []
        var targetsWithSources: [String] = []
        for entry in try manager.contentsOfDirectory(atPath: productsFolder.path).sorted()
        where entry.hasSuffix(".build") {
            let map = productsFolder.appendingPathComponent(entry).appendingPathComponent("module.modulemap").path
            if manager.fileExists(atPath: map) {
                maps.append(map)
            } else {
                targetsWithSources.append(String(entry.dropLast(".build".count)))
            }
        }
        // `.build/<triple>/debug` -> `.build/checkouts`.
        let checkouts = productsFolder.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("checkouts")
        for package in (try? manager.contentsOfDirectory(atPath: checkouts.path).sorted()) ?? [] {
            let sources = checkouts.appendingPathComponent(package).appendingPathComponent("Sources")
            for target in targetsWithSources {
                for candidate in ["include/module.modulemap", "module.modulemap"] {
                    let map = sources.appendingPathComponent(target).appendingPathComponent(candidate).path
                    if manager.fileExists(atPath: map) {
                        maps.append(map)
                        break
                    }
                }
            }
        }
        return maps
    }

    private func describeGeneratorError(
        _ line: String, documentLines: [Int?], documentPath: String, assembler: SnippetAssembler
    ) -> String {
        guard let diagnostic = Diagnostic(line) else { return "\(documentPath): trove-gen: \(line)" }
        if diagnostic.file.hasSuffix("Declarations.swift"), diagnostic.line - 1 < documentLines.count,
            let documentLine = documentLines[diagnostic.line - 1]
        {
            let block = assembler.blockStart(containing: documentLine).map { " (in the block at line \($0))" } ?? ""
            return "\(documentPath):\(documentLine)\(block): trove-gen: \(diagnostic.message)"
        }
        let name = URL(fileURLWithPath: diagnostic.file).lastPathComponent
        return "\(documentPath): trove-gen, in the shared model \(name):\(diagnostic.line): \(diagnostic.message)"
    }

    /// Runs `executable` and returns its status and its output (standard output and error together).
    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}

/// A line of a compiler's output: `file:line:column: severity: message`.
struct Diagnostic: Sendable, Equatable {
    var file: String
    var line: Int
    var severity: String
    var message: String

    init?(_ text: String) {
        for severity in ["error", "warning", "note"] {
            guard let range = text.range(of: ": \(severity): ") else { continue }
            let location = text[..<range.lowerBound].split(separator: ":")
            guard location.count >= 3, let line = Int(location[location.count - 2]) else { return nil }
            self.file = location.dropLast(2).joined(separator: ":")
            self.line = line
            self.severity = severity
            self.message = String(text[range.upperBound...])
            return
        }
        return nil
    }
}
