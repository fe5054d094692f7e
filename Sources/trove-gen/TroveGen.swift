import ArgumentParser

/// The command-line front end of the Trove code generator.
///
/// ```
/// $ trove-gen generate --output-dir Sources/App/Generated --source-root Sources/App Sources/App/Models/User.swift
/// ```
@main
struct TroveGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trove-gen",
        abstract: "Generates Trove persistence code for annotated Swift models.",
        discussion: """
            Annotate model types with comments such as `// @persistable(collection: "users")`, \
            `// @key` and `// @coded`; trove-gen writes their Persistable conformances and binary coders.
            """,
        subcommands: [GenerateCommand.self],
        defaultSubcommand: GenerateCommand.self)
}
