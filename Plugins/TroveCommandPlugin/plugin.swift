import PackagePlugin

/// The command plugin `swift package trove`: writes the generated sources of a package's annotated models into
/// each target's `Generated/` folder, to be committed, or checks that they are up to date.
///
///     $ swift package --allow-writing-to-package-directory trove [--target <target> ...]
///     $ swift package --allow-writing-to-package-directory trove --check [--target <target> ...]
///
/// It declares write access, which SwiftPM asks for before running it, even with `--check`: CI checks with
/// `swift package trove-check` (TroveCheckPlugin), which declares none. The work is done by ``TroveCommand``.
@main
struct TroveCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try TroveCommand.perform(context: context, arguments: arguments, verb: .trove)
    }
}
