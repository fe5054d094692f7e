import Foundation
import PackagePlugin

/// The build-tool plugin: generates the Trove code of a target's annotated models on every build.
///
/// Apply it to a target with `plugins: [.plugin(name: "TrovePlugin", package: "Trove")]`. The generated files
/// live in the plugin work directory, never in the package. When the target has committed generated sources
/// (written by `swift package trove`), the plugin only checks that they are up to date.
@main
struct TrovePlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else {
            throw PluginError.incompatibleTarget(target.name)
        }
        let sources = try PluginUtils.TargetSources(
            targetName: target.name,
            sourceRoot: target.directoryURL,
            swiftFiles: target.sourceFiles(withSuffix: ".swift").map(\.url)
        )
        return try PluginUtils.buildCommands(
            tool: context.tool(named: PluginUtils.toolName).url,
            workDirectory: context.pluginWorkDirectoryURL,
            targetName: target.name,
            sources: sources
        )
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension TrovePlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let swiftFiles = target.inputFiles.filter { $0.type == .source && $0.url.pathExtension == "swift" }.map(\.url)
        let sources = try PluginUtils.TargetSources(
            targetName: target.displayName,
            sourceRoot: PluginUtils.commonDirectory(of: swiftFiles) ?? context.xcodeProject.directoryURL,
            swiftFiles: swiftFiles
        )
        return try PluginUtils.buildCommands(
            tool: context.tool(named: PluginUtils.toolName).url,
            workDirectory: context.pluginWorkDirectoryURL,
            targetName: target.displayName,
            sources: sources
        )
    }
}
#endif
