import Foundation
import PackagePlugin

/// What the two command plugins run, in one copy:
///
///     $ swift package --allow-writing-to-package-directory trove [--target <target> ...] [--check]
///     $ swift package trove-check [--target <target> ...]
///
/// `trove` (TroveCommandPlugin) writes each target's committed generated sources into its `Generated/` folder,
/// or checks them with `--check`. It declares write access, and SwiftPM asks for that before it runs a plugin,
/// whatever the arguments: without `--allow-writing-to-package-directory` it prompts at a terminal and fails
/// without one. `trove-check` (TroveCheckPlugin) only checks and declares no permission, so CI runs it as is.
///
/// Without `--target`, both work on every Swift target that has annotated sources (`// @persistable` or
/// `// @coded`) or committed generated sources; a check skips the targets in build mode (they apply
/// TrovePlugin and have no committed generated sources: there is nothing committed to check).
///
/// This file is shared by the plugins through the `Shared` symlink in each plugin folder.
enum TroveCommand {
    /// The verb a command plugin answers to.
    enum Verb {
        /// `swift package trove`: writes, or checks with `--check`.
        case trove
        /// `swift package trove-check`: only checks.
        case troveCheck

        var usage: String {
            switch self {
            case .trove:
                return "swift package --allow-writing-to-package-directory trove [--target <target> ...] [--check]"
            case .troveCheck:
                return "swift package trove-check [--target <target> ...]"
            }
        }
    }

    /// The name of the build-tool plugin, as a package manifest applies it.
    static let buildPluginName = "TrovePlugin"

    /// The command that writes the committed generated sources of `targetName`, named in every stale report.
    static func fixCommand(targetNames: [String]) -> String {
        (["swift package --allow-writing-to-package-directory trove"]
            + targetNames.map { "--target " + shellQuoted($0) }).joined(separator: " ")
    }

    /// Runs the command of `verb` with the arguments SwiftPM passed to the plugin.
    static func perform(context: PluginContext, arguments: [String], verb: Verb) throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let isCheck = verb == .troveCheck || extractor.extractFlag(named: "check") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw PluginError.unknownArguments(extractor.remainingArguments, usage: verb.usage)
        }

        let tool = try context.tool(named: PluginUtils.toolName).url
        let candidates = try selectedTargets(in: context.package, named: targetNames)
        let pluginTargets: Set<String> = isCheck ? targetsApplyingBuildPlugin(in: context.package) : []

        var staleTargets: [String] = []
        var targetsWithoutCommittedSources: [String] = []
        for target in candidates {
            let sources = try PluginUtils.TargetSources(
                targetName: target.name,
                sourceRoot: target.directoryURL,
                swiftFiles: target.sourceFiles(withSuffix: ".swift").map(\.url)
            )
            let isInBuildMode = sources.committedGeneratedFiles.isEmpty && pluginTargets.contains(target.name)
            if isInBuildMode, targetNames.isEmpty {
                Diagnostics.progress(
                    "Skipping \(target.name): it applies \(buildPluginName) and has no committed generated sources "
                        + "(build mode)")
                continue
            }
            let responseFile = context.pluginWorkDirectoryURL.appendingPathComponent("\(target.name)-inputs.txt")
            try PluginUtils.writeResponseFile(listing: sources.inputs, to: responseFile)
            var arguments = [
                "generate", "--output-dir", sources.generatedFolder.path, "--source-root", sources.sourceRoot.path,
            ]
            if isCheck {
                arguments += ["--check", "--fix-command", fixCommand(targetNames: [target.name])]
            }
            arguments.append("@" + responseFile.path)

            Diagnostics.progress("\(isCheck ? "Checking" : "Generating") Trove sources of \(target.name)")
            let status = try run(tool, arguments: arguments)
            switch status {
            case 0:
                break
            case PluginUtils.staleExitStatus where isCheck:
                staleTargets.append(target.name)
                if sources.committedGeneratedFiles.isEmpty, !isInBuildMode {
                    targetsWithoutCommittedSources.append(target.name)
                }
            default:
                throw PluginError.generatorFailed(targetName: target.name, exitStatus: status)
            }
        }
        if !staleTargets.isEmpty {
            throw PluginError.staleGeneratedSources(
                targetNames: staleTargets,
                fixCommand: fixCommand(targetNames: staleTargets),
                withoutCommittedSources: targetsWithoutCommittedSources
            )
        }
    }

    /// The named targets, or every Swift target with annotated or committed generated sources.
    private static func selectedTargets(in package: Package, named names: [String]) throws
        -> [SwiftSourceModuleTarget]
    {
        if !names.isEmpty {
            return try package.targets(named: names).map { target in
                guard let swiftTarget = target as? SwiftSourceModuleTarget else {
                    throw PluginError.incompatibleTarget(target.name)
                }
                return swiftTarget
            }
        }
        return package.targets.compactMap { $0 as? SwiftSourceModuleTarget }.filter { target in
            target.sourceFiles(withSuffix: ".swift").contains { file in
                guard let relativePath = PluginUtils.relativePath(of: file.url, under: target.directoryURL) else {
                    return false
                }
                return PluginUtils.isCommittedGeneratedFile(relativePath: relativePath)
                    || PluginUtils.containsTypeAnnotation(file.url)
            }
        }
    }

    /// The targets that the package's manifest declares with a usage of TrovePlugin.
    ///
    /// PackagePlugin does not tell a command plugin which plugins a target applies, so this reads the manifest:
    /// `Package.swift` and any version-specific `Package@swift-*.swift` (the names found in any of them).
    private static func targetsApplyingBuildPlugin(in package: Package) -> Set<String> {
        let directory = package.directoryURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var targets: Set<String> = []
        for name in names.sorted()
        where name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift")) {
            guard let manifest = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            else { continue }
            targets.formUnion(ManifestScanner.targetsApplyingPlugin(named: buildPluginName, inManifest: manifest))
        }
        return targets
    }

    /// `text` as one shell word: unchanged when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+/=@%:,")
        if !text.isEmpty, text.allSatisfy({ safe.contains($0) }) {
            return text
        }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `tool` with the plugin's standard output and error, and returns its exit status.
    private static func run(_ tool: URL, arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
