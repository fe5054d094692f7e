import PackagePlugin

/// The command plugin `swift package trove-check`: fails when the committed generated sources of a package's
/// annotated models are stale, missing or extra, and names each file and the command that fixes it.
///
///     $ swift package trove-check [--target <target> ...]
///
/// It writes nothing and declares no permission, so it runs in CI without flags and without a terminal (as
/// swift-format's `lint` beside its `format`). Without `--target` it skips targets in build mode (they apply
/// TrovePlugin and have no committed generated sources). The work is done by ``TroveCommand``, shared with
/// `swift package trove`.
@main
struct TroveCheckPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try TroveCommand.perform(context: context, arguments: arguments, verb: .troveCheck)
    }
}
