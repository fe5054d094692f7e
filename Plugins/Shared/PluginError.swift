import Foundation

/// An error of a Trove plugin. Its description says what went wrong and how to fix it.
///
/// This file is shared by both plugins through the `Shared` symlink in each plugin folder.
struct PluginError: Error, CustomStringConvertible, LocalizedError {
    private enum Kind {
        case incompatibleTarget(targetName: String)
        case sourceOutsideTarget(path: String, targetName: String)
        case unknownArguments([String])
        case generatorFailed(targetName: String, exitStatus: Int32)
        case staleGeneratedSources(targetNames: [String])
    }

    private let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// The target is not a Swift source target, so it has no Swift models to generate code for.
    static func incompatibleTarget(_ targetName: String) -> Self {
        Self(.incompatibleTarget(targetName: targetName))
    }

    /// A source file lies outside the target's folder, so its output name cannot be derived.
    static func sourceOutsideTarget(path: String, targetName: String) -> Self {
        Self(.sourceOutsideTarget(path: path, targetName: targetName))
    }

    /// The command plugin got arguments it does not know.
    static func unknownArguments(_ arguments: [String]) -> Self {
        Self(.unknownArguments(arguments))
    }

    /// `trove-gen` exited with a failure status; it printed the reason itself.
    static func generatorFailed(targetName: String, exitStatus: Int32) -> Self {
        Self(.generatorFailed(targetName: targetName, exitStatus: exitStatus))
    }

    /// `swift package trove --check` found committed generated sources that are out of date.
    static func staleGeneratedSources(targetNames: [String]) -> Self {
        Self(.staleGeneratedSources(targetNames: targetNames))
    }

    var description: String {
        switch kind {
        case .incompatibleTarget(let targetName):
            return "Target '\(targetName)' is not a Swift source target. Apply TrovePlugin only to Swift targets "
                + "(library, executable or test targets with Swift sources)."
        case .sourceOutsideTarget(let path, let targetName):
            return "Source file '\(path)' is outside the folder of target '\(targetName)', so Trove cannot name its "
                + "generated file. Move the file into the target's folder."
        case .unknownArguments(let arguments):
            return "Unknown arguments: \(arguments.joined(separator: " ")). "
                + "Usage: swift package --allow-writing-to-package-directory trove [--target <target> ...] [--check]"
        case .generatorFailed(let targetName, let exitStatus):
            return "trove-gen failed for target '\(targetName)' (exit status \(exitStatus)); its errors are printed "
                + "above. Fix the annotations at the reported lines and run the command again."
        case .staleGeneratedSources(let targetNames):
            let targetArguments = targetNames.map { "--target \($0)" }.joined(separator: " ")
            return "Committed generated sources are out of date in \(targetNames.map { "'\($0)'" }.joined(separator: ", ")). "
                + "Run `swift package --allow-writing-to-package-directory trove \(targetArguments)` and commit "
                + "the result."
        }
    }

    var errorDescription: String? {
        description
    }
}
