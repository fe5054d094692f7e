import Foundation
import PackagePlugin

/// The command plugin `swift package trove`: writes the generated sources of a package's annotated models into
/// each target's `Generated/` folder, to be committed, or checks that they are up to date.
///
///     $ swift package --allow-writing-to-package-directory trove [--target <target> ...]
///     $ swift package trove --check [--target <target> ...]
///
/// Without `--target`, it works on every Swift target of the package that has annotated sources
/// (`// @persistable` or `// @coded`) or committed generated sources.
@main
struct TroveCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let isCheck = extractor.extractFlag(named: "check") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw PluginError.unknownArguments(extractor.remainingArguments)
        }

        let tool = try context.tool(named: PluginUtils.toolName).url
        var staleTargets: [String] = []
        for target in try selectedTargets(in: context.package, named: targetNames) {
            let sources = try PluginUtils.TargetSources(
                targetName: target.name,
                sourceRoot: target.directoryURL,
                swiftFiles: target.sourceFiles(withSuffix: ".swift").map(\.url)
            )
            let responseFile = context.pluginWorkDirectoryURL.appendingPathComponent("\(target.name)-inputs.txt")
            try PluginUtils.writeResponseFile(listing: sources.inputs, to: responseFile)
            var arguments = [
                "generate", "--output-dir", sources.generatedFolder.path, "--source-root", sources.sourceRoot.path,
            ]
            if isCheck {
                arguments.append("--check")
            }
            arguments.append("@" + responseFile.path)

            Diagnostics.progress("\(isCheck ? "Checking" : "Generating") Trove sources of \(target.name)")
            let status = try run(tool, arguments: arguments)
            switch status {
            case 0:
                break
            case PluginUtils.staleExitStatus where isCheck:
                staleTargets.append(target.name)
            default:
                throw PluginError.generatorFailed(targetName: target.name, exitStatus: status)
            }
        }
        if !staleTargets.isEmpty {
            throw PluginError.staleGeneratedSources(targetNames: staleTargets)
        }
    }

    /// The named targets, or every Swift target with annotated or committed generated sources.
    private func selectedTargets(in package: Package, named names: [String]) throws -> [SwiftSourceModuleTarget] {
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

    /// Runs `tool` with the plugin's standard output and error, and returns its exit status.
    private func run(_ tool: URL, arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
